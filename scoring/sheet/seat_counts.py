"""What one game's hands say about each player: the counts a player's statistics add up (``GameStats``).

``seat_counts`` reads a result object as a game stores it (docs/score-sheet.md
"Output", players by seat): each hand's result, who won and whether the win
stood, who dealt in, who declared riichi, who was tenpai at an exhaustive
draw, the chombo and the MCR false wins, and what each payment was for. It
counts only what a referee writes down: calls are not recorded, so nothing
here is about them.

The definitions, which the statistics pages repeat:

- a hand is one that was played out: a win, an exhaustive or an abortive
  draw. A chombo is not a hand (the same hand is played again), so it counts
  as a chombo and nothing else;
- a win is one that stood: a ron head-bumped by a player before in turn, or
  a triple ron that aborted the hand, is no win, and its discarder did not
  deal in;
- a deal-in is a ron on the player's discard with at least one win that stood;
- win points are what the hand paid its winner (``hand`` and ``pao``
  payments: honba and riichi sticks are not the hand's value); deal-in points
  are what the discarder paid for the hand (``hand`` payments, honba not
  counted; what a liable player paid under pao is his, not the discarder's);
- han are summed over the wins valued in han; a yakuman (counted or kazoe) is
  listed by its hand instead;
- MCR fan are the hand's fan with its flowers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from scoring.sheet.output import Payment, Result, ResultHand, ResultWin

WIN_KINDS = ("ron", "tsumo")
PLAYED = ("ron", "tsumo", "draw", "abort")  # a chombo's hand is played again: not a hand of its own
VALUE_PAYMENTS = ("hand", "pao")


@dataclass(slots=True)
class SeatCounts:
    """One seat's counts in one game."""

    seat: int
    hands: int = 0
    wins: int = 0
    tsumo_wins: int = 0
    deal_ins: int = 0
    riichi: int = 0
    riichi_wins: int = 0
    draws: int = 0  # exhaustive draws the player was at
    tenpai: int = 0  # of them, the draws the player was tenpai at
    chombo: int = 0
    false_wins: int = 0  # MCR
    win_points: int = 0
    han: int = 0
    han_wins: int = 0  # the wins ``han`` is summed over
    fan: int = 0  # MCR: fan and flowers
    deal_in_points: int = 0
    yakuman_hands: list[int] = field(default_factory=list)  # the hands' indexes, from 0

    def as_dict(self) -> dict[str, Any]:
        """The counts by name, without the seat (a model's fields)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "seat"}


def seat_counts(result: Result) -> list[SeatCounts]:
    """Each seat's counts (seat order) from a stored result; a result with no hands gives zeros."""
    seats = int(result.get("ruleset", {}).get("players") or len(result.get("final") or ()))
    counts = [SeatCounts(seat=s) for s in range(seats)]
    for index, hand in enumerate(result.get("hands") or ()):
        _count_hand(counts, index, hand)
    return counts


def _count_hand(counts: Sequence[SeatCounts], index: int, hand: ResultHand) -> None:
    kind = hand.get("result")
    if kind == "chombo":
        counts[hand["chombo"]].chombo += 1
        return
    if kind not in PLAYED:
        return
    riichi = set(hand.get("riichi") or ())
    for c in counts:
        c.hands += 1
        c.riichi += c.seat in riichi
    for seat in hand.get("false_wins") or ():
        counts[seat].false_wins += 1
    if kind == "draw":
        tenpai = set(hand.get("tenpai") or ())
        for c in counts:
            c.draws += 1
            c.tenpai += c.seat in tenpai
        return
    stood = [w for w in hand.get("wins") or () if w.get("stood", True)]
    for win in stood:
        _count_win(counts[win["winner"]], index, hand, win, riichi)
    if kind == "ron" and stood:
        loser = counts[hand["loser"]]
        loser.deal_ins += 1
        loser.deal_in_points += _paid(hand, payer=loser.seat)


def _count_win(c: SeatCounts, index: int, hand: ResultHand, win: ResultWin, riichi: set[int]) -> None:
    c.wins += 1
    c.tsumo_wins += hand["result"] == "tsumo"
    c.riichi_wins += c.seat in riichi
    c.win_points += _paid(hand, payee=c.seat)
    if "total_fan" in win or "fan" in win:
        c.fan += int(win.get("total_fan", win.get("fan", 0) + win.get("flowers", 0)))
    elif "yakuman" in str(win.get("limit") or "") or win.get("yakuman"):
        c.yakuman_hands.append(index)
    elif win.get("han"):
        c.han += int(win["han"])
        c.han_wins += 1


def _paid(hand: ResultHand, *, payer: int | None = None, payee: int | None = None) -> int:
    """What the hand's value moved: to ``payee`` (hand and pao payments), or from ``payer`` (hand payments)."""

    def counted(pay: Payment) -> bool:
        if payee is not None:
            return bool(pay["to"] == payee and pay["reason"] in VALUE_PAYMENTS)
        return bool(pay["from"] == payer and pay["reason"] == "hand")

    return sum(int(pay["amount"]) for pay in hand.get("payments") or () if counted(pay))


def places(result: Result) -> dict[int, int]:
    """Each seat's place (shared places keep the best, as the final rows give them)."""
    return {row["player"]: int(row["rank"]) for row in result.get("final") or ()}
