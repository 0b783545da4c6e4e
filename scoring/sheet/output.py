"""A scored sheet as the result object of docs/score-sheet.md ("Output").

``result_json`` names players by seat (0 = the first dealer): that is what a
game stores, so that renaming a player changes nothing stored. ``named``
puts the names in at the edge, giving the output docs/score-sheet.md specifies
(``deltas`` keyed by name, ``winner`` a name, …): the command's JSON, the API,
an export. Besides the specified fields, each hand carries what was written
down for it (``loser``, ``riichi``, ``tenpai``, ``nagashi``, ``false_wins``;
every ron declared, a head-bumped one with ``stood: false`` and ``bumped_by``),
so that a result can be read and put into words without its sheet, and
``seats`` once players have changed seats (MCR); ``next`` carries the next
hand's ``seat_winds``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from rules.game import HandRecord
from rules.hands import Attempt, Draw, Ron, WinOutcome
from rules.ruleset import number_json
from rules.state import GameState
from scoring.sheet import solo
from scoring.sheet.reader import ScoredSheet

Result = dict[str, Any]  # a result object; players by seat as stored, by name once ``named``


def points_json(value: Fraction) -> float:
    """Final points as a JSON number: exact tenths, two decimals where a tie split needs them."""
    return float(round(value, 1) if (value * 10).denominator == 1 else round(value, 2))


def result_json(scored: ScoredSheet) -> Result:
    """The result object, players by seat: ruleset in force, every hand, the end and the final standings."""
    sheet, state = scored.sheet, scored.record.state
    out: Result = {
        "ruleset": sheet.ruleset.as_dict(),
        "hands": [_hand_json(scored, h) for h in scored.record.hands],
        "finished": state.finished,
        "end_reason": state.end_reason,
        "deposits_left": state.deposits,
    }
    if not state.finished:
        out["next"] = {"round": state.label(sheet.ruleset), "honba": state.honba, "dealer": state.dealer,
                       "deposits": state.deposits, "seat_winds": _winds(scored, state)}
    out["final"] = [
        {"player": row.player, "rank": row.rank, "score": row.score, "uma": points_json(row.uma),
         "oka": points_json(row.oka), "penalty": points_json(row.penalty), "points": points_json(row.points),
         "table_points": number_json(row.table_points) if row.table_points is not None else None,
         "chombos": row.chombos}
        for row in scored.final_rows()
    ]
    out["penalties"] = [{"player": p, "points": points_json(points), "reason": reason}
                        for p, points, reason in sheet.penalty_list]
    if sheet.ruleset.is_solo:
        _add_attempts(scored, out)
    return out


def _add_attempts(scored: ScoredSheet, out: Result) -> None:
    """The solo game's attempts: each hand's draws, value and rank, the attempts best first, and the final line's
    draws and value (docs/solo.md)."""
    ruleset, record = scored.sheet.ruleset, scored.record
    attempts = solo.attempts_json(ruleset, record)
    by_number = {row["attempt"]: row for row in attempts}
    for number, (hand, played) in enumerate(zip(out["hands"], record.hands, strict=True), start=1):
        if isinstance(played.result, Attempt):
            hand.update(solo.hand_fields(played.result, by_number[number]))
    out["attempts"] = attempts
    for row, final in zip(out["final"], scored.final_rows(), strict=True):
        row.update({"draws": final.draws, "value": final.score, "attempts": len(attempts)})


def _winds(scored: ScoredSheet, state: GameState) -> list[str]:
    return [state.seat_wind_name(scored.sheet.ruleset, p) for p in range(scored.sheet.ruleset.players)]


def _hand_json(scored: ScoredSheet, hand: HandRecord) -> Result:
    mcr = scored.sheet.ruleset.is_mcr
    s, before, result = hand.settlement, hand.before, hand.result
    out: Result = {
        "round": before.label(scored.sheet.ruleset),
        "honba": before.honba,
        "dealer": before.dealer,
        "deposits_before": before.deposits,
        "result": s.kind,
        "deltas": list(s.deltas),
        "scores": list(hand.after.scores),
        "deposits_after": s.deposits_after,
        "payments": [{"from": pay.payer, "to": pay.payee, "amount": pay.amount, "reason": pay.reason}
                     for pay in s.payments],
        "seat_winds": _winds(scored, before),
    }
    if before.seats != tuple(range(len(before.seats))):
        out["seats"] = list(before.seats)  # players moved seats (the MCR wind swaps): East of hand 1 first
    if isinstance(result, Ron):
        out["loser"] = result.loser
    if result.riichi:
        out["riichi"] = sorted(result.riichi)
    if isinstance(result, Draw):
        if not mcr:  # an MCR draw pays nobody for being ready
            out["tenpai"] = sorted(result.tenpai)
        if result.nagashi:
            out["nagashi"] = list(result.nagashi)
    if getattr(result, "false_wins", ()):
        out["false_wins"] = list(getattr(result, "false_wins", ()))
    if getattr(result, "false_wins_live", ()):
        out["false_wins_live"] = sorted(getattr(result, "false_wins_live", ()))
    if s.wins:
        out["wins"] = _wins_json(s.wins, mcr=mcr, bumped=not s.abortive)
        if len(s.wins) == 1:
            # A single win's value sits on the hand too, as docs/score-sheet.md "Tiles" shows it.
            out.update(_value_json(s.wins[0], mcr=mcr))
    if s.abortive:
        out["abortive"] = s.abortive
    if s.chombo_player is not None:
        out["chombo"] = s.chombo_player
    if hand.after.finished:
        out["game_ended"] = hand.after.end_reason
    return out


def _wins_json(wins: Sequence[WinOutcome], *, mcr: bool, bumped: bool) -> list[Result]:
    """Every win declared, in turn order from the discarder; one that did not stand, in a hand that was not
    aborted, names in ``bumped_by`` the winner who took the hand from it: the first in turn (head bump)."""
    first = wins[0].winner
    return [{"winner": w.winner, "stood": w.stood, **({} if w.stood or not bumped else {"bumped_by": first}),
             **_value_json(w, mcr=mcr)} for w in wins]


def _value_json(win: WinOutcome, *, mcr: bool) -> Result:
    """A win's value; one computed from tiles also lists its yaku (riichi) or fans (MCR)."""
    if mcr:
        out: Result = {"fan": win.fan, "flowers": win.flowers, "total_fan": win.fan + win.flowers}
        if win.items:
            out["fan_list"] = [{"name": name, "fan": fan} for name, fan in win.items]
        return out
    out = {"base": win.base, "limit": win.limit}
    if win.yakuman:
        out["yakuman"] = win.yakuman
    if win.han:
        out["han"] = win.han
    if win.fu is not None:
        out["fu"] = win.fu
    if win.items:
        out["yaku"] = [{"name": name, "han": han} for name, han in win.items]
    return out


# --- names at the edge ----------------------------------------------------------

# The fields of a result that name one player, a list of players, or hold one value per seat.
_ONE = ("dealer", "loser", "chombo", "winner", "bumped_by", "player", "from", "to")
_MANY = ("riichi", "tenpai", "nagashi", "false_wins", "false_wins_live", "seats")
_PER_SEAT = ("deltas", "scores", "seat_winds")


def named(result: Mapping[str, Any], names: Sequence[str]) -> Result:
    """The result with every seat replaced by the player's name (docs/score-sheet.md "Output")."""
    def name(seat: Any) -> Any:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else seat

    out = _convert(result, name, names)
    return {"ruleset": out.get("ruleset"), "players": list(names), **{k: v for k, v in out.items() if k != "ruleset"}}


def _convert(value: Any, name: Callable[[Any], Any], names: Sequence[str], key: str = "") -> Any:
    if key in _ONE:
        return name(value)
    if key in _MANY and isinstance(value, list):
        return [name(v) for v in value]
    if key in _PER_SEAT and isinstance(value, list):
        return {names[seat]: v for seat, v in enumerate(value) if seat < len(names)}
    if key == "ruleset":
        return value
    if isinstance(value, Mapping):
        return {k: _convert(v, name, names, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_convert(v, name, names) for v in value]
    return value
