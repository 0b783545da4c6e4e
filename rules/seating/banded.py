"""Swiss tables within one table of the rank table, exactly: a dynamic programme over the tables in rank order.

With a spread of one, a player whose rank gives him table t sits at t-1, t or
t+1. Fill the tables from the top: when table t is filled, the players of
rank table t-1 not yet seated must sit there, some of rank table t have
already gone up to t-1, and any of rank table t+1 may come up. What the
tables after t need to know of the tables before is only those two sets
(the ones still to seat, the ones gone up), which have the same size; so the
best tables for every such pair, table after table, give the best round
(fewest repeats first, weighing a pair that met k times k², then fewest
tables moved). For tables of four there are 70 such pairs and at most 70
ways to fill a table from each: a round of 256 players is about 0.2 s
(benchmarks/seating.py), and the answer is proven optimal.

Larger tables have too many pairs (12,870 for eight); the local search
(rules.seating.search) seats them, as it does wider spreads.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence

MAX_TABLE_SIZE = 4  # up to here the programme is fast: C(2k, k) states per table, 70 for four

Cost = tuple[int, int]  # (repeat weight, tables moved)
# State between two tables: the players of the rank table above still to seat, and those of the rank table
# below already gone up.
State = tuple[frozenset[int], frozenset[int]]


def banded_tables(*, weights: Sequence[dict[int, int]], table_size: int,
                  deadline: float | None = None) -> tuple[list[list[int]], Cost] | None:
    """The best tables of players 0..n-1 in rank order (rank table of i: i // table_size), each player at most
    one table from his rank table, and their cost (repeat weight, tables moved); None if the clock passes
    ``deadline`` (``time.perf_counter()``) first."""
    count = len(weights) // table_size
    homes = [list(range(t * table_size, (t + 1) * table_size)) for t in range(count)]
    layers: list[dict[State, tuple[Cost, State, tuple[int, ...]]]] = []
    frontier: dict[State, Cost] = {(frozenset(), frozenset()): (0, 0)}
    for t in range(count):
        if deadline is not None and time.perf_counter() > deadline:
            return None
        below = homes[t + 1] if t + 1 < count else []
        reached: dict[State, tuple[Cost, State, tuple[int, ...]]] = {}
        for state, cost in frontier.items():
            for table, after in _fillings(state, homes[t], below, table_size):
                step = (cost[0] + _repeat_weight(table, weights), cost[1] + len(state[0]) + len(after[1]))
                known = reached.get(after)
                if known is None or step < known[0]:
                    reached[after] = (step, state, table)
        layers.append(reached)
        frontier = {state: entry[0] for state, entry in reached.items()}
    return _walk_back(layers), layers[-1][(frozenset(), frozenset())][0]


def _fillings(state: State, home: list[int], below: list[int],
              size: int) -> list[tuple[tuple[int, ...], State]]:
    """Every way to fill the table: the players left above, some of its own rank table, some from below."""
    left, gone_up = state
    free = [p for p in home if p not in gone_up]
    out = []
    for own in range(len(free) + 1):
        up = size - len(left) - own
        if up < 0 or up > len(below):
            continue
        for mine in itertools.combinations(free, own):
            stay = frozenset(free) - set(mine)
            if len(stay) != up:
                continue  # the players of this rank table not seated here must fit below
            for rising in itertools.combinations(below, up):
                out.append(((*left, *mine, *rising), (stay, frozenset(rising))))
    return out


def _repeat_weight(table: tuple[int, ...], weights: Sequence[dict[int, int]]) -> int:
    total = 0
    for i, a in enumerate(table):
        met = weights[a]
        if met:
            for b in table[i + 1:]:
                total += met.get(b, 0)
    return total


def _walk_back(layers: list[dict[State, tuple[Cost, State, tuple[int, ...]]]]) -> list[list[int]]:
    tables: list[list[int]] = []
    state: State = (frozenset(), frozenset())
    for layer in reversed(layers):
        _cost, state, table = layer[state]
        tables.append(sorted(table))
    return tables[::-1]
