"""Tables, seatings, and what the earlier rounds tell: the pairs that met, the seats each player sat.

``history`` holds the earlier rounds (rounds → tables → player ids in seat
order, East first).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rules.errors import Refusal
from rules.parameters import MAX_PLAYERS, MIN_PLAYERS

History = Sequence[Sequence[Sequence[int]]]

TABLE_SIZES = range(MIN_PLAYERS, MAX_PLAYERS + 1)  # the table sizes a ruleset has


@dataclass(frozen=True, slots=True)
class Table:
    number: int  # 1-based
    seats: tuple[int, ...]  # player ids in seat-wind order: East, South, West, North, ...


@dataclass(frozen=True, slots=True)
class Placement:
    """Where one player sits, and why it may not be where the standings put him: what a preview shows."""

    player: int
    table: int  # 1-based
    rank_table: int | None  # swiss: the table his place in the standings gives him; None for random tables
    met: tuple[int, ...]  # the players at his table he has met before

    @property
    def moved(self) -> int:
        """Tables from his rank table: up (negative) toward table 1, down (positive) away from it."""
        return 0 if self.rank_table is None else self.table - self.rank_table


@dataclass(frozen=True, slots=True)
class Seating:
    tables: tuple[Table, ...]
    byes: tuple[int, ...]  # players left out this round
    repeats: int  # pairs seated together this round that had already met
    wind_imbalance: int  # sum over players of most-sat minus least-sat seat count, this round included
    # No seating of these players can have fewer repeats or (swiss) fewer tables moved: the search reached
    # its lower bound. False says only that the deadline or a stall ended the search first.
    optimal: bool = False
    placements: tuple[Placement, ...] = ()
    # Not optimal: at most this many of the repeats could any seating (within the spread) avoid, the repeats
    # less those every seating must have as far as the search could tell; an upper bound, 0 when optimal.
    avoidable: int = 0


def check_table_size(table_size: int) -> None:
    """Refusal (field ``table_size``) for a table no ruleset has."""
    if table_size not in TABLE_SIZES:
        raise Refusal.one("table_size", f"must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {table_size}")


def count_repeats(*, history: History) -> int:
    """Meetings beyond the first, over all pairs: a pair that met three times counts 2.

    ``count_repeats(history=[*h, r]) - count_repeats(history=h)`` is the
    ``repeats`` of round ``r``.
    """
    return sum(k - 1 for k in meetings(history).values() if k > 1)


def wind_counts(*, history: History, players: Sequence[int], table_size: int | None = None) -> dict[int, list[int]]:
    """How often each player sat each seat (0 = East), over ``table_size`` seats (default: the largest table)."""
    size = table_size if table_size is not None else max((len(t) for r in history for t in r), default=0)
    counts = {p: [0] * size for p in players}
    for round_ in history:
        for table in round_:
            for seat, player in enumerate(table):
                row = counts.get(player)
                if row is not None and seat < size:
                    row[seat] += 1
    return counts


def meetings(history: History) -> Counter[tuple[int, int]]:
    """How often each pair of players (the lower id first) sat at one table."""
    met: Counter[tuple[int, int]] = Counter()
    for round_ in history:
        for table in round_:
            # A player written twice at one table does not meet himself.
            seats = sorted(set(table))
            met.update(itertools.combinations(seats, 2))
    return met
