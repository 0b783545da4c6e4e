"""MCR (Chinese Official rules) hand settlement (docs/rules.md §6; seeds 002, 004).

A win needs ``min_fan`` fan without flowers; each flower adds one. For F fan
(flowers included): self-drawn, each other player pays base + F; on a
discard, each other player pays base and the discarder F more. One winner
per discard. No honba, no riichi, no noten payments, no abortive draws; the
dealer passes after every hand. A false win (seed 002 §8.1) does not stop the
hand: after it, the offender pays ``chombo_flat_amount`` to each other player,
once per false win, and cannot win the hand when ``false_win_dead_hand`` (the
seed); the referee may let an offender play on (``false_wins_live``: MERS, a
false hu noticed before the tiles are shown), and then he may still win it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules.errors import Refusal
from rules.hands import Abort, Chombo, Draw, HandResult, Outcome, PaymentReason, Ron, Settlement, Tsumo, Win, WinOutcome
from rules.ledger import Ledger
from rules.ruleset import Ruleset
from rules.state import GameState

# The false wins one player may be charged in one hand: real tournament sheets hold two (Madrid 2018, issue 24);
# more than three is a slip of the pen, not a hand.
FALSE_WINS_EACH = 3


def check_mcr_hand(*, ruleset: Ruleset, result: HandResult, names: Sequence[str]) -> None:
    """Everything about an MCR hand that does not depend on the game's state."""
    _check_not_in_mcr(result)
    if not isinstance(result, (Ron, Tsumo, Draw)):
        return
    for offender, count in Counter(result.false_wins).items():
        if count > FALSE_WINS_EACH:
            raise Refusal.of("false_wins", "false_wins_each", player=names[offender], count=count, most=FALSE_WINS_EACH)
    if isinstance(result, Draw):
        return
    for player in sorted(result.false_wins_live):
        if player not in result.false_wins:
            raise Refusal.of("false_wins_live", "live_not_false_win", player=names[player])
    dead = frozenset(result.false_wins) - result.false_wins_live if ruleset.false_win_dead_hand else frozenset()
    if isinstance(result, Ron) and len(result.wins) > 1:
        raise Refusal.of("wins", "mcr_one_winner")
    win = result.wins[0] if isinstance(result, Ron) else result.win
    _check_win(ruleset=ruleset, win=win, dead=dead, names=names)


def _check_not_in_mcr(result: HandResult) -> None:
    """What the riichi rules have and MCR has not: chombo, abortive draws, riichi, tenpai and nagashi."""
    if isinstance(result, Chombo):
        raise Refusal.of("result", "mcr_chombo")
    if isinstance(result, Abort):
        raise Refusal.of("result", "mcr_no_abort")
    if result.riichi:
        raise Refusal.of("riichi", "mcr_no_riichi")
    if isinstance(result, Draw) and (result.tenpai or result.nagashi):
        raise Refusal.of("tenpai" if result.tenpai else "nagashi", "mcr_no_tenpai")


def _check_win(*, ruleset: Ruleset, win: Win, dead: frozenset[int], names: Sequence[str]) -> None:
    if win.winner in dead:
        raise Refusal.of("winner", "mcr_false_winner", player=names[win.winner])
    if win.tiles is not None:
        return  # valued from its tiles when the hand is played
    if win.han or win.fu is not None or win.yakuman:
        field = "han" if win.han else "fu" if win.fu is not None else "yakuman"
        raise Refusal.of(field, "mcr_han")
    if win.pao is not None:
        raise Refusal.of("pao", "mcr_no_pao")
    if win.fan < ruleset.min_fan:
        raise Refusal.of("fan", "below_min_fan", fan=win.fan, minimum=ruleset.min_fan)


def settle_mcr(*, ruleset: Ruleset, state: GameState, result: HandResult, names: Sequence[str]) -> Settlement:
    """Settle one MCR hand: the win's payments, then the false-win penalties."""
    check_mcr_hand(ruleset=ruleset, result=result, names=names)
    n = ruleset.players
    ledger = Ledger(n)
    wins: tuple[WinOutcome, ...] = ()
    if isinstance(result, (Ron, Tsumo)):
        win = result.wins[0] if isinstance(result, Ron) else result.win
        fan = win.fan + win.flowers
        for payer in range(n):
            if payer == win.winner:
                continue
            amount = ruleset.base_payment
            if isinstance(result, Tsumo) or payer == result.loser:
                amount += fan
            ledger.pay(payer, win.winner, amount, PaymentReason.HAND)
        wins = (
            WinOutcome(
                winner=win.winner,
                han=0,
                fu=None,
                yakuman=0,
                base=fan,
                limit=None,
                fan=win.fan,
                flowers=win.flowers,
                items=win.items,
            ),
        )
    false_wins = result.false_wins if isinstance(result, (Ron, Tsumo, Draw)) else ()
    for offender in false_wins:
        for other in range(n):
            if other != offender:
                ledger.pay(offender, other, ruleset.chombo_flat_amount, PaymentReason.FALSE_WIN)
    kind = Outcome.RON if isinstance(result, Ron) else Outcome.TSUMO if isinstance(result, Tsumo) else Outcome.DRAW
    return ledger.settlement(kind=kind, deposits_after=0, dealer_stays=False, honba_after=0, wins=wins)
