"""MCR payments, false wins, seat rotation and table points (docs/rules.md §6; seeds 002, 004)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.errors import Refusal
from rules.final import final_results
from rules.game import play_game, play_hand
from rules.hands import Draw, HandResult, Ron, Tsumo, Win
from rules.presets import get_preset
from rules.state import start_state

MCR = get_preset("mcr")
A, B, C, D = range(4)


def settle(result: HandResult, round_label: str = "E1"):
    return play_hand(ruleset=MCR, state=start_state(ruleset=MCR, round_label=round_label), result=result)


@pytest.mark.parametrize(
    ("result", "deltas"),
    [
        # docs/rules.md §6: F = 10 on B's discard: A +34, B -18, C -8, D -8; self-drawn: A +54, each -18.
        (Ron(loser=B, wins=(Win(winner=A, fan=10),)), (34, -18, -8, -8)),
        (Tsumo(win=Win(winner=A, fan=10)), (54, -18, -18, -18)),
        # Flowers add one fan each but do not count towards the minimum: 8 fan + 2 flowers = 10.
        (Ron(loser=B, wins=(Win(winner=A, fan=8, flowers=2),)), (34, -18, -8, -8)),
        # Seed 004: the 48-fan hand self-drawn: 56 from each.
        (Tsumo(win=Win(winner=C, fan=48)), (-56, -56, 168, -56)),
        # An 88-fan hand on a discard: 8 from each, 88 more from the discarder.
        (Ron(loser=D, wins=(Win(winner=B, fan=88),)), (-8, 112, -8, -96)),
        # A false win by D in a hand that A wins on B's discard: D pays 10 to each other player too.
        (Ron(loser=B, wins=(Win(winner=A, fan=8),), false_wins=(D,)), (32 + 10, -16 + 10, -8 + 10, -8 - 30)),
        # A false win in a drawn hand.
        (Draw(false_wins=(C,)), (10, 10, -30, 10)),
        (Draw(), (0, 0, 0, 0)),
    ],
)
def test_mcr_payments(result, deltas):
    assert settle(result).settlement.deltas == deltas


@pytest.mark.parametrize(
    ("result", "field", "message"),
    [
        (Ron(loser=B, wins=(Win(winner=A, fan=7, flowers=4),)), "fan", "below the minimum of 8"),
        (Ron(loser=B, wins=(Win(winner=A, fan=8), Win(winner=C, fan=9))), "wins", "one winner per discard"),
        (Tsumo(win=Win(winner=A, han=3, fu=30)), "han", "fan"),
        (Tsumo(win=Win(winner=A, fan=8), false_wins=(A,)), "winner", "cannot win it"),
        (Tsumo(win=Win(winner=A, fan=8), riichi=frozenset({B})), "riichi", "no riichi"),
        (Draw(tenpai=frozenset({A})), "tenpai", "no tenpai payments"),
    ],
)
def test_mcr_refusals(result, field, message):
    with pytest.raises(Refusal) as caught:
        settle(result)
    assert caught.value.problems[0].field == field
    assert message in caught.value.problems[0].message


def test_sixteen_hands_with_the_seat_rotation():
    """Seed 002 §2: rounds seat A B C D / B A D C / C D B A / D C A B; the dealer passes every hand."""
    record = play_game(ruleset=MCR, start=start_state(ruleset=MCR), hands=[Draw()] * 16)
    labels = [h.before.label(MCR) for h in record.hands]
    dealers = "".join("ABCD"[h.before.dealer] for h in record.hands)
    assert labels == [f"{w}{i}" for w in "ESWN" for i in range(1, 5)]
    assert dealers == "ABCD" + "BADC" + "CDBA" + "DCAB"
    assert all(h.before.honba == 0 for h in record.hands)
    assert record.finished
    # Every player is East (dealer of hand 1) in one round.
    assert sorted(dealers[0::4]) == ["A", "B", "C", "D"]


def test_head_bump_follows_the_seats_of_the_round():
    # South round seats B A D C: after A (South) comes D (West), so D's win stands over C's.
    state = start_state(ruleset=MCR, round_label="S1")
    assert state.turn_distance(A, D) == 1
    assert state.turn_distance(A, C) == 2


@pytest.mark.parametrize(
    ("scores", "table_points"),
    [
        ([30, 10, -15, -25], [4, 2, 1, 0]),
        ([30, 30, -15, -45], [3, 3, 1, 0]),  # tied first share 4 + 2
        ([0, 0, 0, 0], [Fraction(7, 4)] * 4),
    ],
)
def test_table_points(scores, table_points):
    rows = final_results(ruleset=MCR, scores=scores, deposits=0, finished=True, chombos=(0,) * 4)
    by_player = {row.player: row for row in rows}
    assert [by_player[p].table_points for p in range(4)] == table_points
    assert [by_player[p].points for p in range(4)] == scores
