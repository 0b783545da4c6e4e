"""The EMA ranking (rules.rankings.mers): each number traceable to a published page or a public implementation's
worked example (docs/rankings.md names them all, and where they disagree)."""

from __future__ import annotations

from datetime import date

import pytest

from rules.rankings.changes import DROPPED, ENTERED, EXPIRED, HALVED, ranking_changes
from rules.rankings.mers import (
    RankedEvent,
    Result,
    counted_players,
    country_figures,
    event_weight,
    mers_ranking,
    part_a_count,
    result_score,
)


@pytest.mark.parametrize(
    ("place", "players", "score", "source"),
    [
        (1, 100, 1000, "mahjong-europe.org, Basics for ranking system: the winner gets 1000"),
        (100, 100, 0, "the same page: last of 100 players gets 0"),
        (3, 16, 867, "riichi.wiki / arcturus.su 'European Ranking System': 3rd of 16 is 867 (866.66)"),
        (32, 60, 475, "tomp31/RiichiUKRankingSystem mers-vs-rukrs.md: 32nd of 60 beat 28 of 59, 475"),
        (51, 101, 500, "ldekerg/European-Mahjong tests/test_ranking.py: 51st of 101 is 500"),
        (2, 2, 0, "the same tests: 2nd of 2 is 0"),
        # The EMA's own pre-2018 page gives 252 for 75th of 100 (1000 × 25 / 99 = 252.53): a truncation that the
        # public implementations do not follow; they round (docs/rankings.md, "Result score").
        (75, 100, 253, "rounded as ldekerg, mahjong-portal and the UK engine do; the EMA page's example says 252"),
        (16, 17, 63, "62.5 rounds half up (docs/rankings.md)"),
    ],
)
def test_result_score(place, players, score, source):
    assert result_score(place, players) == score, source


@pytest.mark.parametrize(("place", "players"), [(0, 10), (11, 10), (1, 1)])
def test_a_place_outside_the_field_is_refused(place, players):
    with pytest.raises(ValueError, match="place"):
        result_score(place, players)


# mahjong-europe.org/ranking/Basicsranking.html: TOTAL_MERS = duration + players + countries + qualification.
@pytest.mark.parametrize(
    ("days", "players", "countries", "championship", "weight"),
    [
        (1, 40, 5, False, 1.0),  # 1 day, X <= 40, X <= 5
        (1, 41, 6, False, 2.0),  # 41 <= X <= 80: +0.5; 6 <= X <= 9: +0.5
        (2, 80, 9, False, 3.0),
        (2, 81, 10, False, 4.0),  # X > 80: +1; X >= 10: +1
        (3, 120, 12, False, 5.0),
        (4, 30, 2, False, 3.0),  # 3 days or more: +3
        (3, 216, 20, True, 6.0),  # a qualifying European championship: +1 (OEMC 2017 had 216 players)
    ],
)
def test_event_weight(days, players, countries, championship, weight):
    assert event_weight(days=days, players=players, countries=countries, championship=championship) == weight


def test_substitutes_count_up_to_three():
    """'Substitute players (maximum 3) are accounted in the calculation of participating players.'"""
    assert [counted_players(36, n) for n in (0, 2, 3, 5)] == [36, 38, 39, 39]


@pytest.mark.parametrize(
    ("active", "kept"),
    [
        # mahjong-portal's about page (server/templates/website/about_en.html), the same rule for RR and EMA:
        (1, 1),
        (5, 5),
        (6, 6),
        (10, 9),
        (11, 10),
        (15, 13),
        (20, 17),
        (25, 21),
    ],
)
def test_part_a_keeps_five_and_80_percent_of_the_rest(active, kept):
    assert part_a_count(active) == kept


DAY = date(2025, 1, 11)  # a Saturday: its results count from Monday 2025-01-13
ON = date(2025, 2, 3)


def event(key: str, *, weight: float, players: int = 1001, day: date = DAY) -> RankedEvent:
    return RankedEvent(key=key, starts_on=day, days=1, players=players, countries=1, weight=weight)


def test_the_uk_worked_example():
    """tomp31/RiichiUKRankingSystem mers-vs-rukrs.md: results 1000, 1000, 1000 (weight 1), 501 (weight 6) and
    500 (weight 1): part A 650.6, part B 667.33 (the best four by result, whatever their weight)."""
    events = [
        event("a", weight=1),
        event("b", weight=1),
        event("c", weight=1),
        event("d", weight=6),
        event("e", weight=1, players=3),
    ]
    results = [
        Result("a", "p", 1),
        Result("b", "p", 1),
        Result("c", "p", 1),
        Result("d", "p", 500),
        Result("e", "p", 2),
    ]
    (line,) = mers_ranking(events, results, ON).lines
    assert (round(line.part_a, 2), round(line.part_b, 2), round(line.score, 2)) == (650.6, 667.33, 658.97)
    assert [r.score for r in line.results] == [1000, 1000, 1000, 501, 500]
    assert [r.part_b for r in line.results] == [True, True, True, True, False]


def test_fewer_than_five_results_are_padded_with_zeros():
    """Two wins of weight 1: part A = 2000 / (2 + 3) = 400, part B = 2000 / (2 + 2) = 500, the score 450."""
    events = [event("a", weight=1), event("b", weight=1)]
    (line,) = mers_ranking(events, [Result("a", "p", 1), Result("b", "p", 1)], ON).lines
    assert (line.part_a, line.part_b, line.score) == (400.0, 500.0, 450.0)


def test_one_result_is_not_listed():
    ranking = mers_ranking([event("a", weight=1)], [Result("a", "p", 1)], ON)
    assert ranking.lines == ()
    assert [r.score for r in ranking.unlisted["p"]] == [1000]


def test_the_worst_results_beyond_five_are_dropped_and_said_so():
    """Ten results: part A keeps the best nine; the worst is dropped, and named as dropped."""
    events = [event(f"e{n}", weight=1, players=11) for n in range(10)]
    results = [Result(f"e{n}", "p", n + 1) for n in range(10)]
    (line,) = mers_ranking(events, results, ON).lines
    assert [r.event for r in line.dropped] == ["e9"]
    assert sum(r.part_a for r in line.results) == 9
    assert round(line.part_a) == round(sum(1000 * (10 - n) / 10 for n in range(9)) / 9)


def test_ties_part_a_by_recency_part_b_by_weight():
    """ldekerg/European-Mahjong app/ranking.py: on equal results, part A keeps the most recent, part B the
    heaviest (inferred there from the EMA's published lists)."""
    old, new = date(2024, 6, 1), date(2024, 12, 7)
    events = [RankedEvent(f"e{n}", new, 1, 11, 1, weight=1) for n in range(3)]
    events += [RankedEvent("heavy-old", old, 3, 11, 1, weight=4), RankedEvent("light-new", new, 1, 11, 1, weight=1)]
    events += [RankedEvent(f"f{n}", new, 1, 11, 1, weight=1) for n in range(5)]
    results = [Result(f"e{n}", "p", 1) for n in range(3)] + [Result("heavy-old", "p", 2), Result("light-new", "p", 2)]
    results += [Result(f"f{n}", "p", 11) for n in range(5)]
    (line,) = mers_ranking(events, results, ON).lines
    chosen = {r.event: (r.part_a, r.part_b) for r in line.results}
    assert chosen["heavy-old"] == (True, True)  # part A keeps 9 of 10: both 900s are in it
    assert chosen["light-new"] == (True, False)  # part B's fourth is the heavier 900
    assert [r.event for r in line.dropped] == ["f4"]  # the worst, the equal zeros ordered by key


def test_a_published_weight_is_used_as_published():
    published = RankedEvent("x", DAY, days=1, players=20, countries=2, weight=2.5)
    assert published.mers_weight == 2.5
    assert RankedEvent("y", DAY, days=1, players=20, countries=2).mers_weight == 1.0


def test_equal_scores_share_a_rank():
    events = [event("a", weight=1), event("b", weight=1), event("c", weight=1, players=3)]
    results = [
        Result("a", "x", 1),
        Result("b", "x", 1),
        Result("a", "y", 1),
        Result("b", "y", 1),
        Result("a", "z", 2),
        Result("c", "z", 1),
    ]
    ranking = mers_ranking(events, results, ON)
    assert [(line.player, line.rank) for line in ranking.lines] == [("x", 1), ("y", 1), ("z", 3)]


def test_country_figures_average_the_top_three():
    """riichi.wiki 'European Ranking System': countries are ranked on their top 3 players (or zero scores)."""
    events = [event(k, weight=1, players=11) for k in "ab"]
    places = {"d1": 1, "d2": 2, "d3": 3, "d4": 4, "n1": 1}
    results = [Result(k, p, place) for p, place in places.items() for k in "ab"]
    ranking = mers_ranking(events, results, ON)
    figures = country_figures(ranking, {"d1": "DK", "d2": "DK", "d3": "DK", "d4": "DK", "n1": "NL"})
    scores = {line.player: line.score for line in ranking.lines}
    assert [(f.country, f.rank, f.ranked) for f in figures] == [("DK", 1, 4), ("NL", 2, 1)]
    assert figures[0].score == pytest.approx((scores["d1"] + scores["d2"] + scores["d3"]) / 3)
    assert figures[1].score == pytest.approx(scores["n1"] / 3)  # two missing players count 0


def test_what_changed_since_the_week_before():
    """A result of 2024-01-20 (counted from 2024-01-22) is halved in the ranking of 2025-01-20 (its 53rd counted
    week) and expires in 2026-01-19's (its 105th); one of 2025-01-18 enters the Monday after."""
    events = [
        RankedEvent("old", date(2024, 1, 20), 2, 30, 3),
        RankedEvent("mid", date(2024, 6, 1), 2, 30, 3),
        RankedEvent("new", date(2025, 1, 18), 1, 30, 3),
    ]
    results = [
        Result("old", "p", 1),
        Result("mid", "p", 2),
        Result("new", "p", 30),
        Result("mid", "q", 1),
        Result("new", "q", 1),
    ]
    before, after = mers_ranking(events, results, date(2025, 1, 13)), mers_ranking(events, results, date(2025, 1, 20))
    changes, left = ranking_changes(before, after)
    assert [(c.event, c.change, c.time_factor) for c in changes["p"].events] == [
        ("new", ENTERED, 1.0),
        ("old", HALVED, 0.5),
    ]
    assert changes["q"].previous_rank is None  # one result the week before: not listed
    assert left == ()
    gone = mers_ranking(events, results, date(2026, 1, 19))
    changes, left = ranking_changes(after, gone)
    assert ("old", EXPIRED, 0.0) in [(c.event, c.change, c.time_factor) for c in changes["p"].events]
    assert DROPPED not in {c.change for c in changes["p"].events}
