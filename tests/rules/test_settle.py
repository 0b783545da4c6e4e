"""Every hand outcome under every option (docs/rules.md §2–4, seed 000 §2.5, §3.2–3.5, §5.1).

Players are 0..3 (0 = first dealer); each row gives the full delta tuple.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import Refusal
from rules.game import play_hand
from rules.hands import Abort, Chombo, Draw, HandResult, Ron, Tsumo, Win
from rules.ruleset import Ruleset
from rules.state import start_state


def settle(
    result: HandResult,
    *,
    round_label: str = "E1",
    honba: int = 0,
    deposits: int = 0,
    scores: list[int] | None = None,
    **overrides: Any,
):
    ruleset = Ruleset.build(overrides=overrides)
    state = start_state(ruleset=ruleset, round_label=round_label, honba=honba, deposits=deposits, scores=scores)
    return play_hand(ruleset=ruleset, state=state, result=result)


def ron(loser: int, *wins: Win, riichi: tuple[int, ...] = ()) -> Ron:
    return Ron(loser=loser, wins=wins, riichi=frozenset(riichi))


# Three players call ron on player 0's discard: 1 has 3/30 (3900), 2 has 2/30
# (2000), 3 has a yakuman (32000). Turn order after 0: 1, 2, 3. Dealer is 0.
TRIPLE = ron(0, Win(winner=3, yakuman=1), Win(winner=1, han=3, fu=30), Win(winner=2, han=2, fu=30))
# Two players on player 2's discard: 3 (first in turn) 1 han 30 fu, 1 a yakuman.
DOUBLE_YAKUMAN_SECOND = ron(2, Win(winner=1, yakuman=1), Win(winner=3, han=1, fu=30))


@pytest.mark.parametrize(
    ("mode", "result", "deltas", "kind"),
    [
        # 1. head bump: only the first in turn order after the discarder wins.
        ("head_bump", TRIPLE, (-3900, 3900, 0, 0), "ron"),
        ("head_bump", DOUBLE_YAKUMAN_SECOND, (0, 0, -1000, 1000), "ron"),
        # 1.1: head bump, but a yakuman is never bumped.
        ("head_bump_yakuman_exception", TRIPLE, (-35900, 3900, 0, 32000), "ron"),
        ("head_bump_yakuman_exception", DOUBLE_YAKUMAN_SECOND, (0, 32000, -33000, 1000), "ron"),
        # 2. double ron head bump, triple ron abortive.
        ("double_head_bump_triple_abort", TRIPLE, (0, 0, 0, 0), "abort"),
        ("double_head_bump_triple_abort", DOUBLE_YAKUMAN_SECOND, (0, 0, -1000, 1000), "ron"),
        # 3. all win.
        ("all", TRIPLE, (-37900, 3900, 2000, 32000), "ron"),
        ("all", DOUBLE_YAKUMAN_SECOND, (0, 32000, -33000, 1000), "ron"),
        # 4. double ron allowed, triple ron abortive.
        ("double_only_triple_abort", TRIPLE, (0, 0, 0, 0), "abort"),
        ("double_only_triple_abort", DOUBLE_YAKUMAN_SECOND, (0, 32000, -33000, 1000), "ron"),
    ],
)
def test_multiple_ron_options(mode, result, deltas, kind):
    record = settle(result, multiple_ron=mode)
    assert record.settlement.deltas == deltas
    assert record.settlement.kind == kind


def test_triple_ron_abort_keeps_sticks_and_dealer_and_adds_honba():
    result = ron(
        0, Win(winner=1, han=1, fu=30), Win(winner=2, han=1, fu=30), Win(winner=3, han=1, fu=30), riichi=(1, 2)
    )
    record = settle(result, multiple_ron="double_only_triple_abort", honba=2, deposits=1)
    assert record.settlement.deltas == (0, -1000, -1000, 0)
    assert (record.after.deposits, record.after.honba, record.after.dealer) == (3, 3, 0)


# Double ron on player 0 (the dealer) at 2 honba, 1 stick on the table;
# riichi by 1 (winner), 3 (winner) and 2 (not a winner): 4 sticks in the pot.
# 1 wins 3/30 (3900), 3 wins 2/30 (2000); 1 is first in turn after 0.
@pytest.mark.parametrize(
    ("honba_rule", "deposit_rule", "deltas"),
    [
        # honba 600 to each; 3 takes its own stick back, 1 the other three.
        ("each_winner", "own_back_rest_first", (-7100, -1000 + 4500 + 3000, -1000, -1000 + 2600 + 1000)),
        ("first_winner", "own_back_rest_first", (-6500, -1000 + 4500 + 3000, -1000, -1000 + 2000 + 1000)),
        # all four sticks go to the first winner.
        ("each_winner", "first_winner", (-7100, -1000 + 4500 + 4000, -1000, -1000 + 2600)),
        ("first_winner", "first_winner", (-6500, -1000 + 4500 + 4000, -1000, -1000 + 2000)),
    ],
)
def test_multiple_ron_honba_and_deposit_options(honba_rule, deposit_rule, deltas):
    result = ron(0, Win(winner=3, han=2, fu=30), Win(winner=1, han=3, fu=30), riichi=(1, 2, 3))
    record = settle(
        result,
        multiple_ron="all",
        multiple_ron_honba=honba_rule,
        multiple_ron_deposits=deposit_rule,
        honba=2,
        deposits=1,
    )
    assert record.settlement.deltas == deltas
    assert sum(deltas) == 1000  # the table's stick came back into play
    assert record.after.deposits == 0


@pytest.mark.parametrize(
    ("rule", "winners", "stays"),
    [
        # Discarder 1; turn order after 1 is 2, 3, 0. Dealer is 0.
        ("always", (3, 0), True),
        ("always", (2, 3), False),  # dealer not among the winners
        ("if_first", (3, 0), False),  # 3 is first after the discarder
        ("if_first", (0,), True),
        ("never", (3, 0), False),
    ],
)
def test_dealer_renchan_with_several_winners(rule, winners, stays):
    result = ron(1, *(Win(winner=w, han=1, fu=30) for w in winners))
    record = settle(result, multiple_ron="all", dealer_multiple_ron_renchan=rule, honba=1)
    assert record.settlement.dealer_stays is stays
    assert record.after.dealer == (0 if stays else 1)
    assert record.after.honba == (2 if stays else 0)


@pytest.mark.parametrize(
    ("result", "round_label", "honba", "deltas"),
    [
        # Pao on a ron (seed 000 §5.1): half from the liable player, half and the honba from the discarder.
        (ron(1, Win(winner=0, yakuman=1, pao=2)), "E2", 2, (32600, -16600, -16000, 0)),
        (ron(1, Win(winner=0, yakuman=1, pao=2)), "E1", 1, (48300, -24300, -24000, 0)),
        # The liable player is the discarder: an ordinary ron.
        (ron(2, Win(winner=0, yakuman=1, pao=2)), "E2", 0, (32000, 0, -32000, 0)),
        # Double yakuman: only one yakuman is fed; the liable player pays half of
        # it and, by the seed, the honba; the discarder the rest.
        (ron(1, Win(winner=0, yakuman=2, pao=2)), "E2", 1, (64300, -48000, -16300, 0)),
        # Pao on a tsumo: the liable player pays everything, honba included.
        (Tsumo(win=Win(winner=0, yakuman=1, pao=3)), "E2", 2, (32600, 0, 0, -32600)),
        (Tsumo(win=Win(winner=0, yakuman=1, pao=3)), "E1", 0, (48000, 0, 0, -48000)),
        # Double yakuman tsumo: the fed yakuman from the liable player, the other
        # as an ordinary tsumo (dealer 1 pays 16000, others 8000), honba from all.
        (Tsumo(win=Win(winner=0, yakuman=2, pao=3)), "E2", 1, (64300, -16100, -8100, -40100)),
    ],
)
def test_pao(result, round_label, honba, deltas):
    record = settle(result, round_label=round_label, honba=honba)
    assert record.settlement.deltas == deltas


@pytest.mark.parametrize(
    ("result", "round_label", "honba", "deltas"),
    [
        # Tenhou's record (docs/rules.md, pao): a non-dealer's big three dragons + all honours
        # tsumo, 64000 with 3 honba: the liable player −64900, the other two nothing.
        (Tsumo(win=Win(winner=0, yakuman=2, pao=3)), "E2", 3, (64900, 0, 0, -64900)),
        # A single yakuman is the whole hand under either reading.
        (Tsumo(win=Win(winner=0, yakuman=1, pao=3)), "E2", 2, (32600, 0, 0, -32600)),
        # On a ron the liable player pays half and the honba, the discarder the other half:
        # Tenhou's record fastmaj-13 (tests/fixtures/online), a yakuman dealt in by the dealer with 1 honba.
        (ron(1, Win(winner=0, yakuman=1, pao=2)), "E2", 1, (32300, -16000, -16300, 0)),
        # A double yakuman is halved whole the same way (the tenhou preset's (?): no record has one).
        (ron(1, Win(winner=0, yakuman=2, pao=2)), "E2", 1, (64300, -32000, -32300, 0)),
    ],
)
def test_pao_whole_hand(result, round_label, honba, deltas):
    record = settle(result, round_label=round_label, honba=honba, pao_scope="whole_hand")
    assert record.settlement.deltas == deltas


def test_pao_double_yakuman_capped_is_a_single_liability():
    record = settle(ron(1, Win(winner=0, yakuman=2, pao=2)), round_label="E2", multiple_yakuman=False)
    assert record.settlement.deltas == (32000, -16000, -16000, 0)


@pytest.mark.parametrize(
    ("overrides", "win", "message"),
    [
        ({"pao": False}, Win(winner=0, yakuman=1, pao=2), "no pao"),
        ({}, Win(winner=0, han=5, pao=2), "pao only applies to a yakuman"),
    ],
)
def test_pao_refused(overrides, win, message):
    with pytest.raises(Refusal, match=message):
        settle(ron(1, win), **overrides)


@pytest.mark.parametrize(
    ("payment", "offender", "deltas"),
    [
        ("none", 1, (0, 0, 0, 0)),
        ("reverse_mangan", 1, (4000, -8000, 2000, 2000)),
        ("reverse_mangan", 0, (-12000, 4000, 4000, 4000)),
        ("flat", 2, (3000, 3000, -9000, 3000)),
    ],
)
def test_chombo_payments(payment, offender, deltas):
    record = settle(
        Chombo(player=offender, riichi=frozenset({0, 3})),
        honba=3,
        deposits=2,
        chombo_payment=payment,
        chombo_flat_amount=3000,
    )
    # The riichi sticks of the chombo hand go back: they never show in the deltas.
    assert record.settlement.deltas == deltas
    after = record.after
    assert (after.label(Ruleset()), after.honba, after.deposits, after.dealer) == ("E1", 3, 2, 0)
    assert after.chombos[offender] == 1


@pytest.mark.parametrize(
    ("tenpai", "deltas"),
    [
        ((), (0, 0, 0, 0)),
        ((2,), (-1000, -1000, 3000, -1000)),
        ((0, 3), (1500, -1500, -1500, 1500)),
        ((0, 1, 3), (1000, 1000, -3000, 1000)),
        ((0, 1, 2, 3), (0, 0, 0, 0)),
    ],
)
def test_noten_payments(tenpai, deltas):
    record = settle(Draw(tenpai=frozenset(tenpai)))
    assert record.settlement.deltas == deltas


def test_no_noten_payments_when_the_total_is_zero():
    assert settle(Draw(tenpai=frozenset({1})), noten_payment_total=0).settlement.deltas == (0, 0, 0, 0)


@pytest.mark.parametrize(
    ("renchan", "tenpai", "next_label", "next_honba"),
    [
        # docs/rules.md §3: dealer noten at East 2, 5 honba -> East 3, 6 honba.
        ("tenpai", (), "E3", 6),
        ("tenpai", (1,), "E2", 6),
        ("win", (1,), "E3", 6),
        ("none", (1,), "E3", 6),
    ],
)
def test_draw_renchan(renchan, tenpai, next_label, next_honba):
    ruleset = Ruleset.build(overrides={"renchan": renchan})
    record = settle(Draw(tenpai=frozenset(tenpai)), round_label="E2", honba=5, renchan=renchan)
    assert (record.after.label(ruleset), record.after.honba) == (next_label, next_honba)


@pytest.mark.parametrize(
    ("renchan", "winner", "next_label", "next_honba"),
    [
        ("tenpai", 0, "E1", 3),
        ("win", 0, "E1", 3),
        ("none", 0, "E2", 0),
        ("tenpai", 1, "E2", 0),
    ],
)
def test_win_renchan(renchan, winner, next_label, next_honba):
    record = settle(Tsumo(win=Win(winner=winner, han=1, fu=30)), honba=2, renchan=renchan)
    assert (record.after.label(Ruleset()), record.after.honba) == (next_label, next_honba)


def test_nagashi_needs_the_option():
    with pytest.raises(Refusal, match="no nagashi mangan"):
        settle(Draw(nagashi=(1,)))


def test_nagashi_pays_no_honba_and_leaves_the_sticks():
    record = settle(
        Draw(nagashi=(1,), tenpai=frozenset({0}), riichi=frozenset({0})), honba=2, deposits=1, nagashi_mangan=True
    )
    assert record.settlement.deltas == (-5000, 8000, -2000, -2000)
    assert (record.after.deposits, record.after.honba, record.after.dealer) == (2, 3, 0)


@pytest.mark.parametrize(
    ("overrides", "abort", "message"),
    [
        ({}, Abort(reason="nine_terminals"), "no abortive draws"),
        ({"abortive_draws": True}, Abort(reason="four_riichi", riichi=frozenset({0, 1})), "all 4 players"),
        ({"abortive_draws": True}, Abort(reason="cosmic_rays"), "must be one of"),
        # Under head bump a triple ron is an ordinary ron, never an abortive draw.
        ({"abortive_draws": True}, Abort(reason="triple_ron"), "record it as a ron"),
    ],
)
def test_abort_refused(overrides, abort, message):
    with pytest.raises(Refusal, match=message):
        settle(abort, **overrides)


def test_abort_keeps_dealer_and_sticks():
    record = settle(
        Abort(reason="four_riichi", riichi=frozenset({0, 1, 2, 3})), round_label="E3", honba=1, abortive_draws=True
    )
    assert record.settlement.deltas == (-1000, -1000, -1000, -1000)
    assert (record.after.label(Ruleset()), record.after.honba, record.after.deposits) == ("E3", 2, 4)


def test_riichi_sticks_and_honba_go_to_a_tsumo_winner():
    # Non-dealer 1 tsumo 3 han 30 fu (1000/2000) at 2 honba, 2 sticks on the table, riichi by 1 and 2.
    record = settle(Tsumo(win=Win(winner=1, han=3, fu=30), riichi=frozenset({1, 2})), honba=2, deposits=2)
    assert record.settlement.deltas == (-2200, 4000 + 600 + 3000, -1200 - 1000, -1200)


@pytest.mark.parametrize(
    ("result", "field", "message"),
    [
        (ron(1, Win(winner=1, han=1, fu=30)), "winner", "own discard"),
        (ron(1, Win(winner=0, han=1, fu=20)), "fu", "20 fu is only possible with 2 han or more"),
        (ron(1, Win(winner=0, han=1, fu=25)), "fu", "2 han or more on a ron"),
        (ron(1, Win(winner=0, han=3, fu=35)), "fu", "does not exist"),
        (ron(1, Win(winner=0, han=3)), "fu", "needs fu"),
        (ron(1, Win(winner=0, yakuman=1, han=2, fu=30)), "yakuman", "not both"),
        (ron(1, Win(winner=0, fan=8)), "fan", "MCR"),
        (ron(1, Win(winner=0, han=1, fu=30), Win(winner=0, han=1, fu=30)), "wins[1].winner", "twice"),
        (Tsumo(win=Win(winner=2, han=2, fu=25)), "fu", "3 han or more on a tsumo"),
        (Chombo(player=7), "player", "no player number 7"),
    ],
)
def test_invalid_hands(result, field, message):
    with pytest.raises(Refusal) as caught:
        settle(result, multiple_ron="all")
    problem = caught.value.problems[0]
    assert problem.field == field
    assert message in problem.message


def test_min_han_and_yakuman_only():
    with pytest.raises(Refusal, match="below this ruleset's minimum of 5 han"):
        settle(Tsumo(win=Win(winner=1, han=4, fu=30)), min_han=5)
    assert settle(Tsumo(win=Win(winner=1, han=5)), min_han=5).settlement.deltas == (-4000, 8000, -2000, -2000)
    with pytest.raises(Refusal, match="only yakuman may win"):
        settle(Tsumo(win=Win(winner=1, han=12)), yakuman_only=True)
    # kazoe counts as a yakuman where the ruleset has it
    assert settle(Tsumo(win=Win(winner=1, han=13)), yakuman_only=True).settlement.deltas[1] == 32000


def test_riichi_needs_the_points_where_busting_ends_the_game():
    with pytest.raises(Refusal, match="cannot pay the 1000-point riichi stick"):
        settle(Draw(riichi=frozenset({2})), scores=[40000, 40000, 500, 19500], busting=True)
    # Without busting a player may go below zero.
    record = settle(Draw(riichi=frozenset({2})), scores=[40000, 40000, 500, 19500])
    assert record.after.scores[2] == -500
