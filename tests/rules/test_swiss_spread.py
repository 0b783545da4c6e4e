"""Swiss tables within a spread: the exact programme for a spread of one, the limits, the placements a preview shows."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from rules.errors import Refusal
from rules.seating import banded as banded_module
from rules.seating import next_round, random_seating, swiss_seating
from rules.seating.banded import banded_tables
from rules.seating.next_round import time_limit_for

GENEROUS = 30.0


def partitions(players: list[int], size: int, first: int = 0) -> Iterator[list[tuple[int, ...]]]:
    """Every way to cut ``players`` into tables of ``size``, tables in order from table ``first``, in which nobody
    sits more than one table from their rank's (player ``p``'s is ``p // size``): a brute force to check against.
    The band is applied while the tables are cut, not after, so that it enumerates thousands of ways, not the
    hundreds of thousands of every cut."""
    if not players:
        yield []
        return
    allowed = [p for p in players if abs(first - p // size) <= 1]
    for table in itertools.combinations(allowed, size):
        rest = [p for p in players if p not in table]
        for tail in partitions(rest, size, first + 1):
            yield [table, *tail]


def cost(tables: list[tuple[int, ...]] | list[list[int]], weights: list[dict[int, int]], size: int) -> tuple[int, int]:
    repeat = sum(weights[a].get(b, 0) for table in tables for a, b in itertools.combinations(table, 2))
    moved = sum(abs(t - p // size) for t, table in enumerate(tables) for p in table)
    return repeat, moved


def random_weights(count: int, rng: random.Random) -> list[dict[int, int]]:
    weights: list[dict[int, int]] = [{} for _ in range(count)]
    for _ in range(2 * count):
        a, b = rng.sample(range(count), 2)
        weights[a][b] = weights[b][a] = rng.choice([1, 1, 1, 4, 9])  # k² for k = 1, 2, 3 meetings
    return weights


@pytest.mark.parametrize(("table_size", "tables"), [(2, 4), (3, 3), (3, 4), (4, 3)])
@pytest.mark.parametrize("seed", range(6))
def test_the_programme_finds_the_best_tables_within_one_table(table_size, tables, seed):
    count = table_size * tables
    weights = random_weights(count, random.Random(seed))
    banded = banded_tables(weights=weights, table_size=table_size)
    assert banded.complete
    found, found_cost = banded.tables, banded.cost
    assert banded.floor == found_cost[0]
    assert sorted(p for table in found for p in table) == list(range(count))
    assert all(abs(t - p // table_size) <= 1 for t, table in enumerate(found) for p in table)
    assert cost(found, weights, table_size) == found_cost
    best = min(
        cost(tables_, weights, table_size)
        for tables_ in partitions(list(range(count)), table_size)
        if all(abs(t - p // table_size) <= 1 for t, table in enumerate(tables_) for p in table)
    )
    assert found_cost == best


def rank_tables(ids: list[int], size: int) -> list[tuple[int, ...]]:
    return [tuple(ids[i : i + size]) for i in range(0, len(ids), size)]


def test_spread_zero_pairs_strictly_by_rank_even_with_repeats():
    ids = list(range(1, 17))
    seating = swiss_seating(standings=ids, table_size=4, history=[rank_tables(ids, 4)], seed=1, spread=0)
    assert [set(t.seats) for t in seating.tables] == [set(t) for t in rank_tables(ids, 4)]
    assert seating.repeats == 24  # every pair of every table again: 4 tables × 6 pairs
    assert seating.optimal  # nothing else is allowed, so nothing can be better


def test_any_spread_avoids_every_repeat_that_one_table_cannot():
    ids = list(range(1, 17))
    history = [rank_tables(ids, 4)]
    within_one = swiss_seating(standings=ids, table_size=4, history=history, seed=1, time_limit=GENEROUS)
    anywhere = swiss_seating(standings=ids, table_size=4, history=history, seed=1, time_limit=GENEROUS, spread=None)
    assert within_one.repeats == 6  # table 1 draws on ranks 1-8 only, table 4 on 9-16: 2 + 1 + 1 + 2
    assert within_one.optimal  # the programme proves it
    assert anywhere.repeats == 0


@pytest.mark.parametrize("spread", [1, 2, 3])
def test_nobody_moves_further_than_the_spread(spread):
    ids = list(range(1, 41))
    rng = random.Random(spread)
    history = []
    for _ in range(4):
        rng.shuffle(ids)
        history.append(rank_tables(ids, 4))
    standings = sorted(ids)
    seating = swiss_seating(
        standings=standings, table_size=4, history=history, seed=1, spread=spread, time_limit=GENEROUS
    )
    assert max(abs(place.moved) for place in seating.placements) <= spread
    assert {place.player for place in seating.placements} == set(ids)


def test_placements_say_where_each_player_sits_how_far_he_moved_and_whom_he_met():
    ids = list(range(1, 17))
    seating = swiss_seating(standings=ids, table_size=4, history=[rank_tables(ids, 4)], seed=3, time_limit=GENEROUS)
    table_of = {p: t.number for t in seating.tables for p in t.seats}
    for place in seating.placements:
        assert place.table == table_of[place.player]
        assert place.rank_table == 1 + (place.player - 1) // 4
        assert place.moved == place.table - place.rank_table
        mates = next(t.seats for t in seating.tables if place.player in t.seats)
        assert set(place.met) == {q for q in mates if q != place.player and (q - 1) // 4 == (place.player - 1) // 4}
    assert sum(len(place.met) for place in seating.placements) == 2 * seating.repeats
    assert sum(abs(place.moved) for place in seating.placements) > 0  # moving is how the repeats were avoided


def test_a_programme_stopped_at_once_leaves_the_rank_tables_and_no_floor():
    stopped = banded_tables(weights=random_weights(64, random.Random(1)), table_size=4, deadline=0.0)
    assert not stopped.complete
    assert stopped.tables == [list(range(t * 4, t * 4 + 4)) for t in range(16)]
    assert stopped.floor == 0


class Clock:
    """A clock that jumps past any deadline at its second reading (the programme reads it every 16 tables)."""

    def __init__(self) -> None:
        self.readings = 0

    def perf_counter(self) -> float:
        self.readings += 1
        return 0.0 if self.readings == 1 else 100.0


def test_a_programme_stopped_midway_keeps_the_best_tables_it_reached_and_a_floor(monkeypatch):
    weights = random_weights(128, random.Random(2))  # 32 tables: stopped at the 17th
    for a, b in itertools.combinations(range(128), 2):
        if a // 4 == b // 4:  # the rank tables met too: the top table cannot avoid them all
            weights[a][b] = weights[b][a] = weights[a].get(b, 0) + 1
    best = banded_tables(weights=weights, table_size=4)
    monkeypatch.setattr(banded_module, "time", Clock())
    stopped = banded_tables(weights=weights, table_size=4, deadline=50.0)
    assert not stopped.complete
    assert sorted(p for table in stopped.tables for p in table) == list(range(128))
    assert all(abs(t - p // 4) <= 1 for t, table in enumerate(stopped.tables) for p in table)
    assert stopped.tables[16:] == [list(range(t * 4, t * 4 + 4)) for t in range(16, 32)]
    assert stopped.cost == cost(stopped.tables, weights, 4)
    assert 0 < stopped.floor <= best.cost[0] <= stopped.cost[0]
    # The 16 tables reached are the best 16 tables that close there: the programme on those players alone.
    first = banded_tables(weights=[{q: w for q, w in met.items() if q < 64} for met in weights[:64]], table_size=4)
    assert stopped.tables[:16] == first.tables


def test_a_round_the_clock_stops_is_not_optimal_and_says_how_many_repeats_might_be_avoided():
    ids = list(range(1, 65))
    history = [rank_tables(ids, 4)]  # every rank table met: its 6 pairs repeat unless someone moves
    stopped = swiss_seating(standings=ids, table_size=4, history=history, seed=1, time_limit=0.0)
    best = swiss_seating(standings=ids, table_size=4, history=history, seed=1, time_limit=GENEROUS)
    assert sorted(p for t in stopped.tables for p in t.seats) == ids
    assert not stopped.optimal
    assert stopped.repeats == 96  # the rank tables: the clock left no time to move anyone
    assert best.optimal
    assert best.avoidable == 0
    # An upper bound: at least as many as the best round avoids; here nothing proves any repeat unavoidable.
    assert stopped.avoidable >= stopped.repeats - best.repeats
    assert stopped.avoidable == 96


def test_a_search_that_cannot_reach_its_bound_does_not_claim_optimal():
    # Tables of five are left to the local search; the repeats here cannot all go, so nothing is proven.
    ids = list(range(1, 21))
    seating = swiss_seating(standings=ids, table_size=5, history=[rank_tables(ids, 5)], seed=1, time_limit=GENEROUS)
    assert seating.repeats > 0
    assert not seating.optimal


def test_random_tables_have_no_rank_table():
    seating = random_seating(players=range(1, 9), table_size=4, seed=1)
    assert {place.rank_table for place in seating.placements} == {None}
    assert {place.moved for place in seating.placements} == {0}
    assert seating.optimal  # no history: no repeat, the bound is reached


def test_a_negative_spread_is_refused():
    with pytest.raises(Refusal) as caught:
        swiss_seating(standings=range(1, 9), table_size=4, spread=-1)
    assert [(p.field, p.message) for p in caught.value.problems] == [
        ("spread", "must be 0 (strict pairing by rank) or more, or any")
    ]


@pytest.mark.parametrize(
    ("players", "seconds"),
    [
        (0, 1.0),
        (8, 1.016),
        (100, 1.2),
        (500, 2.0),
        (1000, 3.0),
        (2000, 5.0),
        (3500, 8.0),
        (4000, 8.0),
        (100_000, 8.0),
    ],
)
def test_the_time_limit_grows_with_the_field_up_to_what_a_web_request_allows(players, seconds):
    assert time_limit_for(players) == pytest.approx(seconds)


def test_without_a_time_limit_a_round_gets_the_one_its_field_allows(monkeypatch):
    asked = []

    def no_time(players: int) -> float:
        asked.append(players)
        return 0.0

    monkeypatch.setattr(next_round, "time_limit_for", no_time)
    ids = list(range(1, 66))  # one bye: the limit goes by everyone listed
    seating = swiss_seating(standings=ids, table_size=4, history=[rank_tables(ids, 4)], seed=1)
    assert asked == [65]
    assert not seating.optimal  # no time: the rank tables, their repeats kept
    assert seating.avoidable == seating.repeats > 0
