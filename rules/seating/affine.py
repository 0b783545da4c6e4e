"""Who sits together for q² players at tables of q, q a prime power (4, 9, 16, 25, 49, 64 players).

A local search cannot look ahead, and here the later rounds are nearly forced
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
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass

from rules.seating.history import History, count_repeats
from rules.seating.seat_order import round_winds

AFFINE_CANDIDATES = 64  # plane rounds compared for their seat winds
AFFINE_LOOK_AHEAD = 8  # next plane rounds tried after each of them
_PRIMES = (2, 3, 5, 7)  # the prime table sizes: GF(p) is arithmetic modulo p

_POLYNOMIALS = {4: 0b111, 8: 0b1011}  # x² + x + 1 and x³ + x + 1, irreducible over GF(2)


@dataclass(frozen=True, slots=True)
class Field:
    """GF(q) as tables of its operations."""

    q: int
    add: tuple[tuple[int, ...], ...]
    sub: tuple[tuple[int, ...], ...]
    mul: tuple[tuple[int, ...], ...]


def field_of(q: int) -> Field | None:
    """GF(q) for the table sizes that have one; elements are 0..q-1."""
    if q in _PRIMES:
        add = tuple(tuple((a + b) % q for b in range(q)) for a in range(q))
        mul = tuple(tuple(a * b % q for b in range(q)) for a in range(q))
    elif q in _POLYNOMIALS:
        add = tuple(tuple(a ^ b for b in range(q)) for a in range(q))
        mul = tuple(tuple(_poly_mul(a, b, q) for b in range(q)) for a in range(q))
    else:
        return None
    sub = tuple(tuple(next(x for x in range(q) if add[b][x] == a) for b in range(q)) for a in range(q))
    return Field(q=q, add=add, sub=sub, mul=mul)


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


def plane_classes(seated: list[int], table_size: int, history: History) -> list[list[list[int]]] | None:
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


def scheme_round(
    classes: list[list[list[int]]], field: Field, rng: random.Random
) -> tuple[list[list[int]], bool] | None:
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
    if sorted({xs[table[0]] for table in classes[0]}) != list(range(q)) or any(
        xs[p] != xs[table[0]] for table in classes[0] for p in table
    ):
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


def _scheme_lines(
    xs: dict[int, int], ys: dict[int, int], field: Field, slopes: set[int], shifts: set[int], rng: random.Random
) -> list[list[int]]:
    """The lines of an unused slope, each in seat order y + c for an unused shift c."""
    slope = rng.choice([m for m in range(field.q) if m not in slopes])
    shift = rng.choice([c for c in range(field.q) if c not in shifts])
    lines: dict[int, list[int]] = {}
    for p, x in xs.items():
        lines.setdefault(field.sub[ys[p]][field.mul[slope][x]], [0] * field.q)[field.add[ys[p]][shift]] = p
    tables = list(lines.values())
    rng.shuffle(tables)
    return tables


def _line_slope(
    tables: list[list[int]], xs: dict[int, int], ys: dict[int, int], field: Field, used: set[int]
) -> int | None:
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


def _seat_shift(tables: list[list[int]], ys: dict[int, int], field: Field, used: set[int]) -> int | None:
    """The shift c, not in ``used``, for which every player sits in seat y + c, if any."""
    shifts = {field.sub[seat][ys[p]] for table in tables for seat, p in enumerate(table)}
    shift = shifts.pop()
    return None if shifts or shift in used else shift


def affine_check(
    groups: list[list[int]],
    classes: list[list[list[int]]],
    field: Field,
    counts: dict[int, list[int]],
    rng: random.Random,
) -> list[list[int]]:
    """Keep ``groups`` if the schedule can still be completed without repeats, else a plane round.

    From the third round on, plane rounds are compared on the seat winds of
    this round plus the best next plane round: the later rounds of a plane
    are nearly forced, so a round chosen on its own winds can leave the next
    one unable to balance them.
    """
    if next(_coordinatisations(classes, field, rng, limit=1), None) is None:
        return groups  # the history is already off every plane: the search did what it could
    fits = (
        count_repeats(history=[*classes, groups]) == 0
        and next(_coordinatisations([*classes, groups], field, rng, limit=1), None) is not None
    )
    if fits and len(classes) == 1:
        return groups  # any repeat-free second round fits a plane, and the search already weighed its winds
    candidates = _plane_rounds(classes, field, rng, limit=AFFINE_CANDIDATES)
    if fits:
        candidates.append(groups)
    look_ahead = 2 <= len(classes) < field.q

    def cost(candidate: list[list[int]]) -> int:
        now, after = round_winds(candidate, counts)
        if not look_ahead:
            return now
        following = _plane_rounds([*classes, candidate], field, rng, limit=AFFINE_LOOK_AHEAD)
        return now + min((round_winds(round_, after)[0] for round_ in following), default=0)

    rng.shuffle(candidates)
    return min(candidates, key=cost)


def _plane_rounds(
    classes: list[list[list[int]]], field: Field, rng: random.Random, *, limit: int
) -> list[list[list[int]]]:
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


def _coordinatisations(
    classes: list[list[list[int]]], field: Field, rng: random.Random, *, limit: int
) -> Iterator[_Coordinates]:
    """Points of AG(2, q) for the players such that every class is a parallel class of lines.

    The first class is taken as the vertical lines and the second as the
    horizontal ones. One or two classes leave the labelling free (which point
    of a vertical line is which, which row is which), so random ones are
    drawn. From three classes on, the affine maps of the plane fix three
    more things: the group of the first player is x = 0 and y = 0, the third
    class has slope 1, and the row below the first is x = 1; what is left is
    the labelling of the third class's lines, tried in every order.
    """
    if len(classes) == 1:
        yield from _drawn_points(classes[0], field.q, rng, limit=limit)
    elif len(classes) == 2:
        yield from _drawn_grid(classes, field.q, rng, limit=limit)
    else:
        yield from _fixed_points(classes, field, limit=limit)


def _drawn_points(tables: list[list[int]], q: int, rng: random.Random, *, limit: int) -> Iterator[_Coordinates]:
    """One class, the vertical lines: random points on each."""
    for _ in range(limit):
        xs, ys = {}, {}
        for x, table in zip(rng.sample(range(q), q), tables, strict=True):
            for y, p in zip(rng.sample(range(q), q), table, strict=True):
                xs[p], ys[p] = x, y
        yield xs, ys, frozenset({q})


def _drawn_grid(classes: list[list[list[int]]], q: int, rng: random.Random, *, limit: int) -> Iterator[_Coordinates]:
    """Two classes, the vertical and the horizontal lines: random labels for each."""
    players = [p for table in classes[0] for p in table]
    row = {p: i for i, table in enumerate(classes[0]) for p in table}
    col = {p: j for j, table in enumerate(classes[1]) for p in table}
    for _ in range(limit):
        alpha, beta = rng.sample(range(q), q), rng.sample(range(q), q)
        yield {p: alpha[row[p]] for p in players}, {p: beta[col[p]] for p in players}, frozenset({q, 0})


def _fixed_points(classes: list[list[list[int]]], field: Field, *, limit: int) -> Iterator[_Coordinates]:
    """Three classes or more: every labelling of the third class's lines that makes every class a line class."""
    q = field.q
    players = [p for table in classes[0] for p in table]
    row = {p: i for i, table in enumerate(classes[0]) for p in table}
    col = {p: j for j, table in enumerate(classes[1]) for p in table}
    cell = {(row[p], col[p]): p for p in players}
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
        used = _used_slopes(classes[3:], xs, ys, field)
        if used is not None:
            yield xs, ys, used
            found += 1
            if found >= limit:
                return


def _used_slopes(
    classes: list[list[list[int]]], xs: dict[int, int], ys: dict[int, int], field: Field
) -> frozenset[int] | None:
    """The slopes of the first three classes and of each of ``classes``; None if one of them is no set of lines."""
    used = {field.q, 0, 1}
    for tables in classes:
        slope = _line_slope(tables, xs, ys, field, used)
        if slope is None:
            return None
        used.add(slope)
    return frozenset(used)
