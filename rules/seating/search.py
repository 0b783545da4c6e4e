"""Who sits together: a local search over one round.

Its objective is lexicographic: first the repeated pairs, a pair that already
met k times weighing k² (so a third meeting is avoided before a second); then,
for swiss, how far players moved from their swiss table; last the seat-wind
cost of the tables (rules.seating.seat_order). It starts from random tables
(or the swiss tables) and swaps two players of different tables, in two
phases:

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
"""

from __future__ import annotations

import random
import time

from rules.seating.seat_order import assign

SWISS_WINDOW = 1  # tables a swiss player may move away from the table his rank gives him
MAX_STEPS = 200_000  # per search phase: the search ends even with an unbounded time limit
_TABU = (4, 12)  # tenure range, in steps, of a player just swapped in
_RESTARTS = 8  # fresh starts from the best tables once the search stalls
_TIME_CHECK = 16  # steps between two reads of the clock
# Steps without a better round before a phase counts as stalled: more for a larger
# field, which has more swaps to try around each round.
_CONFLICT_PATIENCE = 300
_CONFLICT_PATIENCE_PER_PLAYER = 20
_WIND_PATIENCE = 200
_WIND_PATIENCE_PER_PLAYER = 10
# Random swaps that shake the best tables at a restart: one per 16 players, at least 2.
_SHAKE_MIN = 2
_SHAKE_PLAYERS = 16


class Search:
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
        """Both phases; ``tables`` then holds the best tables found."""
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
            cost = self.wind_cache[key] = assign([self.seat_costs[i] for i in key])[0]
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
        """Phase 1: swap the players in conflict, with a short tabu, restarting from the best tables on a stall."""
        n = len(self.where)
        repeats = [self.table_repeats(t) for t in self.tables]
        current = (sum(repeats), 0)
        best, best_tables = current, [list(t) for t in self.tables]
        tabu = [0] * n
        patience = _CONFLICT_PATIENCE + _CONFLICT_PATIENCE_PER_PLAYER * n
        restarts = _RESTARTS
        since_best = 0
        step = 0
        while best != (0, 0) and step < MAX_STEPS and not self.out_of_time(step):
            if since_best >= patience:
                if not restarts or not best[0]:
                    break  # restarts chase repeats only: moving swiss players back is not worth the time
                restarts -= 1
                repeats, current = self._restart(best_tables)
                tabu = [0] * n
                since_best = 0
            step += 1
            since_best += 1
            a = self.conflicted(repeats)
            move = self._best_move(a, tabu=tabu, step=step, current=current, best=best)
            if move is None:
                continue
            change, b = move
            ta, tb = self.where[a], self.where[b]
            self.swap(a, b)
            repeats[ta] = self.table_repeats(self.tables[ta])
            repeats[tb] = self.table_repeats(self.tables[tb])
            current = (current[0] + change[0], current[1] + change[1])
            tabu[b] = tabu[a] = step + self.rng.randint(*_TABU)
            if current < best:
                best, best_tables, since_best = current, [list(t) for t in self.tables], 0
        self._restore(best_tables)

    def _best_move(self, a: int, *, tabu: list[int], step: int, current: tuple[int, int],
                   best: tuple[int, int]) -> tuple[tuple[int, int], int] | None:
        """The swap partner for ``a`` that helps most (or hurts least), and the change it makes; ties drawn at random.

        A player still in his tabu tenure is only taken when the swap beats the best tables found.
        """
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
                key = self.deltas(a, b)
                after = (current[0] + key[0], current[1] + key[1])
                if tabu[b] > step and after >= best:
                    continue
                if pick is None or key < pick:
                    pick, pick_b, ties = key, b, 1
                elif key == pick:
                    ties += 1
                    if self.rng.randrange(ties) == 0:
                        pick_b = b
        return None if pick is None else (pick, pick_b)

    def _restart(self, best_tables: list[list[int]]) -> tuple[list[int], tuple[int, int]]:
        """Stuck: start again from the best tables, shaken by a few random swaps; the repeats and the objective."""
        self._restore([list(t) for t in best_tables])
        self._shake(max(_SHAKE_MIN, len(self.where) // _SHAKE_PLAYERS))
        repeats = [self.table_repeats(t) for t in self.tables]
        displaced = sum(abs(t - h) for t, h in zip(self.where, self.home, strict=True))
        return repeats, (sum(repeats), displaced)

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
        """Phase 2: random swaps that keep the first objectives, kept when the seat winds do not get worse."""
        winds = [self.table_wind(t) for t in self.tables]
        floors = [sum(self.seat_floor[i] for i in t) for t in self.tables]
        if len(self.tables) < 2 or winds == floors:
            return
        patience = _WIND_PATIENCE + _WIND_PATIENCE_PER_PLAYER * len(self.where)
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
