"""A hand form's cleaned data as a score-sheet record, and a stored record as the form's initial data.

Both directions are derived from the one declaration of the hand record (scoring.sheet.record), field by
field: a field's kind says how the form holds it (``_FORM``), its results which hands take it, ``in_win``
that it belongs to one winner's win. The first winner's fields carry their plain names and a multiple ron's
further winners ``win2_``, ``win3_`` before them (web.forms.win_prefix); the tiles object is spread over the
``tiles_*`` fields (``_TILE_PARTS``). What one direction writes the other reads back, so that a hand opened
for correction shows exactly what was saved.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from scoring.sheet.record import VALUED, Field, HandRecord, Kind, Model, hand_fields
from web.chips import repeated_initial
from web.forms import EXTRA_WINS, win_prefix

Data = Mapping[str, Any]
# Values by field name: the form's initial data, or a hand's fields read from the form before hand_record hands
# them over as a HandRecord (the replay checks them).
Fields = dict[str, Any]


def _given(value: Any) -> Any:
    """The value, or None where the referee gave none (a blank box, no chip chosen)."""
    return None if value is None or value == "" or value == [] else value


def _text(value: Any) -> str | None:
    return (value or "").strip() or None


def _sets(value: Any) -> list[str] | None:
    """Called sets typed in one box, separated by commas (or semicolons, or lines)."""
    return [m.strip() for m in re.split(r"[,;\n]+", value or "") if m.strip()] or None


def _choices(value: Any) -> list[Any] | None:
    return list(value) if value else None


@dataclass(frozen=True, slots=True)
class _Part:
    """How the form types one part of a win's tiles (docs/score-sheet.md "Tiles")."""

    name: str  # the form field, after the win's prefix
    initial: Callable[[Any], Any]  # the record's value as the form shows it
    value: Callable[[Any], Any]  # the form's cleaned value as the record's; None: not given


# Every part of scoring.sheet.record.TilesRecord (tests/web/test_hand_records.py checks that none is missing).
# The flowers are typed once, in the hand's own flowers field: with tiles they are the tiles'.
_TILE_PARTS: dict[str, _Part] = {
    "concealed": _Part("tiles_concealed", str, _text),
    "win": _Part("tiles_win", str, _text),
    "melds": _Part("tiles_melds", ", ".join, _sets),
    "dora": _Part("tiles_dora", str, _text),
    "ura": _Part("tiles_ura", str, _text),
    "flags": _Part("tiles_flags", list, _choices),
    "flowers": _Part("flowers", int, _given),
}
# A tiles object always has these two (its schema requires them); typing either one gives the tiles.
_TILES_NEED = ("concealed", "win")
# The parts typed in a field of the hand's own (the flowers): the tiles' when tiles are given, else the hand's.
_SHARED = frozenset(part for part, way in _TILE_PARTS.items() if way.name == part)


def _tiles(data: Data, prefix: str, field: Field) -> Fields | None:
    """The tiles object when the referee typed tiles (a concealed part or a winning tile), else None."""
    given = {
        part: value
        for part, way in _TILE_PARTS.items()
        if (value := way.value(data.get(prefix + way.name))) is not None
    }
    if not given.keys() & set(_TILES_NEED):
        return None
    return {**dict.fromkeys(_TILES_NEED, ""), **given}


def _tiles_initial(prefix: str, field: Field, tiles: Any) -> Fields:
    if not isinstance(tiles, Mapping):
        return {}
    return {prefix + way.name: way.initial(value) for part, value in tiles.items() if (way := _TILE_PARTS.get(part))}


def _one(data: Data, prefix: str, field: Field) -> Any:
    return _given(data.get(prefix + field.name))


def _one_initial(prefix: str, field: Field, value: Any) -> Fields:
    return {prefix + field.name: value}


def _players(data: Data, prefix: str, field: Field) -> list[Any] | None:
    return _choices(data.get(prefix + field.name))


def _players_initial(prefix: str, field: Field, value: Any) -> Fields:
    # A player listed more than once (MCR false wins) is one chip with a count.
    return {prefix + field.name: repeated_initial(value) if field.spec.each > 1 else list(value)}


def _none(data: Data, prefix: str, field: Field) -> None:
    return None


def _nothing(prefix: str, field: Field, value: Any) -> Fields:
    return {}


@dataclass(frozen=True, slots=True)
class _Way:
    """How the form holds a kind of field: read from the form's data, written as the form's initial data."""

    read: Callable[[Data, str, Field], Any]  # (data, the win's prefix, field) -> the record's value; None: left out
    write: Callable[[str, Field, Any], Fields]  # (prefix, field, the record's value) -> the form's initial data


_ONE = _Way(_one, _one_initial)  # a value in one form field, as it is: a result, a player, a count, a text
_FORM: dict[Kind, _Way] = {
    Kind.PLAYERS: _Way(_players, _players_initial),
    Kind.TILES: _Way(_tiles, _tiles_initial),
    # A multiple ron's further winners span several fields each: hand_record and record_initial gather them.
    Kind.WINS: _Way(_none, _nothing),
}
# The fields each game's form holds: an MCR form has no riichi field, a riichi form no fan (Spec.model).
_MODELS = {False: frozenset({Model.BOTH, Model.RIICHI, Model.SOLO}), True: frozenset({Model.BOTH, Model.MCR})}


def _read(data: Data, prefix: str, fields: Iterable[Field]) -> Fields:
    """The record of ``fields`` from the form's data, the win's fields under ``prefix``: only what was given."""
    out: Fields = {}
    for field in fields:
        value = _FORM.get(field.spec.kind, _ONE).read(data, prefix, field)
        if value is not None:
            out[field.name] = value
    for part in _SHARED & out.get("tiles", {}).keys():
        out.pop(part, None)
    return out


def _write(record: Mapping[str, Any], prefix: str, fields: Iterable[Field]) -> Fields:
    """The form's initial data for ``fields`` of ``record``, the win's fields under ``prefix``."""
    initial: Fields = {}
    for field in fields:
        if field.name in record:
            initial.update(_FORM.get(field.spec.kind, _ONE).write(prefix, field, record[field.name]))
    return initial


def hand_record(data: Data, *, mcr: bool) -> HandRecord:
    """The score-sheet hand (players by id) from a form's cleaned data: only what the result takes, no empties.

    A further winner given (``win2_winner``) makes the hand a multiple ron: the first winner's fields and each
    further winner's become the ``wins`` list."""
    result = data["result"]
    taken = [f for f in hand_fields() if result in f.spec.results and f.spec.model in _MODELS[mcr]]
    record = _read(data, "", taken)
    in_win = [f for f in taken if f.spec.in_win]
    further = [_read(data, win_prefix(k), in_win) for k in EXTRA_WINS if data.get(win_prefix(k) + "winner") is not None]
    if further and any(f.spec.kind is Kind.WINS for f in taken):
        record["wins"] = [{f.name: record.pop(f.name) for f in in_win if f.name in record}, *further]
    return cast(HandRecord, record)  # the form checked the types; the replay checks the hand


def record_initial(record: Mapping[str, Any]) -> Fields:
    """A stored hand record as the form's initial data: the inverse of ``hand_record``."""
    initial: Fields = {"result": record.get("result")}
    initial.update(_write(record, "", [f for f in hand_fields() if not f.spec.in_win]))
    for number, win in enumerate(_wins(record)[: 1 + len(EXTRA_WINS)], start=1):
        initial.update(_write(win, win_prefix(number), [f for f in hand_fields() if f.spec.in_win]))
    return initial


def _wins(record: Mapping[str, Any]) -> list[Any]:
    """Each win of the hand: a multiple ron's list, or the hand itself where it is a win (or a solo attempt)."""
    wins = record.get("wins")
    if isinstance(wins, list) and wins:
        return wins
    return [record] if record.get("result") in VALUED else []
