"""Swiss tables within one table of the rank table, exactly: a dynamic programme over the tables in rank order.

With a spread of one, a player whose rank gives him table t sits at t-1, t or
t+1. Fill the tables from the top: when table t is filled, the players of
rank table t-1 not yet seated must sit there, some of rank table t have
already gone up to t-1, and any of rank table t+1 may come up. What the
tables after t need to know of the tables before is only those two sets
(the ones still to seat, the ones gone up), which have the same size; so the
best tables for every such pair, table after table, give the best round
(fewest repeats first, weighing a pair that met k times k², then fewest
tables moved), and the answer is proven optimal.

For tables of four there are 70 such pairs and 1,251 ways in all to fill a
table from them. Those ways are the same at every table once the players are
named by their place in the window of three rank tables (above, own, below),
so they are worked out once, as bit masks, and a table costs 1,251 additions
and comparisons of plain integers (repeats and moves in one number); the
repeat weight of a way is looked up only where the window holds a pair that
met. A round of 2,000 players is about half a second (benchmarks/seating.py).

Larger tables have too many pairs (12,870 for eight); the local search
(rules.seating.search) seats them, as it does wider spreads.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

MAX_TABLE_SIZE = 4  # up to here the programme is fast: C(2k, k) states per table, 70 for four
_CLOCK_TABLES = 16  # tables between two reads of the clock

Cost = tuple[int, int]  # (repeat weight, tables moved)
# One way to fill a table: the state before (its index), the state after, the window players seated (bits
# 0..k-1 the rank table above, k..2k-1 its own, 2k..3k-1 the one below), the tables moved it adds.
Way = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Banded:
    """What the programme found: the best tables, or, stopped by the clock, the best tables that close after
    the tables it reached (the rank tables after them) and a floor under any round's repeat weight."""

    tables: list[list[int]]
    cost: Cost  # of ``tables``
    complete: bool  # the programme reached the last table: ``tables`` are the best
    floor: int  # no tables of these players within one table repeat less weight (the cost's when complete)


def banded_tables(*, weights: Sequence[dict[int, int]], table_size: int, deadline: float | None = None) -> Banded:
    """The best tables of players 0..n-1 in rank order (rank table of i: i // table_size), each player at most
    one table from his rank table, and their cost (repeat weight, tables moved); if the clock passes
    ``deadline`` (``time.perf_counter()``) first, the best tables as far as it got and the rank tables after."""
    size = table_size
    count = len(weights) // size
    states, ways = _ways(size)
    last_ways = [w for w in ways if w[1] == 0 and not w[2] >> 2 * size]  # the last table: nobody below
    scale = len(weights) + 1  # a repeat outweighs any number of tables moved (at most one per player)
    unreached = scale * (sum(sum(met.values()) for met in weights) + 1)  # above any cost reached
    cost = [unreached] * len(states)
    cost[0] = 0  # the empty state: nobody left above, nobody gone up
    back: list[list[int]] = []  # per table, per state after it: the way that reached it best
    for t in range(count):
        if deadline is not None and t % _CLOCK_TABLES == 0 and time.perf_counter() > deadline:
            # Close the tables reached with nobody crossing to the next (always possible), then the rank
            # tables; whatever the tables reached repeat at least, every round repeats.
            tables = _walk_back(back, size, ways) + [list(range(u * size, (u + 1) * size)) for u in range(t, count)]
            return Banded(tables, _cost(tables, weights, size), complete=False, floor=min(cost) // scale)
        pairs = _window_pairs(weights, (t - 1) * size, size)
        layer_ways = ways if t + 1 < count else last_ways
        reached = [unreached] * len(states)
        came = [-1] * len(states)
        for number, (before, after, seated, moves) in enumerate(layer_ways):
            step = cost[before]
            if step == unreached:
                continue
            step += moves
            for both, weight in pairs:
                if seated & both == both:
                    step += scale * weight
            if step < reached[after]:
                reached[after], came[after] = step, number
        back.append(came)
        cost = reached
    best = divmod(cost[0], scale)
    return Banded(_walk_back(back, size, ways, last_ways), best, complete=True, floor=best[0])


@cache
def _ways(size: int) -> tuple[list[tuple[int, int]], list[Way]]:
    """The states (left above, gone up: bit masks over a rank table, as many of each) and every way to fill a
    table from each, the empty state first."""
    full = (1 << size) - 1
    states = sorted(
        ((left, up) for left in range(full + 1) for up in range(full + 1) if left.bit_count() == up.bit_count()),
        key=lambda s: (s[0].bit_count(), s),
    )
    index = {state: i for i, state in enumerate(states)}
    ways: list[Way] = []
    for left, up in states:
        free = [bit for bit in range(size) if not up >> bit & 1]
        for own in range(len(free) + 1):
            rising_count = size - left.bit_count() - own
            if rising_count < 0 or rising_count > size:
                continue
            for mine in itertools.combinations(free, own):
                stay = sum(1 << bit for bit in free if bit not in mine)
                if stay.bit_count() != rising_count:
                    continue  # the players of this rank table not seated here must fit below
                for rising in itertools.combinations(range(size), rising_count):
                    rise = sum(1 << bit for bit in rising)
                    seated = left | sum(1 << size + bit for bit in mine) | rise << 2 * size
                    ways.append((index[(left, up)], index[(stay, rise)], seated, left.bit_count() + rising_count))
    return states, ways


def _window_pairs(weights: Sequence[dict[int, int]], start: int, size: int) -> list[tuple[int, int]]:
    """The pairs of the window starting at player ``start`` that met, as (both players' bits, repeat weight):
    mostly none or one or two, so a way's repeat weight is a couple of mask tests."""
    end = min(len(weights), start + 3 * size)
    return [
        (1 << a - start | 1 << b - start, weight)
        for a in range(max(0, start), end)
        for b, weight in weights[a].items()
        if a < b < end
    ]


def _walk_back(
    back: list[list[int]], size: int, ways: list[Way], last_ways: list[Way] | None = None
) -> list[list[int]]:
    """The tables of the best way to the empty state after the last table in ``back`` (filled by
    ``last_ways`` when given)."""
    tables: list[list[int]] = []
    state = 0
    for t in range(len(back) - 1, -1, -1):
        layer = last_ways if last_ways is not None and t == len(back) - 1 else ways
        before, _after, seated, _moves = layer[back[t][state]]
        start = (t - 1) * size
        tables.append([start + bit for bit in range(3 * size) if seated >> bit & 1])
        state = before
    return tables[::-1]


def _cost(tables: list[list[int]], weights: Sequence[dict[int, int]], size: int) -> Cost:
    repeat = sum(weights[a].get(b, 0) for table in tables for i, a in enumerate(table) for b in table[i + 1 :])
    return repeat, sum(abs(t - p // size) for t, table in enumerate(tables) for p in table)
