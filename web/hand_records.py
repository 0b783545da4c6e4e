"""A hand form's cleaned data as a score-sheet record, and a stored record as the form's initial data.

The two directions are written side by side so that what one writes the other reads back: a hand opened for
correction shows exactly what was saved.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, cast

from scoring.sheet.record import HandRecord
from web.chips import repeated_initial
from web.forms import EXTRA_WINS


def hand_record(data: Mapping[str, Any], *, mcr: bool) -> HandRecord:
    """The score-sheet hand (players by id) from a form's cleaned data: only what the result takes, no empties."""
    result = data["result"]
    record: dict[str, Any] = {"result": result}
    if result == "tenpai":  # the solo game's attempt: its draws and its value (no winner: one player)
        if data.get("draws") is not None:
            record["draws"] = data["draws"]
        record.update(_win(data, "", mcr=False))
    elif result in ("ron", "tsumo"):
        first = _win(data, "", mcr=mcr)
        extra = [_win(data, f"win{k}_", mcr=mcr) for k in EXTRA_WINS
                 if result == "ron" and data.get(f"win{k}_winner") is not None]
        if result == "ron" and data.get("loser") is not None:
            record["loser"] = data["loser"]
        if extra:
            record["wins"] = [first, *extra]
        else:
            record.update(first)
    elif result == "draw":
        _put_list(record, data, "tenpai", "nagashi")
    elif result == "abort":
        if data.get("reason"):
            record["reason"] = data["reason"]
    elif result == "chombo" and data.get("player") is not None:
        record["player"] = data["player"]
    _put_list(record, data, "riichi")
    if result in ("ron", "tsumo", "draw"):
        _put_list(record, data, "false_wins", "false_wins_live")
    if data.get("note"):
        record["note"] = data["note"]
    return cast(HandRecord, record)  # the form checked the types; the replay checks the hand


def _put_list(record: dict[str, Any], data: Mapping[str, Any], *names: str) -> None:
    for name in names:
        if data.get(name):
            record[name] = list(data[name])


def _win(data: Mapping[str, Any], prefix: str, *, mcr: bool) -> dict[str, Any]:
    win: dict[str, Any] = {}
    if data.get(prefix + "winner") is not None:
        win["winner"] = data[prefix + "winner"]
    tiles = _tiles(data, mcr=mcr) if not prefix else None
    values: tuple[str, ...] = ("fan",) if mcr else ("han", "fu", "yakuman")
    if mcr and tiles is None:
        values += ("flowers",)
    for name in values:
        if data.get(prefix + name) is not None:
            win[name] = data[prefix + name]
    if tiles is not None:
        win["tiles"] = tiles
    if not mcr and data.get(prefix + "pao") is not None:
        win["pao"] = data[prefix + "pao"]
    return win


def _tiles(data: Mapping[str, Any], *, mcr: bool) -> dict[str, Any] | None:
    """The tiles object when the referee typed tiles (a concealed part or a winning tile), else None."""
    concealed, win = (data.get("tiles_concealed") or "").strip(), (data.get("tiles_win") or "").strip()
    if not concealed and not win:
        return None
    tiles: dict[str, Any] = {"concealed": concealed, "win": win}
    melds = [m.strip() for m in re.split(r"[,;\n]+", data.get("tiles_melds") or "") if m.strip()]
    if melds:
        tiles["melds"] = melds
    if not mcr:
        for name in ("dora", "ura"):
            if (data.get(f"tiles_{name}") or "").strip():
                tiles[name] = data[f"tiles_{name}"].strip()
    if data.get("tiles_flags"):
        tiles["flags"] = list(data["tiles_flags"])
    if mcr and data.get("flowers") is not None:
        tiles["flowers"] = data["flowers"]
    return tiles


def record_initial(record: Mapping[str, Any]) -> dict[str, Any]:
    """A stored hand record as the form's initial data: the inverse of ``hand_record``."""
    initial: dict[str, Any] = {"result": record.get("result")}
    for name in ("loser", "reason", "player", "note", "draws"):
        if name in record:
            initial[name] = record[name]
    for name in ("riichi", "tenpai", "nagashi", "false_wins", "false_wins_live"):
        if name in record:
            initial[name] = repeated_initial(record[name]) if name == "false_wins" else list(record[name])
    wins = record.get("wins")
    if not isinstance(wins, list) or not wins:
        wins = [record] if record.get("result") in ("ron", "tsumo", "tenpai") else []
    for position, win in enumerate(wins[: 1 + len(EXTRA_WINS)]):
        prefix = "" if position == 0 else f"win{position + 1}_"
        for name in ("winner", "han", "fu", "yakuman", "fan", "flowers", "pao"):
            if name in win:
                initial[prefix + name] = win[name]
        tiles = win.get("tiles")
        if position == 0 and isinstance(tiles, Mapping):
            for name in ("concealed", "win", "dora", "ura"):
                if name in tiles:
                    initial[f"tiles_{name}"] = tiles[name]
            if tiles.get("melds"):
                initial["tiles_melds"] = ", ".join(tiles["melds"])
            if tiles.get("flags"):
                initial["tiles_flags"] = list(tiles["flags"])
            if "flowers" in tiles:
                initial["flowers"] = tiles["flowers"]
    return initial
