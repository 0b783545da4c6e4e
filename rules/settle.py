"""Settlement of one riichi hand: who pays whom, the sticks, the dealer and honba.

docs/rules.md §2–4 and seed 000 §2.5, §3.2–3.5. One function per outcome; each
returns a ``Settlement`` and changes nothing. The checks on the hand as
written live in rules.hand_checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from rules.hand_checks import check_abort, check_draw, check_players, check_riichi, win_field, win_value

# Defined in rules.hand_checks; the score sheet imports it from here, where it was first defined.
from rules.hand_checks import check_hand as check_hand
from rules.hand_value import MANGAN, YAKUMAN, HandValue, ron_value, round_up_100, tsumo_shares
from rules.hands import (
    Abort,
    AbortReason,
    Attempt,
    Chombo,
    Draw,
    HandResult,
    Outcome,
    PaymentReason,
    Ron,
    Settlement,
    Tsumo,
    Win,
    WinOutcome,
)
from rules.ledger import Ledger
from rules.mcr import settle_mcr
from rules.options import (
    ChomboPayment,
    DealerMultipleRonRenchan,
    MultipleRon,
    MultipleRonDeposits,
    MultipleRonHonba,
    PaoScope,
    Renchan,
)
from rules.ruleset import Ruleset
from rules.solo import settle_attempt
from rules.state import GameState

NO_ABORT_REASON = "abortive draw"  # Settlement.abortive when the referee gave no reason
TRIPLE_RON = 3  # winners on one discard that make a triple ron


def settle(*, ruleset: Ruleset, state: GameState, result: HandResult, names: Sequence[str]) -> Settlement:
    """Settle one hand against the state it was played in (docs/rules.md §2–4)."""
    if ruleset.is_solo or isinstance(result, Attempt):
        return settle_attempt(ruleset=ruleset, state=state, result=result)
    check_players(ruleset=ruleset, result=result, names=names)
    if ruleset.is_mcr:
        return settle_mcr(ruleset=ruleset, state=state, result=result, names=names)
    check_riichi(ruleset=ruleset, state=state, result=result, names=names)
    if isinstance(result, Ron):
        return _settle_ron(ruleset=ruleset, state=state, ron=result, names=names)
    if isinstance(result, Tsumo):
        return _settle_tsumo(ruleset=ruleset, state=state, tsumo=result, names=names)
    if isinstance(result, Draw):
        return _settle_draw(ruleset=ruleset, state=state, draw=result, names=names)
    if isinstance(result, Abort):
        return _settle_abort(ruleset=ruleset, state=state, abort=result)
    return _settle_chombo(ruleset=ruleset, state=state, chombo=result)


# --- outcomes ---------------------------------------------------------------


def _ron_abort(*, ruleset: Ruleset, count: int) -> AbortReason | None:
    """The abortive draw that ``count`` rons on one discard make: every other player's under seed 001's rule 0,
    three under multiple_ron options 2 and 4 (seed 000 §3.5); None when they are a ron."""
    if ruleset.aborts_on_all_others_ron and count == ruleset.players - 1:
        return AbortReason.ALL_OTHERS_RON
    if count >= TRIPLE_RON and ruleset.multiple_ron in (
        MultipleRon.DOUBLE_HEAD_BUMP_TRIPLE_ABORT,
        MultipleRon.DOUBLE_ONLY_TRIPLE_ABORT,
    ):
        return AbortReason.TRIPLE_RON
    return None


def _stands(*, ruleset: Ruleset, ordered: list[tuple[Win, HandValue]]) -> list[int]:
    """Indices (in turn order) of the wins that stand, where they are no abortive draw (seed 000 §3.5)."""
    count = len(ordered)
    mode = ruleset.multiple_ron
    if count == 1 or mode == MultipleRon.ALL:
        return list(range(count))
    if mode == MultipleRon.HEAD_BUMP:
        return [0]
    if mode == MultipleRon.HEAD_BUMP_YAKUMAN_EXCEPTION:
        # Option 1.1: the head bump applies, but a yakuman is never bumped.
        return [0] + [i for i in range(1, count) if ordered[i][1].is_yakuman]
    return [0] if mode == MultipleRon.DOUBLE_HEAD_BUMP_TRIPLE_ABORT else [0, 1]


def _settle_ron(*, ruleset: Ruleset, state: GameState, ron: Ron, names: Sequence[str]) -> Settlement:
    """A win on a discard; with several winners, the wins that stand are paid in turn order (seed 000 §3.5)."""
    valued = [
        (win, win_value(ruleset=ruleset, win=win, tsumo=False, field=win_field(ron, i), names=names))
        for i, win in enumerate(ron.wins)
    ]
    ordered = sorted(valued, key=lambda wv: state.turn_distance(ron.loser, wv[0].winner))
    aborted = _ron_abort(ruleset=ruleset, count=len(ordered))
    if aborted is not None:
        abort = Abort(reason=aborted, riichi=ron.riichi)
        settlement = _settle_abort(ruleset=ruleset, state=state, abort=abort, checked=True)
        return _with_wins(settlement, tuple(_outcome(w, v, stood=False) for w, v in ordered))
    standing = _stands(ruleset=ruleset, ordered=ordered)

    ledger = Ledger(ruleset.players)
    _put_riichi_sticks(ledger, ruleset=ruleset, riichi=ron.riichi)
    winners = [ordered[i] for i in standing]
    for index, (win, value) in enumerate(winners):
        _pay_ron_win(ledger, ruleset=ruleset, state=state, loser=ron.loser, win=win, value=value, first=index == 0)
    _pay_ron_deposits(ledger, ruleset=ruleset, state=state, ron=ron, winners=[win for win, _ in winners])

    winner_ids = [w.winner for w, _ in winners]
    dealer_stays = _dealer_keeps_seat_after_ron(ruleset=ruleset, state=state, winner_ids=winner_ids)
    stood = set(standing)
    return ledger.win_settlement(
        kind=Outcome.RON,
        state=state,
        dealer_stays=dealer_stays,
        wins=tuple(_outcome(w, v, stood=i in stood) for i, (w, v) in enumerate(ordered)),
    )


def _pay_ron_win(
    ledger: Ledger, *, ruleset: Ruleset, state: GameState, loser: int, win: Win, value: HandValue, first: bool
) -> None:
    """One win that stands on a discard: the hand, shared with a liable player (pao), and the honba."""
    dealer = win.winner == state.dealer
    total = ron_value(ruleset=ruleset, base=value.base, dealer=dealer)
    honba = ruleset.honba_points * state.honba
    if not first and ruleset.multiple_ron_honba == MultipleRonHonba.FIRST_WINNER:
        honba = 0
    honba_payer = loser
    if win.pao is not None and win.pao != loser:
        # Pao on a ron (seed 000 §5.1): the liable player pays half of the
        # fed yakuman, the discarder the rest and the honba. A double yakuman
        # feeds only one, and then the liable player pays the honba. Under
        # whole_hand (Tenhou's records) the liable player pays half of the
        # whole hand and the honba, always.
        whole = _pao_covers_whole_hand(ruleset=ruleset, value=value)
        fed = total if whole else ron_value(ruleset=ruleset, base=YAKUMAN, dealer=dealer)
        ledger.pay(win.pao, win.winner, fed // 2, PaymentReason.PAO)
        ledger.pay(loser, win.winner, total - fed // 2, PaymentReason.HAND)
        if not whole or ruleset.pao_scope == PaoScope.WHOLE_HAND:
            honba_payer = win.pao
    else:
        ledger.pay(loser, win.winner, total, PaymentReason.HAND)
    ledger.pay(honba_payer, win.winner, honba, PaymentReason.HONBA)


def _pay_ron_deposits(ledger: Ledger, *, ruleset: Ruleset, state: GameState, ron: Ron, winners: list[Win]) -> None:
    """The sticks to the first winner in turn; under own_back_rest_first the others first take back their own."""
    pot = state.deposits + len(ron.riichi)
    if len(winners) > 1 and ruleset.multiple_ron_deposits == MultipleRonDeposits.OWN_BACK_REST_FIRST:
        for win in winners[1:]:
            if win.winner in ron.riichi:
                ledger.pay(None, win.winner, ruleset.riichi_deposit, PaymentReason.DEPOSITS)
                pot -= 1
    ledger.pay(None, winners[0].winner, pot * ruleset.riichi_deposit, PaymentReason.DEPOSITS)


def _dealer_keeps_seat_after_ron(*, ruleset: Ruleset, state: GameState, winner_ids: list[int]) -> bool:
    """Renchan on a ron; with several winners the ruleset's dealer_multiple_ron_renchan decides."""
    if ruleset.renchan == Renchan.NONE or state.dealer not in winner_ids:
        return False
    if len(winner_ids) == 1:
        return True
    rule = ruleset.dealer_multiple_ron_renchan
    return rule == DealerMultipleRonRenchan.ALWAYS or (
        rule == DealerMultipleRonRenchan.IF_FIRST and winner_ids[0] == state.dealer
    )


def _settle_tsumo(*, ruleset: Ruleset, state: GameState, tsumo: Tsumo, names: Sequence[str]) -> Settlement:
    win = tsumo.win
    value = win_value(ruleset=ruleset, win=win, tsumo=True, field="", names=names)
    n = ruleset.players
    ledger = Ledger(n)
    _put_riichi_sticks(ledger, ruleset=ruleset, riichi=tsumo.riichi)
    dealer = win.winner == state.dealer
    payers = [p for p in range(n) if p != win.winner]
    honba_each = _honba_per_payer(ruleset=ruleset, honba=state.honba, payers=len(payers))
    normal_base = value.base
    liable_pays_all = win.pao is not None and _pao_covers_whole_hand(ruleset=ruleset, value=value)
    if win.pao is not None:
        # Pao on a tsumo (seed 000 §5.1): the liable player pays the fed
        # yakuman as if dealt in. Under fed_yakuman the rest of a double
        # yakuman is an ordinary tsumo, honba from everyone; when the liable
        # player covers the whole hand (Tenhou), they pay the honba too.
        fed_base = value.base if liable_pays_all else YAKUMAN
        ledger.pay(win.pao, win.winner, ron_value(ruleset=ruleset, base=fed_base, dealer=dealer), PaymentReason.PAO)
        normal_base = value.base - fed_base
        if liable_pays_all:
            ledger.pay(win.pao, win.winner, ruleset.honba_points * state.honba, PaymentReason.HONBA)
    if normal_base:
        shares = tsumo_shares(ruleset=ruleset, base=normal_base, winner=win.winner, dealer=state.dealer, players=n)
        for payer in payers:
            ledger.pay(payer, win.winner, shares[payer], PaymentReason.HAND)
    if not liable_pays_all:
        for payer in payers:
            ledger.pay(payer, win.winner, honba_each, PaymentReason.HONBA)
    ledger.pay(None, win.winner, (state.deposits + len(tsumo.riichi)) * ruleset.riichi_deposit, PaymentReason.DEPOSITS)
    dealer_stays = dealer and ruleset.renchan != Renchan.NONE
    return ledger.win_settlement(
        kind=Outcome.TSUMO, state=state, dealer_stays=dealer_stays, wins=(_outcome(win, value),)
    )


def _pao_covers_whole_hand(*, ruleset: Ruleset, value: HandValue) -> bool:
    return value.yakuman == 1 or ruleset.pao_scope == PaoScope.WHOLE_HAND


def _settle_draw(*, ruleset: Ruleset, state: GameState, draw: Draw, names: Sequence[str]) -> Settlement:
    """Exhaustive draw (docs/rules.md §3): noten payments, or nagashi mangan paid as a mangan tsumo.

    Under rule 0 (seed 001) a hand where all N players declared riichi never reaches the end of the wall: it is
    drawn once the last declaration passes, so a draw written with every player in riichi is that abortive draw.
    """
    n = ruleset.players
    check_draw(ruleset=ruleset, draw=draw)
    if ruleset.aborts_on_all_riichi and len(draw.riichi) == n and not draw.nagashi:
        all_riichi = Abort(reason=AbortReason.FOUR_RIICHI, riichi=draw.riichi)
        return _settle_abort(ruleset=ruleset, state=state, abort=all_riichi, checked=True)
    ledger = Ledger(n)
    _put_riichi_sticks(ledger, ruleset=ruleset, riichi=draw.riichi)
    if draw.nagashi:
        # Nagashi replaces the noten payments; no honba, the sticks stay (Tenhou, Pantheon).
        for holder in draw.nagashi:
            shares = tsumo_shares(ruleset=ruleset, base=MANGAN, winner=holder, dealer=state.dealer, players=n)
            for payer, amount in shares.items():
                ledger.pay(payer, holder, amount, PaymentReason.NAGASHI)
    else:
        _noten_payments(ledger, ruleset=ruleset, tenpai=draw.tenpai)
    return ledger.settlement(
        kind=Outcome.DRAW,
        deposits_after=state.deposits + len(draw.riichi),
        dealer_stays=ruleset.renchan == Renchan.TENPAI and state.dealer in draw.tenpai,
        honba_after=state.honba + 1,
    )


def _noten_payments(ledger: Ledger, *, ruleset: Ruleset, tenpai: frozenset[int]) -> None:
    """The noten players pay the total in equal shares, the tenpai players receive it so (docs/rules.md §3).

    Each noten player pays each tenpai player total / (tenpai × noten). Where
    that is not a whole number of points but both per-player shares are (six
    players, 2 tenpai, 3000: 750 paid, 1500 received), the shares are paid
    through the pot. Where even they are not (eight players, 1 tenpai: 3000/7),
    each pair's share is rounded up to 100, so the table stays zero-sum and the
    total grows a little (3500): seed 001 only gives totals that divide.
    """
    total = ruleset.noten_payment_total
    n = ruleset.players
    k = len(tenpai)
    if not total or k in (0, n):
        return
    noten = [p for p in range(n) if p not in tenpai]
    pair = Fraction(total, k * (n - k))
    if pair.denominator != 1 and (total % k or total % (n - k)):
        pair = Fraction(round_up_100(pair))
    if pair.denominator == 1:
        for payer in noten:
            for payee in sorted(tenpai):
                ledger.pay(payer, payee, int(pair), PaymentReason.NOTEN)
        return
    for payer in noten:
        ledger.pay(payer, None, total // (n - k), PaymentReason.NOTEN)
    for payee in sorted(tenpai):
        ledger.pay(None, payee, total // k, PaymentReason.NOTEN)


def _settle_abort(*, ruleset: Ruleset, state: GameState, abort: Abort, checked: bool = False) -> Settlement:
    """Abortive draw (docs/rules.md §3): honba +1, sticks stay, no payments, the dealer stays."""
    if not checked:
        check_abort(ruleset=ruleset, abort=abort)
    ledger = Ledger(ruleset.players)
    _put_riichi_sticks(ledger, ruleset=ruleset, riichi=abort.riichi)
    return ledger.settlement(
        kind=Outcome.ABORT,
        deposits_after=state.deposits + len(abort.riichi),
        dealer_stays=True,
        honba_after=state.honba + 1,
        abortive=abort.reason or NO_ABORT_REASON,
    )


def _settle_chombo(*, ruleset: Ruleset, state: GameState, chombo: Chombo) -> Settlement:
    """Chombo (docs/rules.md §4): the hand is replayed, same dealer and honba, that hand's sticks go back.

    What is paid at the table follows chombo_payment; the deduction from the
    final result (chombo_penalty) is applied at the end of the game.
    """
    n = ruleset.players
    ledger = Ledger(n)
    offender = chombo.player
    if ruleset.chombo_payment == ChomboPayment.REVERSE_MANGAN:
        shares = tsumo_shares(ruleset=ruleset, base=MANGAN, winner=offender, dealer=state.dealer, players=n)
        for payee, amount in shares.items():
            ledger.pay(offender, payee, amount, PaymentReason.CHOMBO)
    elif ruleset.chombo_payment == ChomboPayment.FLAT:
        for payee in range(n):
            if payee != offender:
                ledger.pay(offender, payee, ruleset.chombo_flat_amount, PaymentReason.CHOMBO)
    return ledger.settlement(
        kind=Outcome.CHOMBO,
        deposits_after=state.deposits,
        dealer_stays=True,
        honba_after=state.honba,
        replay=True,
        chombo_player=offender,
    )


# --- helpers ----------------------------------------------------------------


def _outcome(win: Win, value: HandValue, *, stood: bool = True) -> WinOutcome:
    return WinOutcome(
        winner=win.winner,
        han=value.han,
        fu=value.fu,
        yakuman=value.yakuman,
        base=value.base,
        limit=value.limit,
        stood=stood,
        items=win.items,
    )


def _put_riichi_sticks(ledger: Ledger, *, ruleset: Ruleset, riichi: frozenset[int]) -> None:
    for p in sorted(riichi):
        ledger.pay(p, None, ruleset.riichi_deposit, PaymentReason.RIICHI)


def _honba_per_payer(*, ruleset: Ruleset, honba: int, payers: int) -> int:
    """Tsumo honba: the honba bonus shared equally by the payers (100 each per honba at four)."""
    return int(-(-Fraction(ruleset.honba_points * honba, payers) // 1))


def _with_wins(settlement: Settlement, wins: tuple[WinOutcome, ...]) -> Settlement:
    return replace(settlement, wins=wins)
