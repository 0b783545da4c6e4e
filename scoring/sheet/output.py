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
from typing import Any, Required, TypedDict

from rules.game import HandRecord as PlayedHand
from rules.hands import Attempt, Draw, HandResult, Ron, Settlement, WinOutcome
from rules.ruleset import number_json
from rules.state import GameState
from scoring.sheet import solo
from scoring.sheet.reader import ScoredSheet
from scoring.sheet.solo import AttemptLine

# The result object, declared: players by seat as stored (0 = the first dealer), ``named`` puts in the names.
# "from" is a keyword: the payment is declared the functional way. A payer or payee None is the table (sticks).
Payment = TypedDict("Payment", {"from": int | None, "to": int | None, "amount": int, "reason": str})


class Yaku(TypedDict):
    name: str
    han: int


class Fan(TypedDict):
    name: str
    fan: int


class WinValue(TypedDict, total=False):
    """A win's value (``_put_value``): riichi's base, limit and han, fu or yakuman; MCR's fan and flowers; the yaku
    or fans of a win valued from its tiles."""

    base: int
    limit: str | None
    yakuman: int
    han: int
    fu: int
    yaku: list[Yaku]
    fan: int
    flowers: int
    total_fan: int
    fan_list: list[Fan]


class ResultWin(WinValue, total=False):
    """One win declared in a hand; ``bumped_by`` the winner who took the hand from one that did not stand."""

    winner: Required[int]
    stood: Required[bool]
    bumped_by: int


class ResultHand(WinValue, total=False):
    """One hand of the result: the state before it, its settlement, what was written down for it; a single win's
    value on the hand itself; a solo attempt's number, draws, value and rank."""

    round: Required[str]
    honba: Required[int]
    dealer: Required[int]
    deposits_before: Required[int]
    result: Required[str]
    deltas: Required[list[int]]
    scores: Required[list[int]]
    deposits_after: Required[int]
    payments: Required[list[Payment]]
    seat_winds: Required[list[str]]
    seats: list[int]
    loser: int
    riichi: list[int]
    tenpai: list[int]
    nagashi: list[int]
    false_wins: list[int]
    false_wins_live: list[int]
    wins: list[ResultWin]
    abortive: str
    chombo: int
    game_ended: str | None
    attempt: int
    draws: int
    value: int
    attempt_rank: int
    counted: bool


class NextHand(TypedDict):
    """The hand a game in progress plays next."""

    round: str
    honba: int
    dealer: int
    deposits: int
    seat_winds: list[str]


class FinalLine(TypedDict, total=False):
    """One player's final line, in rank order; the solo game's adds the draws, value and attempts."""

    player: Required[int]
    rank: Required[int]
    score: Required[int]
    uma: Required[float]
    oka: Required[float]
    penalty: Required[float]
    points: Required[float]
    table_points: Required[float | None]
    chombos: Required[int]
    draws: int | None
    value: int
    attempts: int


class PenaltyLine(TypedDict):
    player: int
    points: float
    reason: str


class Result(TypedDict, total=False):
    """A scored sheet's result object (docs/score-sheet.md "Output"), players by seat, as a game stores it.

    Every key is optional to a reader: a game stores ``{}`` until its first replay (``result_json`` writes them
    all, ``next`` only while the game goes on, ``attempts`` in the solo game). The ruleset is every parameter in
    its JSON form (``Ruleset.as_dict``).
    """

    ruleset: dict[str, Any]
    hands: list[ResultHand]
    finished: bool
    end_reason: str | None
    deposits_left: int
    next: NextHand
    final: list[FinalLine]
    penalties: list[PenaltyLine]
    attempts: list[AttemptLine]


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
        out["next"] = {
            "round": state.label(sheet.ruleset),
            "honba": state.honba,
            "dealer": state.dealer,
            "deposits": state.deposits,
            "seat_winds": _winds(scored, state),
        }
    out["final"] = [
        {
            "player": row.player,
            "rank": row.rank,
            "score": row.score,
            "uma": points_json(row.uma),
            "oka": points_json(row.oka),
            "penalty": points_json(row.penalty),
            "points": points_json(row.points),
            "table_points": number_json(row.table_points) if row.table_points is not None else None,
            "chombos": row.chombos,
        }
        for row in scored.final_rows()
    ]
    out["penalties"] = [
        {"player": p, "points": points_json(points), "reason": reason} for p, points, reason in sheet.penalty_list
    ]
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
        if isinstance(played.result, Attempt):  # its number, draws (a noten's as it counts), value and rank
            line = by_number[number]
            hand.update(
                {
                    "attempt": line["attempt"],
                    "draws": line["draws"],
                    "value": line["value"],
                    "attempt_rank": line["rank"],
                    "counted": line["counted"],
                }
            )
    out["attempts"] = attempts
    for row, final in zip(out["final"], scored.final_rows(), strict=True):
        row.update({"draws": final.draws, "value": final.score, "attempts": len(attempts)})


def _winds(scored: ScoredSheet, state: GameState) -> list[str]:
    return [state.seat_wind_name(scored.sheet.ruleset, p) for p in range(scored.sheet.ruleset.players)]


def _hand_json(scored: ScoredSheet, hand: PlayedHand) -> ResultHand:
    s, before = hand.settlement, hand.before
    out: ResultHand = {
        "round": before.label(scored.sheet.ruleset),
        "honba": before.honba,
        "dealer": before.dealer,
        "deposits_before": before.deposits,
        "result": s.kind,
        "deltas": list(s.deltas),
        "scores": list(hand.after.scores),
        "deposits_after": s.deposits_after,
        "payments": [
            {"from": pay.payer, "to": pay.payee, "amount": pay.amount, "reason": pay.reason} for pay in s.payments
        ],
        "seat_winds": _winds(scored, before),
    }
    if before.seats != tuple(range(len(before.seats))):
        out["seats"] = list(before.seats)  # players moved seats (the MCR wind swaps): East of hand 1 first
    _add_written(out, hand.result, mcr=scored.sheet.ruleset.is_mcr)
    _add_settled(out, s, mcr=scored.sheet.ruleset.is_mcr)
    if hand.after.finished:
        out["game_ended"] = hand.after.end_reason
    return out


def _add_written(out: ResultHand, result: HandResult, *, mcr: bool) -> None:
    """What was written down for the hand: the discarder, the riichi, the tenpai and nagashi, the false wins."""
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


def _add_settled(out: ResultHand, s: Settlement, *, mcr: bool) -> None:
    """What the settlement decided besides the payments: the wins, an abortive draw, a chombo."""
    if s.wins:
        out["wins"] = _wins_json(s.wins, mcr=mcr, bumped=not s.abortive)
        if len(s.wins) == 1:
            # A single win's value sits on the hand too, as docs/score-sheet.md "Tiles" shows it.
            _put_value(out, s.wins[0], mcr=mcr)
    if s.abortive:
        out["abortive"] = s.abortive
    if s.chombo_player is not None:
        out["chombo"] = s.chombo_player


def _wins_json(wins: Sequence[WinOutcome], *, mcr: bool, bumped: bool) -> list[ResultWin]:
    """Every win declared, in turn order from the discarder; one that did not stand, in a hand that was not
    aborted, names in ``bumped_by`` the winner who took the hand from it: the first in turn (head bump)."""
    out = []
    for w in wins:
        win: ResultWin = {"winner": w.winner, "stood": w.stood}
        if not w.stood and bumped:
            win["bumped_by"] = wins[0].winner
        _put_value(win, w, mcr=mcr)
        out.append(win)
    return out


def _put_value(out: WinValue, win: WinOutcome, *, mcr: bool) -> None:
    """A win's value; one computed from tiles also lists its yaku (riichi) or fans (MCR)."""
    if mcr:
        out.update({"fan": win.fan, "flowers": win.flowers, "total_fan": win.fan + win.flowers})
        if win.items:
            out["fan_list"] = [{"name": name, "fan": fan} for name, fan in win.items]
        return
    out.update({"base": win.base, "limit": win.limit})
    if win.yakuman:
        out["yakuman"] = win.yakuman
    if win.han:
        out["han"] = win.han
    if win.fu is not None:
        out["fu"] = win.fu
    if win.items:
        out["yaku"] = [{"name": name, "han": han} for name, han in win.items]


# --- names at the edge ----------------------------------------------------------

# The fields of a result that name one player, a list of players, or hold one value per seat.
_ONE = ("dealer", "loser", "chombo", "winner", "bumped_by", "player", "from", "to")
_MANY = ("riichi", "tenpai", "nagashi", "false_wins", "false_wins_live", "seats")
_PER_SEAT = ("deltas", "scores", "seat_winds")


def named(result: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The result with every seat replaced by the player's name (docs/score-sheet.md "Output"): the JSON the edge
    serves, whose per-seat lists have become objects keyed by name."""

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
