"""The seat order of a table: which player sits East, South, … so that the seat winds even out.

The cost of a seat for a player is his wind imbalance (most-sat minus
least-sat seat count) once he has sat it, then how often he already sat it.
The cost is a sum over players, so the best order of a table is an
assignment problem, solved exactly by a dynamic programme over the subsets of
seats (2ⁿ·n steps, 2,048 for eight players): the optimum that trying all n!
orders would give, for every table size.
"""

from __future__ import annotations

import random

WIND_SCALE = 1 << 20  # one step of wind imbalance outweighs any sum of seat counts


def seat_order(group: list[int], counts: dict[int, list[int]], rng: random.Random) -> list[int]:
    """The players of a table in seat order, each seat going where it evens out the winds best."""
    members = list(group)
    rng.shuffle(members)  # equally good seat orders are drawn at random
    seats = [0] * len(members)
    for player, seat in zip(members, assign([seat_cost_row(counts[p]) for p in members])[1], strict=True):
        seats[seat] = player
    return seats


def round_winds(groups: list[list[int]], counts: dict[int, list[int]]) -> tuple[int, dict[int, list[int]]]:
    """Seat cost of a round with every table in its best order, and the seat counts after it."""
    total = 0
    after = {p: list(row) for p, row in counts.items()}
    for group in groups:
        cost, seats = assign([seat_cost_row(counts[p]) for p in group])
        total += cost
        for player, seat in zip(group, seats, strict=True):
            after[player][seat] += 1
    return total, after


def seat_cost_row(counts: list[int]) -> list[int]:
    """A player's cost of each seat, from how often he sat each (``counts``)."""
    row = []
    for seat, count in enumerate(counts):
        after = [*counts[:seat], count + 1, *counts[seat + 1 :]]
        row.append((max(after) - min(after)) * WIND_SCALE + count)
    return row


def assign(costs: list[list[int]]) -> tuple[int, list[int]]:
    """Cheapest seat for each player, all seats different: DP over the subsets of seats filled so far."""
    n = len(costs)
    full = 1 << n
    best = [-1] * full
    choice = [0] * full
    best[0] = 0
    for mask in range(full - 1):
        base = best[mask]
        if base < 0:
            continue
        row = costs[mask.bit_count()]
        for seat in range(n):
            bit = 1 << seat
            if not mask & bit:
                total = base + row[seat]
                nxt = mask | bit
                if best[nxt] < 0 or total < best[nxt]:
                    best[nxt] = total
                    choice[nxt] = seat
    seats = [0] * n
    mask = full - 1
    for player in range(n - 1, -1, -1):
        seats[player] = choice[mask]
        mask &= ~(1 << choice[mask])
    return best[full - 1], seats
