"""The next round: byes, then who sits together, then each table's seat order.

Swiss rule: ``standings`` fill the tables in order (1st to 4th at table 1, …)
and a player may move at most ``spread`` tables from the one his rank gives
him (``SWISS_SPREAD`` by default, 0 for strict pairing by rank, None for
anywhere), so repeats are avoided within that band and table 1 stays the top
table. Within one table (the default) and for tables of up to four, the
tables are found exactly (rules.seating.banded) and the round says it is
optimal; otherwise the local search (rules.seating.search) seats them and
says so only when it reaches its lower bound. Seat winds come last.

Byes: when the players do not fill the tables, those with the fewest byes so
far (``bye_counts``) sit out, ties drawn at random (swiss: the lowest in the
standings first); without byes, ``Refusal`` asks for substitutes.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence

from rules.errors import Refusal
from rules.seating.affine import affine_check, field_of, plane_classes, scheme_round
from rules.seating.banded import MAX_TABLE_SIZE as BANDED_TABLE_SIZE
from rules.seating.banded import banded_tables
from rules.seating.history import History, Placement, Seating, Table, check_table_size, meetings, wind_counts
from rules.seating.search import SWISS_SPREAD, Search
from rules.seating.seat_order import seat_cost_row, seat_order


def random_seating(*, players: Sequence[int], table_size: int, history: History = (), seed: int | None = None,
                   time_limit: float = 1.0, byes: bool = True, bye_counts: Mapping[int, int] | None = None) -> Seating:
    """Random tables for the next round, avoiding pairs that already met.

    Raises Refusal (field ``players`` or ``table_size``) for duplicate ids,
    fewer players than one table, a table size outside 2..8, or players that
    do not fill the tables when ``byes`` is false.
    """
    return _seating(players, table_size=table_size, history=history, seed=seed, time_limit=time_limit, byes=byes,
                    bye_counts=bye_counts, swiss=False)


def swiss_seating(*, standings: Sequence[int], table_size: int, history: History = (), seed: int | None = None,
                  time_limit: float = 1.0, byes: bool = True, bye_counts: Mapping[int, int] | None = None,
                  spread: int | None = SWISS_SPREAD) -> Seating:
    """Swiss tables for the next round: ``standings`` (best first) fill the tables in order.

    Players then move at most ``spread`` tables (None: any number) to avoid
    repeats; table 1 is the top table. Errors as for ``random_seating``
    (field ``players``), and ``spread`` below 0 (field ``spread``).
    """
    if spread is not None and spread < 0:
        raise Refusal.one("spread", "must be 0 (strict pairing by rank) or more, or any")
    return _seating(standings, table_size=table_size, history=history, seed=seed, time_limit=time_limit,
                    byes=byes, bye_counts=bye_counts, swiss=True, spread=spread)


def _seating(order: Sequence[int], *, table_size: int, history: History, seed: int | None, time_limit: float,
             byes: bool, bye_counts: Mapping[int, int] | None, swiss: bool, spread: int | None = None) -> Seating:
    """Both seatings: byes first, then the search; random tables start shuffled, swiss ones in rank order."""
    _check(order, table_size, byes=byes)
    rng = random.Random(seed)
    deadline = time.perf_counter() + max(0.0, time_limit)
    everyone = list(order)
    out = _choose_byes(everyone, len(everyone) % table_size, bye_counts or {}, rng, swiss=swiss)
    seated = [p for p in everyone if p not in out]
    if not swiss:
        rng.shuffle(seated)
    return _seat(seated=seated, everyone=everyone, byes=out, table_size=table_size, history=history, rng=rng,
                 deadline=deadline, swiss=swiss, spread=spread)


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
        raise Refusal.one("players", f"{count} players do not fill tables of {table_size}: "
                                       f"add {_plural(short, 'substitute')} or allow byes")


def _choose_byes(order: list[int], count: int, bye_counts: Mapping[int, int], rng: random.Random, *,
                 swiss: bool) -> set[int]:
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


def _seat(*, seated: list[int], everyone: list[int], byes: set[int], table_size: int, history: History,
          rng: random.Random, deadline: float, swiss: bool, spread: int | None) -> Seating:
    """The seated players' tables: a plane round where the history keeps to a plane, else the search's."""
    index = {p: i for i, p in enumerate(seated)}
    weights = _repeat_weights(index, history)
    counts = wind_counts(history=history, players=seated, table_size=table_size)
    groups, optimal, in_seat_order = _groups(seated, weights, counts, table_size=table_size, history=history,
                                             rng=rng, deadline=deadline, swiss=swiss, spread=spread)
    ordered = groups if in_seat_order else [seat_order(group, counts, rng) for group in groups]
    tables = tuple(Table(number=number, seats=tuple(seats)) for number, seats in enumerate(ordered, start=1))
    placements = tuple(
        Placement(player=p, table=t.number, rank_table=index[p] // table_size + 1 if swiss else None,
                  met=tuple(q for q in t.seats if q != p and index[q] in weights[index[p]]))
        for t in tables for p in t.seats)
    repeats = sum(len(place.met) for place in placements) // 2
    after = wind_counts(history=[*history, [t.seats for t in tables]], players=everyone, table_size=table_size)
    imbalance = sum(max(row) - min(row) for row in after.values())
    return Seating(tables=tables, byes=tuple(sorted(byes)), repeats=repeats, wind_imbalance=imbalance,
                   optimal=optimal, placements=placements)


def _groups(seated: list[int], weights: list[dict[int, int]], counts: dict[int, list[int]], *, table_size: int,
            history: History, rng: random.Random, deadline: float, swiss: bool,
            spread: int | None) -> tuple[list[list[int]], bool, bool]:
    """Who sits together; whether no grouping can have fewer repeats (or, swiss, fewer tables moved); whether
    the tables are already in seat order (a plane round seats its players too)."""
    field = None if swiss else field_of(table_size)
    classes = plane_classes(seated, table_size, history) if field else None
    planned = scheme_round(classes, field, rng) if field and classes else None
    if planned is not None and planned[1]:
        return planned[0], True, True  # a plane round: no pair meets twice, every seat turned
    if planned is not None:
        return planned[0], False, False
    if swiss and spread == 0:
        # Strict pairing by rank leaves nothing to choose: the rank tables are the only seating.
        return [seated[i:i + table_size] for i in range(0, len(seated), table_size)], True, False
    search = Search(weights=weights, seat_costs=[seat_cost_row(counts[p]) for p in seated],
                    table_size=table_size, swiss=swiss, rng=rng, deadline=deadline, spread=spread)
    banded = (banded_tables(weights=weights, table_size=table_size, deadline=deadline)
              if swiss and spread == 1 and table_size <= BANDED_TABLE_SIZE else None)
    if banded is not None:
        search.seat_winds(banded[0])
    else:
        search.run()  # also what a programme the clock stopped leaves: the rank tables, as far as time allows
    groups = [[seated[i] for i in table] for table in search.tables]
    if field and classes:
        groups = affine_check(groups, classes, field, counts, rng)
    return groups, search.optimal, False


def _repeat_weights(index: dict[int, int], history: History) -> list[dict[int, int]]:
    """For each seated player (by index), the weight of sitting with each one he met: k² for k meetings."""
    weights: list[dict[int, int]] = [{} for _ in index]
    for (a, b), k in meetings(history).items():
        if a in index and b in index:
            weights[index[a]][index[b]] = weights[index[b]][index[a]] = k * k
    return weights
