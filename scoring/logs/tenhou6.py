"""tenhou.net/6 JSON (Tenhou's viewer format, and what Mahjong Soul records are converted to) read into an
``OnlineGame``.

Each entry of ``log`` is one hand: ``[kyoku, honba, sticks]``, the scores,
the dora and ura indicators, each seat's haipai, draws and discards, and
last the result: ``["和了", deltas, [who, from, pao, "30符1飜1000点",
yaku…], …]`` (a second win follows for a double ron), ``["流局", deltas]``,
``["流し満貫", deltas]`` or an abortive draw's name. Deltas leave out the
riichi sticks paid in the hand; a riichi is a discard written ``"r…"``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rules.errors import Refusal
from scoring.logs.model import (
    OnlineGame,
    Platform,
    RecordedHand,
    log_int,
    log_number,
    round_label,
    rounding_overrides,
    tenhou_overrides,
)
from scoring.sheet.record import HandRecord, ValueRecord, WinRecord, with_win

MANGAN_HAN = 5
# A 3 or 4 han mangan is written "満貫…" without its fu; the least fu that makes it a mangan pays the same.
MANGAN_FU = {3: 70, 4: 40}
RIICHI_STICK = 1000
SEATS = 4  # a three-player log still has four seats, the fourth empty
HAND_FIELDS = 4 + 3 * SEATS + 1

WIN = "和了"
DRAWS = {"流局", "全員聴牌", "全員不聴"}
NAGASHI = "流し満貫"
ABORTS = {
    "九種九牌": "nine_terminals",
    "四風連打": "four_winds",
    "四家立直": "four_riichi",
    "三家和了": "triple_ron",
    "四槓散了": "four_kans",
}
MAHJONG_SOUL_ROOMS = ("銅の間", "銀の間", "金の間", "玉の間", "王座の間", "雀魂")

_FU = re.compile(r"(\d{1,4})符")
_HAN = re.compile(r"\((\d{1,4})飜\)")


def read_tenhou6(data: Any, *, log_id: str, ruleset: str | None = None) -> OnlineGame:
    """The game in ``data`` (a parsed tenhou.net/6 object); Refusal naming the hand when it cannot be read."""
    if not isinstance(data, dict) or not isinstance(data.get("log"), list) or not data["log"]:
        raise Refusal.one("log", 'not a tenhou.net/6 game: an object with a non-empty "log" list is expected')
    try:
        game = _game(data, log_id=log_id, ruleset=ruleset)
        hands: list[Any] = data["log"]
        for index, hand in enumerate(hands):
            following = hands[index + 1] if index + 1 < len(hands) else None
            _read_hand(game, hand, following, where=f"log[{index}]")
        _read_final(game, data.get("sc"))
    except Refusal:
        raise
    except (KeyError, ValueError, IndexError, TypeError) as exc:
        raise Refusal.one("log", f"a hand lacks what tenhou.net/6 logs always hold ({exc!r})") from None
    return game


def _game(data: dict[str, Any], *, log_id: str, ruleset: str | None) -> OnlineGame:
    rule = data.get("rule")
    disp = str(rule.get("disp", "")) if isinstance(rule, dict) else ""
    names = [str(n) for n in data.get("name", [])][:SEATS]
    three = len(names) < SEATS or names[SEATS - 1] == "" or disp.startswith("三")
    platform = Platform.MAHJONG_SOUL if any(room in disp for room in MAHJONG_SOUL_ROOMS) else Platform.TENHOU
    key = ruleset or ("mahjong-soul" if platform == Platform.MAHJONG_SOUL else "tenhou")
    if key == "mahjong-soul" and three:
        raise Refusal.one(
            "rule", "a three-player Mahjong Soul game: no preset holds its rules; name one with --ruleset"
        )
    hanchan = "東" not in disp
    if key == "tenhou":
        overrides = tenhou_overrides(three_players=three, hanchan=hanchan)
    else:
        overrides = {} if hanchan else {"round_winds": 1}
    ref = str(data.get("ref", ""))
    return OnlineGame(
        platform=platform,
        log_id=ref if ref.strip("0-") else log_id,
        names=names[:3] if three else names,
        ruleset=key,
        overrides=overrides,
    )


def _read_hand(game: OnlineGame, hand: Sequence[Any], following: Sequence[Any] | None, *, where: str) -> None:
    if len(hand) != HAND_FIELDS:
        raise Refusal.one(where, f"a hand has {HAND_FIELDS} fields, this one {len(hand)}")
    players = len(game.names)
    kyoku, honba, sticks = (log_int(v, f"{where}[0]") for v in hand[0])
    if not game.recorded:
        scores = tuple(log_int(s, f"{where}[1]") for s in hand[1][:players])
        default = game.overrides.get("start_points", 25000 if game.ruleset == "tenhou" else None)
        if default is None or any(s != default for s in scores):
            game.start_scores = scores
    discards = [hand[6 + 3 * seat] for seat in range(players)]
    result = hand[-1]
    record, deltas = _result(game, result, kyoku=kyoku, following=following, where=where)
    riichi = [seat for seat in range(players) if _paid_riichi(seat, discards[seat], result)]
    if riichi:
        record["riichi"] = [game.names[seat] for seat in riichi]
    for seat in riichi:
        deltas[seat] -= RIICHI_STICK
    game.hands.append(record)
    game.recorded.append(RecordedHand(round=round_label(kyoku), honba=honba, deposits=sticks, deltas=tuple(deltas)))


def _result(
    game: OnlineGame, result: Sequence[Any], *, kyoku: int, following: Sequence[Any] | None, where: str
) -> tuple[HandRecord, list[int]]:
    players = len(game.names)
    kind = str(result[0])
    zero = [0] * players
    if kind in ABORTS:
        return {"result": "abort", "reason": ABORTS[kind]}, zero
    if kind == WIN:
        return _wins(game, result, where=where)
    deltas = [log_int(d, f"{where}[-1][1]") for d in result[1][:players]] if len(result) > 1 else zero
    if kind in DRAWS:
        tenpai = (
            [p for p in range(players) if deltas[p] > 0]
            if any(deltas)
            else (list(range(players)) if kind == "全員聴牌" else [])
        )
        return {"result": "draw", "tenpai": [game.names[p] for p in tenpai]}, deltas
    if kind == NAGASHI:
        dealer = kyoku % 4
        # The payments say who held nagashi; whether the dealer was tenpai, only the next hand's dealer says.
        dealer_stays = following is not None and log_int(following[0][0], where) == kyoku
        return {
            "result": "draw",
            "tenpai": [game.names[dealer]] if dealer_stays else [],
            "nagashi": [game.names[p] for p in range(players) if deltas[p] > 0],
        }, deltas
    raise Refusal.one(where, f"unknown result {kind!r}")


def _wins(game: OnlineGame, result: Sequence[Any], *, where: str) -> tuple[HandRecord, list[int]]:
    players = len(game.names)
    deltas = [0] * players
    wins: list[WinRecord] = []
    loser = None
    for delta, detail in zip(result[1::2], result[2::2], strict=True):
        deltas = [a + log_int(b, where) for a, b in zip(deltas, delta[:players], strict=True)]
        who, from_who, pao = (log_int(v, where) for v in detail[:3])
        win: WinRecord = {"winner": game.names[who], **_value(detail[3], [str(y) for y in detail[4:]], where=where)}
        if pao != who:
            win["pao"] = game.names[pao]
        wins.append(win)
        loser = None if from_who == who else from_who
    if loser is None:
        return with_win({"result": "tsumo"}, wins[0]), deltas
    if len(wins) == 1:
        return with_win({"result": "ron", "loser": game.names[loser]}, wins[0]), deltas
    return {"result": "ron", "loser": game.names[loser], "wins": wins}, deltas


def _value(points: str, yaku: list[str], *, where: str) -> ValueRecord:
    yakuman = sum(2 if "(ダブル役満)" in y else 1 for y in yaku if y.endswith("役満)"))
    if yakuman:
        return {"yakuman": yakuman}
    han = sum(int(m[1]) for y in yaku if (m := _HAN.search(y)))
    if han >= MANGAN_HAN:
        return {"han": han}
    fu = _FU.search(points)
    if fu:
        return {"han": han, "fu": int(fu[1])}
    if han in MANGAN_FU and "満貫" in points:
        return {"han": han, "fu": MANGAN_FU[han]}
    raise Refusal.one(where, f"a {han} han win written {points!r} gives no fu")


def _paid_riichi(seat: int, discards: Sequence[Any], result: Sequence[Any]) -> bool:
    """A riichi's stick is paid unless its declaring discard is the one a player won on."""
    declared = [i for i, d in enumerate(discards) if isinstance(d, str) and d.startswith("r")]
    if not declared:
        return False
    if result[0] == WIN and declared[-1] == len(discards) - 1:
        return not any(log_int(d[1], "log") == seat and log_int(d[0], "log") != seat for d in result[2::2])
    return True


def _read_final(game: OnlineGame, sc: Any) -> None:
    if not isinstance(sc, list) or len(sc) < 2 * len(game.names):
        return
    players = len(game.names)
    game.final_scores = tuple(log_int(v, "sc") for v in sc[0::2][:players])
    game.final_points = tuple(log_number(v, "sc") for v in sc[1::2][:players])
    game.overrides |= rounding_overrides(game.final_points)
