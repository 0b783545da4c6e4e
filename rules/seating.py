"""Seating for the next round of a tournament: who plays whom, and from which seat.

Organisers seat one round at a time. ``history`` holds the earlier rounds
(rounds → tables → player ids in seat order, East first); from it come the
pairs that have already met and how often each player sat each seat. Nothing
is kept between calls.

Who sits together is a local search over one round. Its objective is
lexicographic: first the repeated pairs, a pair that already met k times
weighing k² (so a third meeting is avoided before a second); then, for swiss,
how far players moved from their swiss table; last the seat-wind cost of the
tables (below). It starts from random tables (or the swiss tables) and swaps
two players of different tables, in two phases:

1. conflicts: a player in a repeated pair (or, for swiss, away from his table)
   swaps with the partner that helps most, even when every swap hurts; a short
   tabu on the players just swapped keeps it from undoing its last steps
   (min-conflicts with tabu, as for social-golfer schedules). When it stalls it
   starts again from the best tables, shaken by a few random swaps;
2. winds: random swaps that keep the first objectives, kept when they do not
   make the tables' seat winds worse.

Each phase stops at its lower bound (no repeat, nobody moved, every player on
his best seat), when it stalls (the first phase restarts up to ``_RESTARTS``
times while repeats remain), after ``MAX_STEPS`` steps or at ``time_limit``,
whichever comes first, and the best tables found are kept.
With a seed the result is reproducible whenever the search ends before the
time limit, which it does for every size the tests and the benchmark use.

Swiss rule: ``standings`` fill the tables in order (1st to 4th at table 1, …)
and a player may only move to a table next to the one his rank gives him
(``SWISS_WINDOW``), so repeats are avoided within a band of three tables and
table 1 stays the top table. Seat winds are then balanced by seat order only.

Seat order: the cost of a seat for a player is his wind imbalance (most-sat
minus least-sat seat count) once he has sat it, then how often he already sat
it. The cost is a sum over players, so the best order of a table is an
assignment problem, solved exactly by a dynamic programme over the subsets of
seats (2ⁿ·n steps, 2,048 for eight players): the optimum that trying all n!
orders would give, for every table size.

q² players at tables of q, q a prime power (4, 9, 16, 25, 49, 64 players):
a local search cannot look ahead, and here the later rounds are nearly forced
(for 16 players, a round 3 shaped like the cyclic Latin square of order 4
leaves no repeat-free round 4). These fields are seated by the affine plane
AG(2, q) instead: a player's table in round 1 is his x, his seat there his y;
each later round takes the lines of a new slope m ≠ 0 (y − m·x constant) and
seats each player in seat y + c for a new shift c ≠ 0. In q rounds everyone
meets everyone but the q − 1 players who shared his round-1 seat and sits
every seat once; round q + 1 (the lines y = const) completes the plane. A
history from elsewhere is kept to a plane too if it still fits one: it is
coordinatised over GF(q), and a round found by the search that leaves no
plane is replaced by the plane round with the best seat winds over it and
the round after.

Byes: when the players do not fill the tables, those with the fewest byes so
far (``bye_counts``) sit out, ties drawn at random (swiss: the lowest in the
standings first); without byes, ``RuleError`` asks for substitutes.

``schedule_from_csv`` reads a predefined schedule instead.
"""

from __future__ import annotations

import csv
import io
import itertools
import random
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from rules.errors import Problem, RuleError
from rules.ruleset import SEAT_WINDS, WINDS

History = Sequence[Sequence[Sequence[int]]]

TABLE_SIZES = range(2, 9)
SWISS_WINDOW = 1  # tables a swiss player may move away from the table his rank gives him
MAX_STEPS = 200_000  # per search phase: the search ends even with an unbounded time limit
AFFINE_CANDIDATES = 64  # plane rounds compared for their seat winds
AFFINE_LOOK_AHEAD = 8  # next plane rounds tried after each of them
_WIND_SCALE = 1 << 20  # one step of wind imbalance outweighs any sum of seat counts
_TABU = (4, 12)  # tenure range, in steps, of a player just swapped in
_RESTARTS = 8  # fresh starts from the best tables once the search stalls
_TIME_CHECK = 16  # steps between two reads of the clock


@dataclass(frozen=True, slots=True)
class Table:
    number: int  # 1-based
    seats: tuple[int, ...]  # player ids in seat-wind order: East, South, West, North, ...


@dataclass(frozen=True, slots=True)
class Seating:
    tables: tuple[Table, ...]
    byes: tuple[int, ...]  # players left out this round
    repeats: int  # pairs seated together this round that had already met
    wind_imbalance: int  # sum over players of most-sat minus least-sat seat count, this round included


# --- public API -----------------------------------------------------------------------------------------------------


def random_seating(*, players: Sequence[int], table_size: int, history: History = (), seed: int | None = None,
                   time_limit: float = 1.0, byes: bool = True, bye_counts: Mapping[int, int] | None = None) -> Seating:
    """Random tables for the next round, avoiding pairs that already met.

    Raises RuleError (field ``players`` or ``table_size``) for duplicate ids,
    fewer players than one table, a table size outside 2..8, or players that
    do not fill the tables when ``byes`` is false.
    """
    return _seating(players, table_size=table_size, history=history, seed=seed, time_limit=time_limit, byes=byes,
                    bye_counts=bye_counts, swiss=False)


def swiss_seating(*, standings: Sequence[int], table_size: int, history: History = (), seed: int | None = None,
                  time_limit: float = 1.0, byes: bool = True, bye_counts: Mapping[int, int] | None = None) -> Seating:
    """Swiss tables for the next round: ``standings`` (best first) fill the tables in order.

    Players then move at most ``SWISS_WINDOW`` tables to avoid repeats; table 1
    is the top table. Errors as for ``random_seating`` (field ``players``).
    """
    return _seating(standings, table_size=table_size, history=history, seed=seed, time_limit=time_limit,
                    byes=byes, bye_counts=bye_counts, swiss=True)


def _seating(order: Sequence[int], *, table_size: int, history: History, seed: int | None, time_limit: float,
             byes: bool, bye_counts: Mapping[int, int] | None, swiss: bool) -> Seating:
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
                 deadline=deadline, swiss=swiss)


def count_repeats(*, history: History) -> int:
    """Meetings beyond the first, over all pairs: a pair that met three times counts 2.

    ``count_repeats(history=[*h, r]) - count_repeats(history=h)`` is the
    ``repeats`` of round ``r``.
    """
    return sum(k - 1 for k in _meetings(history).values() if k > 1)


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


def schedule_from_csv(*, text: str, players: Sequence[int] | None = None, table_size: int) -> list[list[Table]]:
    """A predefined schedule: rounds (in round order) of tables (in table order).

    The header is ``round,table`` and one column per seat: either seat names
    in any order (the ruleset's seat winds, ``east,south,west,north`` for
    four, or ``seat1`` … ``seat8`` for any size) or any other names, read in
    seat order. Every problem found is reported at once, as ``line N``.
    """
    if table_size not in TABLE_SIZES:
        raise RuleError.one("table_size", f"must be 2 to 8, not {table_size}")
    rows = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    header = next(rows, None)
    expected = ",".join(["round", "table", *_seat_names(table_size)])
    if header is None:
        raise RuleError(Problem("line 1", f"the schedule is empty: expected the header {expected}"))
    columns = _csv_columns([h.strip().lower() for h in header], table_size)
    if columns is None:
        raise RuleError(Problem("line 1", f"expected the header {expected} (seat columns by name or position)"))
    round_col, table_col, seat_cols = columns
    known = set(players) if players is not None else None

    problems: list[Problem] = []
    tables: dict[int, dict[int, Table]] = {}
    table_numbers: dict[int, set[int]] = {}
    first_line: dict[int, int] = {}
    seen: dict[tuple[int, int], int] = {}  # (round, player) -> line
    for row in rows:
        line = rows.line_num
        if not any(cell.strip() for cell in row):
            continue
        where = f"line {line}"
        if len(row) != len(header):
            problems.append(Problem(where, f"has {len(row)} values, the header has {len(header)}"))
            continue
        round_no = _positive(row[round_col], "round", where, problems)
        table_no = _positive(row[table_col], "table", where, problems)
        seats: list[int] = []
        for name, col in zip(_seat_names(table_size), seat_cols, strict=True):
            value = _integer(row[col])
            if value is None:
                problems.append(Problem(where, f"{name} must be a player id (an integer), not {row[col].strip()!r}"))
            elif known is not None and value not in known:
                problems.append(Problem(where, f"{name}: player {value} is not in this tournament"))
            else:
                seats.append(value)
        if round_no is None or table_no is None:
            continue
        first_line.setdefault(round_no, line)
        at_table: set[int] = set()
        for player in seats:
            if player in at_table:
                problems.append(Problem(where, f"player {player} sits twice at this table"))
                continue
            at_table.add(player)
            other = seen.setdefault((round_no, player), line)
            if other != line:
                problems.append(Problem(where, f"player {player} already sits in round {round_no} (line {other})"))
        numbers = table_numbers.setdefault(round_no, set())
        if table_no in numbers:
            problems.append(Problem(where, f"round {round_no} already has a table {table_no}"))
        elif len(seats) == table_size:
            tables.setdefault(round_no, {})[table_no] = Table(number=table_no, seats=tuple(seats))
        numbers.add(table_no)

    if not first_line and not problems:
        problems.append(Problem("line 2", "the schedule has no tables"))
    for expected_round, round_no in enumerate(sorted(first_line), start=1):
        if round_no != expected_round:
            problems.append(Problem(f"line {first_line[round_no]}",
                                    f"round {round_no} follows round {expected_round - 1}: "
                                    f"round {expected_round} is missing"))
            break
    for round_no, numbers in table_numbers.items():
        missing = sorted(set(range(1, max(numbers) + 1)) - numbers)
        if missing:
            problems.append(Problem(f"line {first_line[round_no]}",
                                    f"round {round_no} has no table {', '.join(map(str, missing))}"))
    if problems:
        problems.sort(key=lambda problem: int(problem.field.split()[1]))  # in file order
        raise RuleError(problems)
    return [[in_round[t] for t in sorted(in_round)] for _, in_round in sorted(tables.items())]


# --- input --------------------------------------------------------------------------------------------------------


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _check(players: Sequence[int], table_size: int, *, byes: bool) -> None:
    if table_size not in TABLE_SIZES:
        raise RuleError.one("table_size", f"must be 2 to 8, not {table_size}")
    twice = sorted(p for p, count in Counter(players).items() if count > 1)
    if twice:
        ids = ", ".join(map(str, twice))
        raise RuleError.one("players", f"{'player' if len(twice) == 1 else 'players'} {ids} listed more than once")
    count = len(players)
    if count < table_size:
        raise RuleError.one("players", f"{_plural(count, 'player')} cannot fill a table of {table_size}")
    short = -count % table_size
    if short and not byes:
        raise RuleError.one("players", f"{count} players do not fill tables of {table_size}: "
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


def _meetings(history: History) -> Counter[tuple[int, int]]:
    met: Counter[tuple[int, int]] = Counter()
    for round_ in history:
        for table in round_:
            # A player written twice at one table does not meet himself.
            seats = sorted(set(table))
            met.update(itertools.combinations(seats, 2))
    return met


def _seat_names(table_size: int) -> list[str]:
    """Column names of the seats: the ruleset's seat winds where they are all different, else seat1, seat2, …"""
    winds = [w.lower() for w in SEAT_WINDS.get(table_size, WINDS[:table_size])]
    return winds if len(set(winds)) == table_size else [f"seat{i + 1}" for i in range(table_size)]


def _csv_columns(header: list[str], table_size: int) -> tuple[int, int, list[int]] | None:
    if "round" not in header or "table" not in header or len(header) != table_size + 2:
        return None
    round_col, table_col = header.index("round"), header.index("table")
    others = [i for i in range(len(header)) if i not in (round_col, table_col)]
    by_name = {name: i for i, name in enumerate(_seat_names(table_size))}
    by_name.update({f"seat{i + 1}": i for i in range(table_size)})
    named = [seat for seat in (by_name.get(header[i]) for i in others) if seat is not None]
    if len(set(named)) == table_size:
        seat_cols = [0] * table_size
        for col, seat in zip(others, named, strict=True):
            seat_cols[seat] = col
        return round_col, table_col, seat_cols
    return round_col, table_col, others


def _integer(cell: str) -> int | None:
    text = cell.strip()
    try:
        return int(text)
    except ValueError:
        return None


def _positive(cell: str, name: str, where: str, problems: list[Problem]) -> int | None:
    value = _integer(cell)
    if value is None or value < 1:
        problems.append(Problem(where, f"{name} must be a number from 1, not {cell.strip()!r}"))
        return None
    return value


# --- one round ------------------------------------------------------------------------------------------------------


def _seat(*, seated: list[int], everyone: list[int], byes: set[int], table_size: int, history: History,
          rng: random.Random, deadline: float, swiss: bool) -> Seating:
    index = {p: i for i, p in enumerate(seated)}
    weights: list[dict[int, int]] = [{} for _ in seated]
    for (a, b), k in _meetings(history).items():
        if a in index and b in index:
            weights[index[a]][index[b]] = weights[index[b]][index[a]] = k * k
    counts = wind_counts(history=history, players=seated, table_size=table_size)
    seat_costs = [_seat_cost_row(counts[p]) for p in seated]

    field = None if swiss else _field(table_size)
    classes = _plane_classes(seated, table_size, history) if field else None
    planned = _scheme_round(classes, field, rng) if field and classes else None
    if planned is not None and planned[1]:
        ordered = planned[0]
    else:
        if planned is not None:
            groups = planned[0]
        else:
            search = _Search(weights=weights, seat_costs=seat_costs, table_size=table_size, swiss=swiss, rng=rng,
                             deadline=deadline)
            search.run()
            groups = [[seated[i] for i in table] for table in search.tables]
            if field and classes:
                groups = _affine_check(groups, classes, field, counts, rng)
        ordered = [_seat_order(group, counts, rng) for group in groups]
    tables = [Table(number=number, seats=tuple(seats)) for number, seats in enumerate(ordered, start=1)]

    repeats = sum(1 for t in tables for a, b in itertools.combinations(t.seats, 2) if index[b] in weights[index[a]])
    after = wind_counts(history=[*history, [t.seats for t in tables]], players=everyone, table_size=table_size)
    imbalance = sum(max(row) - min(row) for row in after.values())
    return Seating(tables=tuple(tables), byes=tuple(sorted(byes)), repeats=repeats, wind_imbalance=imbalance)


def _seat_order(group: list[int], counts: dict[int, list[int]], rng: random.Random) -> list[int]:
    """The players of a table in seat order, each seat going where it evens out the winds best."""
    members = list(group)
    rng.shuffle(members)  # equally good seat orders are drawn at random
    seats = [0] * len(members)
    for player, seat in zip(members, _assign([_seat_cost_row(counts[p]) for p in members])[1], strict=True):
        seats[seat] = player
    return seats


def _seat_cost_row(counts: list[int]) -> list[int]:
    row = []
    for seat, count in enumerate(counts):
        after = [*counts[:seat], count + 1, *counts[seat + 1:]]
        row.append((max(after) - min(after)) * _WIND_SCALE + count)
    return row


def _assign(costs: list[list[int]]) -> tuple[int, list[int]]:
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


class _Search:
    """Swap search over one round; players are indices 0..n-1, tables lists of them."""

    def __init__(self, *, weights: list[dict[int, int]], seat_costs: list[list[int]], table_size: int, swiss: bool,
                 rng: random.Random, deadline: float) -> None:
        n = len(weights)
        self.weights = weights
        self.seat_costs = seat_costs
        self.swiss = swiss
        self.rng = rng
        self.deadline = deadline
        self.tables = [list(range(start, start + table_size)) for start in range(0, n, table_size)]
        self.home = [i // table_size for i in range(n)]
        self.where = list(self.home)
        self.wind_cache: dict[tuple[int, ...], int] = {}
        self.seat_floor = [min(row) for row in seat_costs]

    def run(self) -> None:
        self._conflicts()
        self._winds()

    def out_of_time(self, step: int) -> bool:
        return step % _TIME_CHECK == 0 and time.perf_counter() > self.deadline

    def table_repeats(self, table: list[int]) -> int:
        total = 0
        for i, a in enumerate(table):
            weight = self.weights[a]
            if weight:
                for b in table[i + 1:]:
                    total += weight.get(b, 0)
        return total

    def table_wind(self, table: list[int]) -> int:
        key = tuple(sorted(table))
        cost = self.wind_cache.get(key)
        if cost is None:
            cost = self.wind_cache[key] = _assign([self.seat_costs[i] for i in key])[0]
        return cost

    def allowed(self, player: int, table: int) -> bool:
        return not self.swiss or abs(table - self.home[player]) <= SWISS_WINDOW

    def deltas(self, a: int, b: int) -> tuple[int, int]:
        """Change in repeat weight and in displacement if a and b swap tables."""
        ta, tb = self.where[a], self.where[b]
        wa, wb = self.weights[a], self.weights[b]
        rep = 0
        for x in self.tables[ta]:
            if x != a:
                rep += wb.get(x, 0) - wa.get(x, 0)
        for y in self.tables[tb]:
            if y != b:
                rep += wa.get(y, 0) - wb.get(y, 0)
        if not self.swiss:
            return rep, 0
        ha, hb = self.home[a], self.home[b]
        return rep, abs(tb - ha) + abs(ta - hb) - abs(ta - ha) - abs(tb - hb)

    def swap(self, a: int, b: int) -> None:
        ta, tb = self.where[a], self.where[b]
        table_a, table_b = self.tables[ta], self.tables[tb]
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        self.where[a], self.where[b] = tb, ta

    def conflicted(self, repeats: list[int]) -> int:
        bad = [t for t, cost in enumerate(repeats) if cost]
        if bad:
            table = self.tables[self.rng.choice(bad)]
            return self.rng.choice([a for a in table if any(b in self.weights[a] for b in table)])
        return self.rng.choice([a for a in range(len(self.where)) if self.where[a] != self.home[a]])

    def _conflicts(self) -> None:
        n = len(self.where)
        repeats = [self.table_repeats(t) for t in self.tables]
        current = (sum(repeats), 0)
        best, best_tables = current, [list(t) for t in self.tables]
        tabu = [0] * n
        patience = 300 + 20 * n
        restarts = _RESTARTS
        since_best = 0
        step = 0
        while best != (0, 0) and step < MAX_STEPS and not self.out_of_time(step):
            if since_best >= patience:
                if not restarts or not best[0]:
                    break  # restarts chase repeats only: moving swiss players back is not worth the time
                # Stuck: start again from the best tables, shaken by a few random swaps.
                restarts -= 1
                self._restore([list(t) for t in best_tables])
                self._shake(max(2, n // 16))
                repeats = [self.table_repeats(t) for t in self.tables]
                current = (sum(repeats), sum(abs(t - h) for t, h in zip(self.where, self.home, strict=True)))
                tabu = [0] * n
                since_best = 0
            step += 1
            since_best += 1
            a = self.conflicted(repeats)
            ta = self.where[a]
            pick: tuple[int, int] | None = None
            pick_b = -1
            ties = 0
            for tb, table in enumerate(self.tables):
                if tb == ta or not self.allowed(a, tb):
                    continue
                for b in table:
                    if not self.allowed(b, ta):
                        continue
                    rep, disp = self.deltas(a, b)
                    key = (rep, disp)
                    after = (current[0] + rep, current[1] + disp)
                    if tabu[b] > step and after >= best:
                        continue
                    if pick is None or key < pick:
                        pick, pick_b, ties = key, b, 1
                    elif key == pick:
                        ties += 1
                        if self.rng.randrange(ties) == 0:
                            pick_b = b
            if pick is None:
                continue
            tb = self.where[pick_b]
            self.swap(a, pick_b)
            repeats[ta] = self.table_repeats(self.tables[ta])
            repeats[tb] = self.table_repeats(self.tables[tb])
            current = (current[0] + pick[0], current[1] + pick[1])
            tabu[pick_b] = tabu[a] = step + self.rng.randint(*_TABU)
            if current < best:
                best, best_tables, since_best = current, [list(t) for t in self.tables], 0
        self._restore(best_tables)

    def _shake(self, swaps: int) -> None:
        for _ in range(swaps):
            a = self.rng.randrange(len(self.where))
            ta = self.where[a]
            tb = self.rng.randrange(len(self.tables))
            b = self.rng.choice(self.tables[tb])
            if tb != ta and self.allowed(a, tb) and self.allowed(b, ta):
                self.swap(a, b)

    def _restore(self, tables: list[list[int]]) -> None:
        self.tables = tables
        for t, table in enumerate(tables):
            for player in table:
                self.where[player] = t

    def _winds(self) -> None:
        winds = [self.table_wind(t) for t in self.tables]
        floors = [sum(self.seat_floor[i] for i in t) for t in self.tables]
        if len(self.tables) < 2 or winds == floors:
            return
        patience = 200 + 10 * len(self.where)
        since_better = 0
        step = 0
        while step < MAX_STEPS and since_better < patience and not self.out_of_time(step):
            step += 1
            since_better += 1
            costly = [t for t in range(len(winds)) if winds[t] > floors[t]]
            if not costly:
                break
            ta = self.rng.choice(costly)
            tb = self.rng.randrange(len(self.tables) - 1)
            tb += tb >= ta
            a = self.rng.choice(self.tables[ta])
            b = self.rng.choice(self.tables[tb])
            if not (self.allowed(a, tb) and self.allowed(b, ta)):
                continue
            rep, disp = self.deltas(a, b)
            if (rep, disp) > (0, 0):
                continue
            new_a = [b if x == a else x for x in self.tables[ta]]
            new_b = [a if y == b else y for y in self.tables[tb]]
            wind_a, wind_b = self.table_wind(new_a), self.table_wind(new_b)
            change = wind_a + wind_b - winds[ta] - winds[tb]
            if (rep, disp, change) > (0, 0, 0):
                continue
            self.swap(a, b)
            winds[ta], winds[tb] = wind_a, wind_b
            floors[ta], floors[tb] = sum(self.seat_floor[i] for i in new_a), sum(self.seat_floor[i] for i in new_b)
            if (rep, disp, change) < (0, 0, 0):
                since_better = 0


# --- affine planes ------------------------------------------------------------------------------------------------

_POLYNOMIALS = {4: 0b111, 8: 0b1011}  # x² + x + 1 and x³ + x + 1, irreducible over GF(2)


@dataclass(frozen=True, slots=True)
class _Field:
    q: int
    add: tuple[tuple[int, ...], ...]
    sub: tuple[tuple[int, ...], ...]
    mul: tuple[tuple[int, ...], ...]


def _field(q: int) -> _Field | None:
    """GF(q) for the table sizes that have one; elements are 0..q-1."""
    if q in (2, 3, 5, 7):
        add = tuple(tuple((a + b) % q for b in range(q)) for a in range(q))
        mul = tuple(tuple(a * b % q for b in range(q)) for a in range(q))
    elif q in _POLYNOMIALS:
        add = tuple(tuple(a ^ b for b in range(q)) for a in range(q))
        mul = tuple(tuple(_poly_mul(a, b, q) for b in range(q)) for a in range(q))
    else:
        return None
    sub = tuple(tuple(next(x for x in range(q) if add[b][x] == a) for b in range(q)) for a in range(q))
    return _Field(q=q, add=add, sub=sub, mul=mul)


def _poly_mul(a: int, b: int, q: int) -> int:
    product = 0
    while b:
        if b & 1:
            product ^= a
        b >>= 1
        a <<= 1
        if a & q:
            a ^= _POLYNOMIALS[q]
    return product


# A coordinatisation: each player's point (x, y) and the slopes already used; slope q is the vertical.
_Coordinates = tuple[dict[int, int], dict[int, int], frozenset[int]]


def _plane_classes(seated: list[int], table_size: int, history: History) -> list[list[list[int]]] | None:
    """The history as parallel classes of a plane on the seated players, or None if it cannot be one."""
    if len(seated) != table_size * table_size:
        return None
    players = set(seated)
    classes: list[list[list[int]]] = []
    for round_ in history:
        tables = [list(t) for t in round_ if players.intersection(t)]
        if sorted(p for t in tables for p in t) != sorted(seated) or any(len(t) != table_size for t in tables):
            return None  # a round with other players or other tables: no plane to keep to
        classes.append(tables)
    if len(classes) > table_size or count_repeats(history=classes) > 0:
        return None  # a full plane, or repeats already
    return classes


def _scheme_round(classes: list[list[list[int]]], field: _Field,
                  rng: random.Random) -> tuple[list[list[int]], bool] | None:
    """The next round of the wind scheme, if the history follows it; True if its seat order is given too.

    The scheme makes q rounds where every player sits every seat once. A
    player's seat in round 1 is his y, his round-1 table his x; round r > 1
    seats the lines of one slope m ≠ 0 (no two players of a line share a y),
    each player in seat y + c_r with a shift c_r ≠ 0 of its own. The lines
    y = const, players who shared a round-1 seat, are left for round q + 1.
    Round 2 is normalised to slope 1 with round-1 table 1 at x = 0.
    """
    q = field.q
    ys = {p: seat for table in classes[0] for seat, p in enumerate(table)}
    if len(classes) == 1:
        labels = rng.sample(range(q), q)  # any labelling of the round-1 tables will do
        xs = {p: labels[x] for x, table in enumerate(classes[0]) for p in table}
        return _scheme_lines(xs, ys, field, {0}, {0}, rng), True
    second = {p: k for k, table in enumerate(classes[1]) for p in table}
    offsets = {second[p]: ys[p] for p in classes[0][0]}
    xs = {p: field.sub[ys[p]][offsets[second[p]]] for p in ys}
    if sorted({xs[table[0]] for table in classes[0]}) != list(range(q)) or \
            any(xs[p] != xs[table[0]] for table in classes[0] for p in table):
        return None
    slopes, shifts = {0}, {0}
    for tables in classes[1:]:
        slope = _line_slope(tables, xs, ys, field, slopes)
        shift = _seat_shift(tables, ys, field, shifts)
        if slope is None or shift is None:
            return None
        slopes.add(slope)
        shifts.add(shift)
    if len(classes) == q:
        lines: dict[int, list[int]] = {}
        for p, y in ys.items():
            lines.setdefault(y, []).append(p)
        return list(lines.values()), False
    return _scheme_lines(xs, ys, field, slopes, shifts, rng), True


def _scheme_lines(xs: dict[int, int], ys: dict[int, int], field: _Field, slopes: set[int], shifts: set[int],
                  rng: random.Random) -> list[list[int]]:
    """The lines of an unused slope, each in seat order y + c for an unused shift c."""
    slope = rng.choice([m for m in range(field.q) if m not in slopes])
    shift = rng.choice([c for c in range(field.q) if c not in shifts])
    lines: dict[int, list[int]] = {}
    for p, x in xs.items():
        lines.setdefault(field.sub[ys[p]][field.mul[slope][x]], [0] * field.q)[field.add[ys[p]][shift]] = p
    tables = list(lines.values())
    rng.shuffle(tables)
    return tables


def _line_slope(tables: list[list[int]], xs: dict[int, int], ys: dict[int, int], field: _Field,
                used: set[int]) -> int | None:
    """The slope m, not in ``used``, for which every table is a line y − m·x = const, if any."""
    for m in range(field.q):
        if m in used:
            continue
        keys = set()
        for table in tables:
            line = {field.sub[ys[p]][field.mul[m][xs[p]]] for p in table}
            if len(line) != 1:
                break
            keys |= line
        else:
            if len(keys) == field.q:
                return m
    return None


def _seat_shift(tables: list[list[int]], ys: dict[int, int], field: _Field, used: set[int]) -> int | None:
    """The shift c, not in ``used``, for which every player sits in seat y + c, if any."""
    shifts = {field.sub[seat][ys[p]] for table in tables for seat, p in enumerate(table)}
    shift = shifts.pop()
    return None if shifts or shift in used else shift


def _affine_check(groups: list[list[int]], classes: list[list[list[int]]], field: _Field,
                  counts: dict[int, list[int]], rng: random.Random) -> list[list[int]]:
    """Keep ``groups`` if the schedule can still be completed without repeats, else a plane round.

    From the third round on, plane rounds are compared on the seat winds of
    this round plus the best next plane round: the later rounds of a plane
    are nearly forced, so a round chosen on its own winds can leave the next
    one unable to balance them.
    """
    if next(_coordinatisations(classes, field, rng, limit=1), None) is None:
        return groups  # the history is already off every plane: the search did what it could
    fits = count_repeats(history=[*classes, groups]) == 0 and \
        next(_coordinatisations([*classes, groups], field, rng, limit=1), None) is not None
    if fits and len(classes) == 1:
        return groups  # any repeat-free second round fits a plane, and the search already weighed its winds
    candidates = _plane_rounds(classes, field, rng, limit=AFFINE_CANDIDATES)
    if fits:
        candidates.append(groups)
    look_ahead = 2 <= len(classes) < field.q

    def cost(candidate: list[list[int]]) -> int:
        now, after = _round_winds(candidate, counts)
        if not look_ahead:
            return now
        following = _plane_rounds([*classes, candidate], field, rng, limit=AFFINE_LOOK_AHEAD)
        return now + min((_round_winds(round_, after)[0] for round_ in following), default=0)

    rng.shuffle(candidates)
    return min(candidates, key=cost)


def _round_winds(groups: list[list[int]], counts: dict[int, list[int]]) -> tuple[int, dict[int, list[int]]]:
    """Seat cost of a round with every table in its best order, and the seat counts after it."""
    total = 0
    after = {p: list(row) for p, row in counts.items()}
    for group in groups:
        cost, seats = _assign([_seat_cost_row(counts[p]) for p in group])
        total += cost
        for player, seat in zip(group, seats, strict=True):
            after[player][seat] += 1
    return total, after


def _plane_rounds(classes: list[list[list[int]]], field: _Field, rng: random.Random, *,
                  limit: int) -> list[list[list[int]]]:
    """Up to ``limit`` different rounds that are unused parallel classes of a plane through ``classes``."""
    q = field.q
    rounds: list[list[list[int]]] = []
    seen: set[frozenset[frozenset[int]]] = set()
    for xs, ys, used in _coordinatisations(classes, field, rng, limit=limit):
        for slope in range(q + 1):
            if slope in used:
                continue
            lines: dict[int, list[int]] = {}
            for p, x in xs.items():
                lines.setdefault(x if slope == q else field.sub[ys[p]][field.mul[slope][x]], []).append(p)
            shape = frozenset(frozenset(line) for line in lines.values())
            if shape not in seen:
                seen.add(shape)
                rounds.append(list(lines.values()))
                if len(rounds) >= limit:
                    return rounds
    return rounds


def _coordinatisations(classes: list[list[list[int]]], field: _Field, rng: random.Random, *,
                       limit: int) -> Iterator[_Coordinates]:
    """Points of AG(2, q) for the players such that every class is a parallel class of lines.

    The first class is taken as the vertical lines and the second as the
    horizontal ones. One or two classes leave the labelling free (which point
    of a vertical line is which, which row is which), so random ones are
    drawn. From three classes on, the affine maps of the plane fix three
    more things: the group of the first player is x = 0 and y = 0, the third
    class has slope 1, and the row below the first is x = 1; what is left is
    the labelling of the third class's lines, tried in every order.
    """
    q = field.q
    players = [p for table in classes[0] for p in table]
    if len(classes) == 1:
        for _ in range(limit):
            xs, ys = {}, {}
            for x, table in zip(rng.sample(range(q), q), classes[0], strict=True):
                for y, p in zip(rng.sample(range(q), q), table, strict=True):
                    xs[p], ys[p] = x, y
            yield xs, ys, frozenset({q})
        return
    row = {p: i for i, table in enumerate(classes[0]) for p in table}
    col = {p: j for j, table in enumerate(classes[1]) for p in table}
    cell = {(row[p], col[p]): p for p in players}
    if len(classes) == 2:
        for _ in range(limit):
            alpha, beta = rng.sample(range(q), q), rng.sample(range(q), q)
            yield {p: alpha[row[p]] for p in players}, {p: beta[col[p]] for p in players}, frozenset({q, 0})
        return
    third = {p: k for k, table in enumerate(classes[2]) for p in table}
    minus_one = field.sub[0][1]
    origin_line, below_line = third[cell[0, 0]], third[cell[1, 0]]
    rest_lines = [k for k in range(q) if k not in (origin_line, below_line)]
    rest_values = [v for v in range(q) if v not in (0, minus_one)]
    found = 0
    for values in itertools.permutations(rest_values):
        label = dict(zip(rest_lines, values, strict=True))
        label[origin_line], label[below_line] = 0, minus_one
        # Slope 1 through the first row and column: y − x = label, so x = −label there and y = label.
        alpha = [field.sub[0][label[third[cell[i, 0]]]] for i in range(q)]
        beta = [label[third[cell[0, j]]] for j in range(q)]
        if any(field.sub[beta[j]][alpha[i]] != label[third[cell[i, j]]] for i in range(q) for j in range(q)):
            continue
        xs = {p: alpha[row[p]] for p in players}
        ys = {p: beta[col[p]] for p in players}
        used = {q, 0, 1}
        for tables in classes[3:]:
            slope = _line_slope(tables, xs, ys, field, used)
            if slope is None:
                break
            used.add(slope)
        else:
            yield xs, ys, frozenset(used)
            found += 1
            if found >= limit:
                return
