"""The next round: byes, then who sits together, then each table's seat order.

Swiss rule: ``standings`` fill the tables in order (1st to 4th at table 1, …)
and a player may move at most ``spread`` tables from the one his rank gives
him (``SWISS_SPREAD`` by default, 0 for strict pairing by rank, None for
anywhere), so repeats are avoided within that band and table 1 stays the top
table. Within one table (the default) and for tables of up to four, the
tables are found exactly (rules.seating.banded) and the round says it is
optimal; a wider spread starts the local search (rules.seating.search) from
those tables, and other seatings start it from the rank or random tables; the
search says a round is optimal only when it reaches its lower bound. Seat
winds come last.

Time: a round may take ``time_limit`` seconds, by default ``time_limit_for``
its field; the best tables found by then are kept. A round not proven
optimal says at most how many of its repeats a seating could avoid
(``Seating.avoidable``): the repeats less those every seating must have as
far as the exact programme of a spread of one got (none for other seatings).

Byes: when the players do not fill the tables, those with the fewest byes so
far (``bye_counts``) sit out, ties drawn at random (swiss: the lowest in the
standings first); without byes, ``Refusal`` asks for substitutes.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from rules.errors import Refusal
from rules.seating.affine import affine_check, field_of, plane_classes, scheme_round
from rules.seating.banded import MAX_TABLE_SIZE as BANDED_TABLE_SIZE
from rules.seating.banded import banded_tables
from rules.seating.history import History, Placement, Seating, Table, check_table_size, meetings, wind_counts
from rules.seating.search import SWISS_SPREAD, Search
from rules.seating.seat_order import seat_cost_row, seat_order

# The seconds a round may take, by its field (``time_limit_for``). Measured with benchmarks/seating.py on a
# loaded two-core machine, a swiss round at a spread of one takes about 1 ms a player, all told (the exact
# programme a quarter of it): 2,000 players 1.8 s, 4,000 4.3 s. The limit leaves twice that or more, for a
# busier machine, and stops at 8 s so that the page which seats a round, history loaded and tables drawn,
# still answers within a web request's ten seconds.
TIME_LIMIT_BASE = 1.0
TIME_LIMIT_PER_PLAYER = 0.002
TIME_LIMIT_MAX = 8.0
# Stopped by the clock, the programme leaves this share of the time to the search, which goes on from its
# tables: enough to take the repeats left in the rank tables it did not reach.
_SEARCH_SHARE = 0.2


def time_limit_for(players: int) -> float:
    """The seconds seating ``players`` may take before the best tables found so far are kept."""
    return min(TIME_LIMIT_MAX, TIME_LIMIT_BASE + TIME_LIMIT_PER_PLAYER * max(0, players))


def random_seating(
    *,
    players: Sequence[int],
    table_size: int,
    history: History = (),
    seed: int | None = None,
    time_limit: float | None = None,
    byes: bool = True,
    bye_counts: Mapping[int, int] | None = None,
) -> Seating:
    """Random tables for the next round, avoiding pairs that already met, within ``time_limit`` seconds
    (default: ``time_limit_for`` the field).

    Raises Refusal (field ``players`` or ``table_size``) for duplicate ids,
    fewer players than one table, a table size outside 2..8, or players that
    do not fill the tables when ``byes`` is false.
    """
    return _seating(
        players,
        table_size=table_size,
        history=history,
        seed=seed,
        time_limit=time_limit,
        byes=byes,
        bye_counts=bye_counts,
        swiss=False,
    )


def swiss_seating(
    *,
    standings: Sequence[int],
    table_size: int,
    history: History = (),
    seed: int | None = None,
    time_limit: float | None = None,
    byes: bool = True,
    bye_counts: Mapping[int, int] | None = None,
    spread: int | None = SWISS_SPREAD,
) -> Seating:
    """Swiss tables for the next round: ``standings`` (best first) fill the tables in order.

    Players then move at most ``spread`` tables (None: any number) to avoid
    repeats; table 1 is the top table. Errors as for ``random_seating``
    (field ``players``), and ``spread`` below 0 (field ``spread``).
    """
    if spread is not None and spread < 0:
        raise Refusal.one("spread", "must be 0 (strict pairing by rank) or more, or any")
    return _seating(
        standings,
        table_size=table_size,
        history=history,
        seed=seed,
        time_limit=time_limit,
        byes=byes,
        bye_counts=bye_counts,
        swiss=True,
        spread=spread,
    )


def _seating(
    order: Sequence[int],
    *,
    table_size: int,
    history: History,
    seed: int | None,
    time_limit: float | None,
    byes: bool,
    bye_counts: Mapping[int, int] | None,
    swiss: bool,
    spread: int | None = None,
) -> Seating:
    """Both seatings: byes first, then the search; random tables start shuffled, swiss ones in rank order."""
    _check(order, table_size, byes=byes)
    rng = random.Random(seed)
    limit = time_limit_for(len(order)) if time_limit is None else time_limit
    deadline = time.perf_counter() + max(0.0, limit)
    everyone = list(order)
    out = _choose_byes(everyone, len(everyone) % table_size, bye_counts or {}, rng, swiss=swiss)
    seated = [p for p in everyone if p not in out]
    if not swiss:
        rng.shuffle(seated)
    return _seat(
        seated=seated,
        everyone=everyone,
        byes=out,
        table_size=table_size,
        history=history,
        rng=rng,
        deadline=deadline,
        swiss=swiss,
        spread=spread,
    )


# --- input --------------------------------------------------------------------------------------------------------


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _check(players: Sequence[int], table_size: int, *, byes: bool) -> None:
    check_table_size(table_size)
    twice = sorted(p for p, count in Counter(players).items() if count > 1)
    if twice:
        ids = ", ".join(map(str, twice))
        raise Refusal.one("players", f"{'player' if len(twice) == 1 else 'players'} {ids} listed more than once")
    count = len(players)
    if count < table_size:
        raise Refusal.one("players", f"{_plural(count, 'player')} cannot fill a table of {table_size}")
    short = -count % table_size
    if short and not byes:
        raise Refusal.one(
            "players",
            f"{count} players do not fill tables of {table_size}: add {_plural(short, 'substitute')} or allow byes",
        )


def _choose_byes(
    order: list[int], count: int, bye_counts: Mapping[int, int], rng: random.Random, *, swiss: bool
) -> set[int]:
    if count == 0:
        return set()
    if swiss:
        ranked = sorted(range(len(order)), key=lambda i: (bye_counts.get(order[i], 0), -i))
        return {order[i] for i in ranked[:count]}
    shuffled = list(order)
    rng.shuffle(shuffled)
    # sorted() is stable, so equal bye counts stay in their random order.
    return set(sorted(shuffled, key=lambda p: bye_counts.get(p, 0))[:count])


# --- one round ------------------------------------------------------------------------------------------------------


def _seat(
    *,
    seated: list[int],
    everyone: list[int],
    byes: set[int],
    table_size: int,
    history: History,
    rng: random.Random,
    deadline: float,
    swiss: bool,
    spread: int | None,
) -> Seating:
    """The seated players' tables: a plane round where the history keeps to a plane, else the search's."""
    index = {p: i for i, p in enumerate(seated)}
    weights = _repeat_weights(index, history)
    counts = wind_counts(history=history, players=seated, table_size=table_size)
    found = _groups(
        seated,
        weights,
        counts,
        table_size=table_size,
        history=history,
        rng=rng,
        deadline=deadline,
        swiss=swiss,
        spread=spread,
    )
    ordered = found.groups if found.in_seat_order else [seat_order(group, counts, rng) for group in found.groups]
    tables = tuple(Table(number=number, seats=tuple(seats)) for number, seats in enumerate(ordered, start=1))
    placements = _placements(tables, index, weights, table_size=table_size, swiss=swiss)
    repeats = sum(len(place.met) for place in placements) // 2
    after = wind_counts(history=[*history, [t.seats for t in tables]], players=everyone, table_size=table_size)
    imbalance = sum(max(row) - min(row) for row in after.values())
    return Seating(
        tables=tables,
        byes=tuple(sorted(byes)),
        repeats=repeats,
        wind_imbalance=imbalance,
        optimal=found.optimal,
        placements=placements,
        avoidable=0 if found.optimal else _avoidable(repeats, found.floor, weights),
    )


def _placements(
    tables: tuple[Table, ...], index: dict[int, int], weights: list[dict[int, int]], *, table_size: int, swiss: bool
) -> tuple[Placement, ...]:
    """Each seated player's table, the rank table swiss seating meant for them, and whom they meet again."""
    return tuple(
        Placement(
            player=p,
            table=t.number,
            rank_table=index[p] // table_size + 1 if swiss else None,
            met=tuple(q for q in t.seats if q != p and index[q] in weights[index[p]]),
        )
        for t in tables
        for p in t.seats
    )


def _avoidable(repeats: int, floor: int, weights: list[dict[int, int]]) -> int:
    """At most how many of ``repeats`` pairs a seating could avoid, given that every seating repeats at least
    ``floor`` weight: each repeated pair weighs at most the heaviest weight, so that many pairs must repeat."""
    heaviest = max((weight for met in weights for weight in met.values()), default=1)
    return max(0, repeats - -(-floor // heaviest))


class _Found(NamedTuple):
    groups: list[list[int]]
    optimal: bool  # no grouping has fewer repeats (or, swiss, fewer tables moved)
    in_seat_order: bool  # the tables are already in seat order (a plane round seats its players too)
    floor: int = 0  # every grouping repeats at least this weight


def _groups(
    seated: list[int],
    weights: list[dict[int, int]],
    counts: dict[int, list[int]],
    *,
    table_size: int,
    history: History,
    rng: random.Random,
    deadline: float,
    swiss: bool,
    spread: int | None,
) -> _Found:
    """Who sits together, whether that is proven the best, and what no grouping can do better than."""
    field = None if swiss else field_of(table_size)
    classes = plane_classes(seated, table_size, history) if field else None
    planned = scheme_round(classes, field, rng) if field and classes else None
    if planned is not None:
        return _Found(planned[0], planned[1], planned[1])  # a plane round: no pair meets twice, every seat turned
    if swiss and spread == 0:
        # Strict pairing by rank leaves nothing to choose: the rank tables are the only seating.
        return _Found([seated[i : i + table_size] for i in range(0, len(seated), table_size)], True, False)
    search = Search(
        weights=weights,
        seat_costs=[seat_cost_row(counts[p]) for p in seated],
        table_size=table_size,
        swiss=swiss,
        rng=rng,
        deadline=deadline,
        spread=spread,
    )
    floor = 0
    if swiss and table_size <= BANDED_TABLE_SIZE:
        # The best tables within one table are the search's start for a wider spread too: from the rank tables
        # it moved more players at large fields in more time (benchmarks/seating.py).
        share = _SEARCH_SHARE * max(0.0, deadline - time.perf_counter())
        banded = banded_tables(weights=weights, table_size=table_size, deadline=deadline - share)
        if spread == 1 and banded.complete:
            search.seat_winds(banded.tables)
        else:
            search.resume(banded.tables)  # the tables it reached are the best; the search takes the rest
        floor = banded.floor if spread == 1 else 0  # a wider spread may repeat less than one table allows
    else:
        search.run()
    groups = [[seated[i] for i in table] for table in search.tables]
    if field and classes:
        groups = affine_check(groups, classes, field, counts, rng)
    return _Found(groups, search.optimal, False, floor)


def _repeat_weights(index: dict[int, int], history: History) -> list[dict[int, int]]:
    """For each seated player (by index), the weight of sitting with each one he met: k² for k meetings."""
    weights: list[dict[int, int]] = [{} for _ in index]
    for (a, b), k in meetings(history).items():
        if a in index and b in index:
            weights[index[a]][index[b]] = weights[index[b]][index[a]] = k * k
    return weights
