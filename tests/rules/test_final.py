"""Final results: oka, uma, ties, JPML uma, penalties, sticks at the end, Tenhou rounding (docs/rules.md §5)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rules.final import final_results, round_to_thousand
from rules.presets import get_preset
from rules.ruleset import Ruleset


def points_by_player(
    ruleset: Ruleset,
    scores: list[int],
    *,
    deposits: int = 0,
    finished: bool = True,
    chombos: tuple[int, ...] = (0, 0, 0, 0),
    penalties: dict[int, Fraction] | None = None,
):
    rows = final_results(
        ruleset=ruleset, scores=scores, deposits=deposits, finished=finished, chombos=chombos, penalties=penalties
    )
    return {row.player: row for row in rows}


def rules(key: str | None = None, **overrides: Any) -> Ruleset:
    return Ruleset.build(base=get_preset(key) if key else None, overrides=overrides)


def test_score_sheet_example():
    # docs/score-sheet.md: 37700 first under wrc-2025 (uma +15, no oka) -> 22.7 points.
    rows = points_by_player(rules("wrc-2025"), [37700, 30000, 22300, 30000])
    assert (rows[0].rank, rows[0].uma, rows[0].oka, rows[0].points) == (1, 15, 0, Fraction("22.7"))


@pytest.mark.parametrize(
    ("key", "scores", "points"),
    [
        # Oka (return - start) x players to first: 25000/30000 -> +20 (docs/rules.md §5).
        ("m-league", [45000, 30000, 15000, 10000], [15 + 30 + 20, 0 + 10, -15 - 10, -20 - 30]),
        # NPM: +50 for first already holds the oka (seed 000 §5.5).
        ("npm", [40000, 30000, 20000, 10000], [10 + 50, 0 + 10, -10 - 10, -20 - 30]),
        # Tenhou: end scores to the nearest 1000, first place takes the rest (sum stays 0).
        ("tenhou", [45700, 25300, 18800, 10200], [56, 5, -21, -40]),
        ("tenhou", [30500, 30400, 20600, 18500], [0 + 20 + 20, 0 + 10, -9 - 10, -11 - 20]),
        # Tenhou's records: a second place on 38500 is +9 +10 = +19.0, first gives up the extra point.
        ("tenhou", [48400, 38500, 20600, -7500], [18 + 20 + 20, 9 + 10, -9 - 10, -38 - 20]),
    ],
)
def test_oka_uma_and_rounding(key, scores, points):
    rows = points_by_player(rules(key), scores)
    assert [rows[p].points for p in range(4)] == points
    assert sum(points) == 0


@pytest.mark.parametrize(
    ("score", "rounded"),
    [
        # docs/score-sheet.md: to the nearest 1000, a 500 away from zero. Tenhou's records:
        # 38500 → 39000, 40500 → 41000, −7500 → −8000 (docs/rules.md, the tenhou row).
        (38400, 38000),
        (38500, 39000),
        (38600, 39000),
        (40500, 41000),
        (30500, 31000),
        (29500, 30000),
        (-7400, -7000),
        (-7500, -8000),
        (-7600, -8000),
        (-500, -1000),
        (-400, 0),
        (0, 0),
        (45700, 46000),
    ],
)
def test_round_to_thousand(score, rounded):
    assert round_to_thousand(score) == rounded


@pytest.mark.parametrize(
    ("scores", "uma_by_player", "ranks"),
    [
        # Pantheon's EMA uma test (scores in seat order): ties share the uma of the places they cover.
        ([28000, 28000, 37000, 27000], [0, 0, 15, -15], [2, 2, 1, 4]),
        ([27000, 27000, 37000, 27000], [-5, -5, 15, -5], [2, 2, 1, 2]),
        ([32000, 32000, 24000, 32000], [5, 5, -15, 5], [1, 1, 4, 1]),
        ([36000, 24000, 24000, 36000], [10, -10, -10, 10], [1, 3, 3, 1]),
    ],
)
def test_ties_split_uma(scores, uma_by_player, ranks):
    rows = points_by_player(rules("ema-2016"), scores)
    assert [rows[p].uma for p in range(4)] == uma_by_player
    assert [rows[p].rank for p in range(4)] == ranks


def test_ties_split_oka():
    # Two players tied first at 30000 under 25000/30000: they share 20 points of oka.
    rows = points_by_player(rules("m-league"), [30000, 30000, 20000, 20000])
    assert rows[0].oka == rows[1].oka == 10
    assert rows[0].points == rows[1].points == 0 + (30 + 10) / 2 + 10


def test_ties_by_seat_order():
    rows = points_by_player(rules("tenhou"), [25000, 25000, 25000, 25000])
    assert [rows[p].rank for p in range(4)] == [1, 2, 3, 4]
    assert rows[0].points == -5 + 20 + 20


@pytest.mark.parametrize(
    ("scores", "places_uma"),
    [
        # Pantheon's jpmlATest, in tenths of a point by place (seed 000 §5.1).
        ([28000, 29000, 37000, 27000], [12, -1, -3, -8]),  # one plus
        ([31000, 33000, 24000, 32000], [8, 3, 1, -12]),  # three plus
        ([33000, 33000, 24000, 32000], [Fraction(11, 2), Fraction(11, 2), 1, -12]),  # three plus, tied first
        ([28000, 29000, 24000, 28000], [8, 0, 0, -8]),  # nobody plus, tie second
        ([35000, 31000, 20000, 14000], [8, 4, -4, -8]),  # two plus
        ([30000, 30000, 30000, 30000], [Fraction(0)] * 4),  # four plus: default table, all tied
    ],
)
def test_jpml_uma_by_plus_count(scores, places_uma):
    rows = final_results(ruleset=get_preset("jpml-a"), scores=scores, deposits=0, finished=True, chombos=(0,) * 4)
    assert [row.uma for row in rows] == places_uma


def test_chombo_deduction_and_sheet_penalties():
    rows = points_by_player(
        rules("npm"), [40000, 30000, 20000, 10000], chombos=(0, 2, 0, 0), penalties={3: Fraction(-5)}
    )
    assert rows[1].penalty == -80
    assert rows[1].points == 0 + 10 - 80
    assert rows[3].penalty == -5
    assert rows[3].points == -20 - 30 - 5


@pytest.mark.parametrize(
    ("rule", "scores", "finished", "end_scores"),
    [
        ("first_place", [40000, 30000, 20000, 8000], True, [42000, 30000, 20000, 8000]),
        ("lost", [40000, 30000, 20000, 8000], True, [40000, 30000, 20000, 8000]),
        # Tied firsts share the sticks.
        ("first_place", [35000, 35000, 20000, 8000], True, [36000, 36000, 20000, 8000]),
        # A game in progress keeps its sticks on the table.
        ("first_place", [40000, 30000, 20000, 8000], False, [40000, 30000, 20000, 8000]),
    ],
)
def test_deposits_at_end(rule, scores, finished, end_scores):
    rows = points_by_player(rules(deposits_at_end=rule), scores, deposits=2, finished=finished)
    assert [rows[p].score for p in range(4)] == end_scores


def test_tenhou_rounding_rest_is_shared_by_tied_firsts():
    ruleset = rules("tenhou", ties="split")
    rows = points_by_player(ruleset, [35500, 35500, 15000, 14000])
    assert rows[0].rank == rows[1].rank == 1
    assert rows[0].points == rows[1].points
    assert sum(r.points for r in rows.values()) == 0
