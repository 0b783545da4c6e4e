"""Settlement of one riichi hand: who pays whom, the sticks, the dealer and honba.

RULES.md §2–4 and seed 000 §2.5, §3.2–3.5. One function per outcome; each
returns a ``Settlement`` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from rules.errors import Problem, RuleError
from rules.hand_value import (
    MANGAN,
    YAKUMAN,
    HandValue,
    check_han_fu,
    hand_value,
    ron_value,
    round_up_100,
    tsumo_shares,
)
from rules.hands import (
    ABORT_REASONS,
    Abort,
    Chombo,
    Draw,
    HandResult,
    Ron,
    Settlement,
    Tsumo,
    Win,
    WinOutcome,
)
from rules.ledger import Ledger
from rules.mcr import check_mcr_hand, settle_mcr
from rules.ruleset import Ruleset
from rules.state import GameState


def check_hand(*, ruleset: Ruleset, result: HandResult, names: Sequence[str]) -> None:
    """Every check that does not depend on the game's state: players, values, options.

    The score sheet runs it on every hand before replaying anything, so that a
    sheet's problems are all reported at once.
    """
    _check_players(ruleset=ruleset, result=result, names=names)
    if ruleset.is_mcr:
        check_mcr_hand(ruleset=ruleset, result=result, names=names)
        return
    if isinstance(result, Ron):
        for i, win in enumerate(result.wins):
            if win.tiles is None:
                _value_of(ruleset=ruleset, win=win, tsumo=False,
                          field=f"wins[{i}]" if len(result.wins) > 1 else "", names=names)
    elif isinstance(result, Tsumo):
        if result.win.tiles is None:
            _value_of(ruleset=ruleset, win=result.win, tsumo=True, field="", names=names)
    elif isinstance(result, Draw):
        _check_draw(ruleset=ruleset, draw=result)
    elif isinstance(result, Abort):
        _check_abort(ruleset=ruleset, abort=result)


def settle(*, ruleset: Ruleset, state: GameState, result: HandResult, names: Sequence[str]) -> Settlement:
    """Settle one hand against the state it was played in (RULES.md §2–4)."""
    _check_players(ruleset=ruleset, result=result, names=names)
    if ruleset.is_mcr:
        return settle_mcr(ruleset=ruleset, state=state, result=result, names=names)
    _check_riichi(ruleset=ruleset, state=state, result=result, names=names)
    if isinstance(result, Ron):
        return _settle_ron(ruleset=ruleset, state=state, ron=result, names=names)
    if isinstance(result, Tsumo):
        return _settle_tsumo(ruleset=ruleset, state=state, tsumo=result, names=names)
    if isinstance(result, Draw):
        return _settle_draw(ruleset=ruleset, state=state, draw=result, names=names)
    if isinstance(result, Abort):
        return _settle_abort(ruleset=ruleset, state=state, abort=result)
    return _settle_chombo(ruleset=ruleset, state=state, chombo=result)


# --- checks -----------------------------------------------------------------


def _check_players(*, ruleset: Ruleset, result: HandResult, names: Sequence[str]) -> None:
    n = ruleset.players

    def known(field: str, player: int | None) -> None:
        if player is not None and not 0 <= player < n:
            raise RuleError.one(field, f"no player number {player} at a {n}-player table")

    for p in getattr(result, "riichi", ()):
        known("riichi", p)
    if isinstance(result, Ron):
        known("loser", result.loser)
        if not result.wins:
            raise RuleError.one("wins", "a ron needs a winner")
        seen: set[int] = set()
        for i, win in enumerate(result.wins):
            field = f"wins[{i}]" if len(result.wins) > 1 else ""
            known(_join(field, "winner"), win.winner)
            known(_join(field, "pao"), win.pao)
            if win.winner == result.loser:
                raise RuleError.one(_join(field, "winner"),
                                    f"{names[win.winner]} cannot win on their own discard (also the loser)")
            if win.winner in seen:
                raise RuleError.one(_join(field, "winner"), f"{names[win.winner]} is listed as a winner twice")
            seen.add(win.winner)
    elif isinstance(result, Tsumo):
        known("winner", result.win.winner)
        known("pao", result.win.pao)
    elif isinstance(result, Chombo):
        known("player", result.player)
    elif isinstance(result, Draw):
        for p in result.tenpai:
            known("tenpai", p)
        for p in result.nagashi:
            known("nagashi", p)


def _check_riichi(*, ruleset: Ruleset, state: GameState, result: HandResult, names: Sequence[str]) -> None:
    """Where a score below 0 ends the game, a player needs the stick's value to declare riichi."""
    if not ruleset.busting:
        return
    for p in sorted(result.riichi):
        if state.scores[p] < ruleset.riichi_deposit:
            raise RuleError.one("riichi", f"{names[p]} has {state.scores[p]} points and cannot pay "
                                f"the {ruleset.riichi_deposit}-point riichi stick")


def _check_draw(*, ruleset: Ruleset, draw: Draw) -> None:
    if draw.nagashi and not ruleset.nagashi_mangan:
        raise RuleError.one("nagashi", "this ruleset has no nagashi mangan")
    if len(set(draw.nagashi)) != len(draw.nagashi):
        raise RuleError.one("nagashi", "a player is listed twice")


def _check_abort(*, ruleset: Ruleset, abort: Abort) -> None:
    triple_ron_rule = ruleset.multiple_ron in ("double_head_bump_triple_abort", "double_only_triple_abort")
    if abort.reason is not None and abort.reason not in ABORT_REASONS:
        raise RuleError.one("reason", "must be one of: " + ", ".join(ABORT_REASONS))
    if abort.reason == "triple_ron" and not triple_ron_rule:
        raise RuleError.one("reason", f"a triple ron is not an abortive draw under multiple_ron "
                            f"{ruleset.multiple_ron}: record it as a ron with its wins")
    if not ruleset.abortive_draws and abort.reason != "triple_ron":
        raise RuleError.one("result", "this ruleset has no abortive draws")
    if abort.reason == "four_riichi" and len(abort.riichi) != ruleset.players:
        raise RuleError.one("riichi", f"four_riichi needs a riichi from all {ruleset.players} players in this hand")


def _join(prefix: str, field: str) -> str:
    return f"{prefix}.{field}" if prefix else field


def _value_of(*, ruleset: Ruleset, win: Win, tsumo: bool, field: str, names: Sequence[str]) -> HandValue:
    """Check one win against the ruleset and value it (SCORE_SHEET.md "Invalid input")."""
    problems: list[Problem] = []
    if win.fan or win.flowers:
        problems.append(Problem(_join(field, "fan"), "fan and flowers are for MCR; a riichi win has han and fu"))
    if win.yakuman and (win.han or win.fu is not None):
        problems.append(Problem(_join(field, "yakuman"), "give either yakuman or han/fu, not both"))
    if problems:
        raise RuleError(problems)
    if win.yakuman:
        if win.yakuman < 1:
            raise RuleError.one(_join(field, "yakuman"), "a yakuman count is 1 or more")
        value = hand_value(ruleset=ruleset, yakuman=win.yakuman)
    else:
        if not win.han:
            raise RuleError.one(_join(field, "han"), "a win needs han and fu, or yakuman")
        try:
            check_han_fu(han=win.han, fu=win.fu, tsumo=tsumo)
        except RuleError as exc:
            raise exc.at(field) from None
        value = hand_value(ruleset=ruleset, han=win.han, fu=win.fu)
    if ruleset.yakuman_only and not value.is_yakuman:
        raise RuleError.one(_join(field, "han"), "only yakuman may win under this ruleset"
                            + (" (13 han or more counts)" if ruleset.kazoe_yakuman else ""))
    if not value.is_yakuman and win.han < ruleset.min_han:
        raise RuleError.one(_join(field, "han"),
                            f"{win.han} han is below this ruleset's minimum of {ruleset.min_han} han")
    if win.pao is not None:
        if not ruleset.pao:
            raise RuleError.one(_join(field, "pao"), "this ruleset has no pao (liability) payments")
        if not win.yakuman:
            raise RuleError.one(_join(field, "pao"), "pao only applies to a yakuman")
        if win.pao == win.winner:
            raise RuleError.one(_join(field, "pao"), f"{names[win.winner]} cannot be liable for their own win")
    return value


def _outcome(win: Win, value: HandValue, *, stood: bool = True) -> WinOutcome:
    return WinOutcome(winner=win.winner, han=value.han, fu=value.fu, yakuman=value.yakuman, base=value.base,
                      limit=value.limit, stood=stood, items=win.items)


def _put_riichi_sticks(ledger: Ledger, *, ruleset: Ruleset, riichi: frozenset[int]) -> None:
    for p in sorted(riichi):
        ledger.pay(p, None, ruleset.riichi_deposit, "riichi")


def _honba_per_payer(*, ruleset: Ruleset, honba: int, payers: int) -> int:
    """Tsumo honba: the honba bonus shared equally by the payers (100 each per honba at four)."""
    return int(-(-Fraction(ruleset.honba_points * honba, payers) // 1))


# --- outcomes ---------------------------------------------------------------


def _stands(*, ruleset: Ruleset, ordered: list[tuple[Win, HandValue]]) -> list[int] | None:
    """Indices (in turn order) of the wins that stand; None = an abortive draw (seed 000 §3.5)."""
    count = len(ordered)
    mode = ruleset.multiple_ron
    if count == 1 or mode == "all":
        return list(range(count))
    if mode == "head_bump":
        return [0]
    if mode == "head_bump_yakuman_exception":
        # Option 1.1: the head bump applies, but a yakuman is never bumped.
        return [0] + [i for i in range(1, count) if ordered[i][1].is_yakuman]
    if count >= 3:
        return None  # options 2 and 4: a triple ron is an abortive draw
    return [0] if mode == "double_head_bump_triple_abort" else [0, 1]


def _settle_ron(*, ruleset: Ruleset, state: GameState, ron: Ron, names: Sequence[str]) -> Settlement:
    valued = [
        (win, _value_of(ruleset=ruleset, win=win, tsumo=False,
                        field=f"wins[{i}]" if len(ron.wins) > 1 else "", names=names))
        for i, win in enumerate(ron.wins)
    ]
    ordered = sorted(valued, key=lambda wv: state.turn_distance(ron.loser, wv[0].winner))
    standing = _stands(ruleset=ruleset, ordered=ordered)
    if standing is None:
        settlement = _settle_abort(ruleset=ruleset, state=state, abort=Abort(reason="triple_ron", riichi=ron.riichi),
                                   checked=True)
        return _with_wins(settlement, tuple(_outcome(w, v, stood=False) for w, v in ordered))

    ledger = Ledger(ruleset.players)
    _put_riichi_sticks(ledger, ruleset=ruleset, riichi=ron.riichi)
    winners = [ordered[i] for i in standing]
    first = winners[0][0].winner
    for index, (win, value) in enumerate(winners):
        dealer = win.winner == state.dealer
        total = ron_value(ruleset=ruleset, base=value.base, dealer=dealer)
        honba = ruleset.honba_points * state.honba
        if index > 0 and ruleset.multiple_ron_honba == "first_winner":
            honba = 0
        honba_payer = ron.loser
        if win.pao is not None and win.pao != ron.loser:
            # Pao on a ron (seed 000 §5.1): the liable player pays half of the
            # fed yakuman, the discarder the rest. In a double yakuman only one
            # yakuman is fed, and then the liable player also pays the honba.
            fed = total if value.yakuman == 1 else ron_value(ruleset=ruleset, base=YAKUMAN, dealer=dealer)
            ledger.pay(win.pao, win.winner, fed // 2, "pao")
            ledger.pay(ron.loser, win.winner, total - fed // 2, "hand")
            if value.yakuman > 1:
                honba_payer = win.pao
        else:
            ledger.pay(ron.loser, win.winner, total, "hand")
        ledger.pay(honba_payer, win.winner, honba, "honba")

    pot = state.deposits + len(ron.riichi)
    if len(winners) > 1 and ruleset.multiple_ron_deposits == "own_back_rest_first":
        for win, _ in winners[1:]:
            if win.winner in ron.riichi:
                ledger.pay(None, win.winner, ruleset.riichi_deposit, "deposits")
                pot -= 1
    ledger.pay(None, first, pot * ruleset.riichi_deposit, "deposits")

    winner_ids = [w.winner for w, _ in winners]
    dealer_stays = _dealer_keeps_seat_after_ron(ruleset=ruleset, state=state, winner_ids=winner_ids)
    stood = set(standing)
    return ledger.win_settlement(kind="ron", state=state, dealer_stays=dealer_stays,
                                 wins=tuple(_outcome(w, v, stood=i in stood) for i, (w, v) in enumerate(ordered)))


def _dealer_keeps_seat_after_ron(*, ruleset: Ruleset, state: GameState, winner_ids: list[int]) -> bool:
    """Renchan on a ron; with several winners the ruleset's dealer_multiple_ron_renchan decides."""
    if ruleset.renchan == "none" or state.dealer not in winner_ids:
        return False
    if len(winner_ids) == 1:
        return True
    rule = ruleset.dealer_multiple_ron_renchan
    return rule == "always" or (rule == "if_first" and winner_ids[0] == state.dealer)


def _settle_tsumo(*, ruleset: Ruleset, state: GameState, tsumo: Tsumo, names: Sequence[str]) -> Settlement:
    win = tsumo.win
    value = _value_of(ruleset=ruleset, win=win, tsumo=True, field="", names=names)
    n = ruleset.players
    ledger = Ledger(n)
    _put_riichi_sticks(ledger, ruleset=ruleset, riichi=tsumo.riichi)
    dealer = win.winner == state.dealer
    payers = [p for p in range(n) if p != win.winner]
    honba_each = _honba_per_payer(ruleset=ruleset, honba=state.honba, payers=len(payers))
    normal_base = value.base
    if win.pao is not None:
        # Pao on a tsumo (seed 000 §5.1): the liable player pays the fed
        # yakuman as if dealt in. In a double yakuman the rest is an ordinary
        # tsumo, honba from everyone; otherwise the liable player pays it all.
        fed_base = value.base if value.yakuman == 1 else YAKUMAN
        ledger.pay(win.pao, win.winner, ron_value(ruleset=ruleset, base=fed_base, dealer=dealer), "pao")
        normal_base = value.base - fed_base
        if value.yakuman == 1:
            ledger.pay(win.pao, win.winner, ruleset.honba_points * state.honba, "honba")
    if normal_base:
        shares = tsumo_shares(ruleset=ruleset, base=normal_base, winner=win.winner, dealer=state.dealer, players=n)
        for payer in payers:
            ledger.pay(payer, win.winner, shares[payer], "hand")
    if win.pao is None or value.yakuman > 1:
        for payer in payers:
            ledger.pay(payer, win.winner, honba_each, "honba")
    ledger.pay(None, win.winner, (state.deposits + len(tsumo.riichi)) * ruleset.riichi_deposit, "deposits")
    return ledger.win_settlement(kind="tsumo", state=state, dealer_stays=dealer and ruleset.renchan != "none",
                                 wins=(_outcome(win, value),))


def _settle_draw(*, ruleset: Ruleset, state: GameState, draw: Draw, names: Sequence[str]) -> Settlement:
    """Exhaustive draw (RULES.md §3): noten payments, or nagashi mangan paid as a mangan tsumo."""
    n = ruleset.players
    _check_draw(ruleset=ruleset, draw=draw)
    ledger = Ledger(n)
    _put_riichi_sticks(ledger, ruleset=ruleset, riichi=draw.riichi)
    if draw.nagashi:
        # Nagashi replaces the noten payments; no honba, the sticks stay (Tenhou, Pantheon).
        for holder in draw.nagashi:
            shares = tsumo_shares(ruleset=ruleset, base=MANGAN, winner=holder, dealer=state.dealer, players=n)
            for payer, amount in shares.items():
                ledger.pay(payer, holder, amount, "nagashi")
    else:
        _noten_payments(ledger, ruleset=ruleset, tenpai=draw.tenpai)
    return ledger.settlement(kind="draw", deposits_after=state.deposits + len(draw.riichi),
                             dealer_stays=ruleset.renchan == "tenpai" and state.dealer in draw.tenpai,
                             honba_after=state.honba + 1)


def _noten_payments(ledger: Ledger, *, ruleset: Ruleset, tenpai: frozenset[int]) -> None:
    """The noten players pay the total in equal shares, the tenpai players receive it so (RULES.md §3).

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
                ledger.pay(payer, payee, int(pair), "noten")
        return
    for payer in noten:
        ledger.pay(payer, None, total // (n - k), "noten")
    for payee in sorted(tenpai):
        ledger.pay(None, payee, total // k, "noten")


def _settle_abort(*, ruleset: Ruleset, state: GameState, abort: Abort, checked: bool = False) -> Settlement:
    """Abortive draw (RULES.md §3): honba +1, sticks stay, no payments, the dealer stays."""
    if not checked:
        _check_abort(ruleset=ruleset, abort=abort)
    ledger = Ledger(ruleset.players)
    _put_riichi_sticks(ledger, ruleset=ruleset, riichi=abort.riichi)
    return ledger.settlement(kind="abort", deposits_after=state.deposits + len(abort.riichi), dealer_stays=True,
                             honba_after=state.honba + 1, abortive=abort.reason or "abortive draw")


def _settle_chombo(*, ruleset: Ruleset, state: GameState, chombo: Chombo) -> Settlement:
    """Chombo (RULES.md §4): the hand is replayed, same dealer and honba, that hand's sticks go back.

    What is paid at the table follows chombo_payment; the deduction from the
    final result (chombo_penalty) is applied at the end of the game.
    """
    n = ruleset.players
    ledger = Ledger(n)
    offender = chombo.player
    if ruleset.chombo_payment == "reverse_mangan":
        shares = tsumo_shares(ruleset=ruleset, base=MANGAN, winner=offender, dealer=state.dealer, players=n)
        for payee, amount in shares.items():
            ledger.pay(offender, payee, amount, "chombo")
    elif ruleset.chombo_payment == "flat":
        for payee in range(n):
            if payee != offender:
                ledger.pay(offender, payee, ruleset.chombo_flat_amount, "chombo")
    return ledger.settlement(kind="chombo", deposits_after=state.deposits, dealer_stays=True,
                             honba_after=state.honba, replay=True, chombo_player=offender)


def _with_wins(settlement: Settlement, wins: tuple[WinOutcome, ...]) -> Settlement:
    return replace(settlement, wins=wins)
