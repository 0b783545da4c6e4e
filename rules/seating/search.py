"""Who sits together: a local search over one round, minimising a cost an organiser can read.

The cost is lexicographic, each part outweighing any amount of the next:

1. repeated pairs: a pair that already met k times weighs k² (so a third
   meeting is avoided before a second);
2. for swiss, the tables moved: the sum over players of the distance between
   the table they sit at and the table their rank gives them;
3. the seat winds of the tables (rules.seating.seat_order).

A swiss player may sit at most ``spread`` tables from his rank table (None:
anywhere). The search starts from the rank tables (swiss) or from random
tables and swaps two players of different tables, in two phases:

1. conflicts: a player in a repeated pair (or, for swiss, away from his table)
   swaps with the partner that helps most, even when every swap hurts; a short
   tabu on the players just swapped keeps it from undoing its last steps
   (min-conflicts with tabu, as for social-golfer schedules). When it stalls it
   starts again from the best tables, shaken by a few random swaps. Each
   player keeps, per table, the weight of the pairs he would repeat there, so
   a swap is priced in a few lookups and a step costs the partners it tries:
   the players of the tables within the spread (the players in a repeated
   pair are kept up to date swap by swap, not looked for in the whole field);
2. winds: random swaps that keep the first two parts, kept when they do not
   make the tables' seat winds worse.

Each phase stops at its lower bound (no repeat and nobody moved: proven
optimal; every player on his best seat), when it stalls, after ``MAX_STEPS``
steps or at the deadline, whichever comes first, and the best tables found
are kept. With a seed the result is reproducible whenever the search ends
before the deadline.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable

from rules.seating.seat_order import assign

SWISS_SPREAD = 1  # tables a swiss player may move from his rank table, unless the event says otherwise
MAX_STEPS = 200_000  # per search phase: the search ends even with an unbounded time limit
_TABU = (4, 12)  # tenure range, in steps, of a player just swapped in
_TIME_CHECK = 16  # steps between two reads of the clock
# Steps without a better round before a phase counts as stalled: more for a larger
# field, which has more swaps to try around each round; and fresh starts from the best
# tables once it stalls with pairs still repeating.
_CONFLICT_PATIENCE = 300
_CONFLICT_PATIENCE_PER_PLAYER = 20
_RESTARTS = 8
# Swiss gives up sooner on its last repeats: measured with benchmarks/seating.py, the
# longer search of random seating removed about one repeat in eight 36-player rounds and
# doubled their time. Once no pair repeats, only moves are left to shorten, worth less
# still of the organiser's wait.
_SWISS_PATIENCE = 150
_SWISS_PATIENCE_PER_PLAYER = 5
_SWISS_RESTARTS = 4
_MOVES_PATIENCE = 100
_MOVES_PATIENCE_PER_PLAYER = 2
_WIND_PATIENCE = 200
_WIND_PATIENCE_PER_PLAYER = 10
# Random swaps that shake the best tables at a restart: one per 16 players, at least 2.
_SHAKE_MIN = 2
_SHAKE_PLAYERS = 16

Cost = tuple[int, int]  # (repeat weight, tables moved)


class Search:
    """Swap search over one round; players are indices 0..n-1 (in rank order for swiss), tables lists of them."""

    def __init__(
        self,
        *,
        weights: list[dict[int, int]],
        seat_costs: list[list[int]],
        table_size: int,
        swiss: bool,
        rng: random.Random,
        deadline: float,
        spread: int | None = SWISS_SPREAD,
    ) -> None:
        n = len(weights)
        self.weights = weights
        self.seat_costs = seat_costs
        self.swiss = swiss
        self.rng = rng
        self.deadline = deadline
        self.tables = [list(range(start, start + table_size)) for start in range(0, n, table_size)]
        self.home = [i // table_size for i in range(n)]
        self.where = list(self.home)
        last = len(self.tables) - 1
        reach = spread if swiss and spread is not None else last
        self.lowest = [max(0, h - reach) for h in self.home]
        self.highest = [min(last, h + reach) for h in self.home]
        # conflict[p][t]: the weight of the pairs p would repeat at table t.
        self.conflict: list[dict[int, int]] = [{} for _ in range(n)]
        for p, met in enumerate(weights):
            for q, weight in met.items():
                row = self.conflict[p]
                row[self.where[q]] = row.get(self.where[q], 0) + weight
        self.wind_cache: dict[tuple[int, ...], int] = {}
        self.seat_floor = [min(row) for row in seat_costs]
        self.optimal = False
        self._track_all()

    def run(self) -> None:
        """Both phases; ``tables`` then holds the best tables found, ``optimal`` whether no tables can be better."""
        self._conflicts()
        self._winds()

    def resume(self, tables: list[list[int]]) -> None:
        """Both phases, from ``tables`` (a programme the clock stopped) instead of the rank tables."""
        self._restore([list(t) for t in tables])
        self.run()

    def seat_winds(self, tables: list[list[int]]) -> None:
        """Tables already proven best (rules.seating.banded): only the winds phase is left to run."""
        self._restore([list(t) for t in tables])
        self.optimal = True
        self._winds()

    def out_of_time(self, step: int) -> bool:
        return step % _TIME_CHECK == 0 and time.perf_counter() > self.deadline

    def repeat_weight(self) -> int:
        return sum(row.get(self.where[p], 0) for p, row in enumerate(self.conflict)) // 2

    def moved(self) -> int:
        return sum(abs(t - h) for t, h in zip(self.where, self.home, strict=True)) if self.swiss else 0

    def table_wind(self, table: list[int]) -> int:
        key = tuple(sorted(table))
        cost = self.wind_cache.get(key)
        if cost is None:
            cost = self.wind_cache[key] = assign([self.seat_costs[i] for i in key])[0]
        return cost

    def delta(self, a: int, b: int) -> Cost:
        """The change in the cost if a and b swap tables."""
        ta, tb = self.where[a], self.where[b]
        ca, cb = self.conflict[a], self.conflict[b]
        rep = cb.get(ta, 0) + ca.get(tb, 0) - ca.get(ta, 0) - cb.get(tb, 0) - 2 * self.weights[a].get(b, 0)
        if not self.swiss:
            return rep, 0
        ha, hb = self.home[a], self.home[b]
        return rep, abs(tb - ha) + abs(ta - hb) - abs(ta - ha) - abs(tb - hb)

    def fits(self, player: int, table: int) -> bool:
        return self.lowest[player] <= table <= self.highest[player]

    def swap(self, a: int, b: int) -> None:
        ta, tb = self.where[a], self.where[b]
        table_a, table_b = self.tables[ta], self.tables[tb]
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        self.where[a], self.where[b] = tb, ta
        for player, left, joined in ((a, ta, tb), (b, tb, ta)):
            for other, weight in self.weights[player].items():
                row = self.conflict[other]
                row[left] -= weight
                row[joined] = row.get(joined, 0) + weight
        self._track([a, b, *self.weights[a], *self.weights[b]])  # whose repeats a swap can change

    def _track_all(self) -> None:
        """Who is in a repeated pair (by table) and who sits away from his rank table, kept swap by swap:
        scanning the whole field for them at every step made the search quadratic in the field."""
        self.clashing: dict[int, set[int]] = {}  # table -> its players in a repeated pair
        self.clash_table: dict[int, int] = {}  # player -> the table he is listed at in ``clashing``
        self.clash_tables = _Pool(())
        self.away = _Pool(())
        self._track(range(len(self.where)))

    def _track(self, players: Iterable[int]) -> None:
        for p in players:
            table = self.where[p]
            now = table if self.conflict[p].get(table) else None
            was = self.clash_table.get(p)
            if now != was:
                if was is not None:
                    members = self.clashing[was]
                    members.discard(p)
                    if not members:
                        del self.clashing[was]
                        self.clash_tables.keep(was, False)
                    del self.clash_table[p]
                if now is not None:
                    self.clashing.setdefault(now, set()).add(p)
                    self.clash_table[p] = now
                    self.clash_tables.keep(now, True)
            if self.swiss:
                self.away.keep(p, table != self.home[p])

    def _pick(self) -> int:
        """A player to move: one in a repeated pair, else (swiss) one away from his rank table."""
        if self.clash_tables.items:
            # A table first, then one of its players: drawing players alike would favour the crowded
            # tables, and the search measured to repeat more (benchmarks/seating.py, random seating).
            table = self.clash_tables.draw(self.rng)
            return self.rng.choice(sorted(self.clashing[table]))
        return self.away.draw(self.rng)

    def _conflicts(self) -> None:
        """Phase 1: swap the players in conflict, with a short tabu, restarting from the best tables on a stall."""
        n = len(self.where)
        current: Cost = (self.repeat_weight(), self.moved())
        best, best_tables = current, [list(t) for t in self.tables]
        tabu = [0] * n
        if self.swiss:
            patience = _SWISS_PATIENCE + _SWISS_PATIENCE_PER_PLAYER * n
        else:
            patience = _CONFLICT_PATIENCE + _CONFLICT_PATIENCE_PER_PLAYER * n
        moves_patience = _MOVES_PATIENCE + _MOVES_PATIENCE_PER_PLAYER * n
        restarts = _SWISS_RESTARTS if self.swiss else _RESTARTS
        since_best = step = 0
        while best != (0, 0) and step < MAX_STEPS and not self.out_of_time(step):
            if since_best >= (patience if best[0] else moves_patience):
                if not restarts or not best[0]:
                    break  # restarts chase repeats only: moving swiss players back is not worth the time
                restarts -= 1
                current = self._restart(best_tables)
                tabu = [0] * n
                since_best = 0
            step += 1
            since_best += 1
            a = self._pick()
            move = self._best_move(a, tabu=tabu, step=step, current=current, best=best)
            if move is None:
                continue
            change, b = move
            self.swap(a, b)
            current = (current[0] + change[0], current[1] + change[1])
            tabu[b] = tabu[a] = step + self.rng.randint(*_TABU)
            if current < best:
                best, best_tables, since_best = current, [list(t) for t in self.tables], 0
        self._restore(best_tables)
        self.optimal = best == (0, 0)

    def _best_move(self, a: int, *, tabu: list[int], step: int, current: Cost, best: Cost) -> tuple[Cost, int] | None:
        """The swap partner for ``a`` that helps most (or hurts least), and the change it makes; ties drawn at random.

        Partners sit at the tables ``a`` may take and may take ``a``'s table. A player still in his tabu tenure
        is only taken when the swap beats the best tables found.
        """
        # delta() inlined: this loop is most of the search's time.
        ta, lowest, highest, home = self.where[a], self.lowest, self.highest, self.home
        conflict_a, met_a, swiss = self.conflict[a], self.weights[a], self.swiss
        leave_a = conflict_a.get(ta, 0)
        pick: Cost | None = None
        pick_b = -1
        ties = 0
        for tb in range(lowest[a], highest[a] + 1):
            if tb == ta:
                continue
            rep_a = conflict_a.get(tb, 0) - leave_a
            moved_a = abs(tb - home[a]) - abs(ta - home[a]) if swiss else 0
            for b in self.tables[tb]:
                if not lowest[b] <= ta <= highest[b]:
                    continue
                conflict_b = self.conflict[b]
                key = (
                    rep_a + conflict_b.get(ta, 0) - conflict_b.get(tb, 0) - 2 * met_a.get(b, 0),
                    moved_a + abs(ta - home[b]) - abs(tb - home[b]) if swiss else 0,
                )
                if tabu[b] > step and (current[0] + key[0], current[1] + key[1]) >= best:
                    continue
                if pick is None or key < pick:
                    pick, pick_b, ties = key, b, 1
                elif key == pick:
                    ties += 1
                    if self.rng.randrange(ties) == 0:
                        pick_b = b
        return None if pick is None else (pick, pick_b)

    def _restart(self, best_tables: list[list[int]]) -> Cost:
        """Stuck: start again from the best tables, shaken by a few random swaps; the cost there."""
        self._restore([list(t) for t in best_tables])
        for _ in range(max(_SHAKE_MIN, len(self.where) // _SHAKE_PLAYERS)):
            a = self.rng.randrange(len(self.where))
            tb = self.rng.randint(self.lowest[a], self.highest[a])
            b = self.rng.choice(self.tables[tb])
            if tb != self.where[a] and self.fits(b, self.where[a]):
                self.swap(a, b)
        return self.repeat_weight(), self.moved()

    def _restore(self, tables: list[list[int]]) -> None:
        self.tables = tables
        for t, table in enumerate(tables):
            for player in table:
                self.where[player] = t
        for row in self.conflict:
            row.clear()
        for p, met in enumerate(self.weights):
            for q, weight in met.items():
                row = self.conflict[p]
                row[self.where[q]] = row.get(self.where[q], 0) + weight
        self._track_all()

    def _winds(self) -> None:
        """Phase 2: random swaps that keep the first two parts, kept when the seat winds do not get worse."""
        winds = [self.table_wind(t) for t in self.tables]
        floors = [sum(self.seat_floor[i] for i in t) for t in self.tables]
        if len(self.tables) < 2 or winds == floors:
            return
        patience = _WIND_PATIENCE + _WIND_PATIENCE_PER_PLAYER * len(self.where)
        # The tables above their floor, kept up to date swap by swap: listing them afresh at every step made
        # this phase quadratic, seven seconds of a 2,000-player round (benchmarks/seating.py).
        costly = _Pool(t for t in range(len(winds)) if winds[t] > floors[t])
        since_better = step = 0
        while step < MAX_STEPS and since_better < patience and not self.out_of_time(step):
            step += 1
            since_better += 1
            if not costly.items:
                break
            ta = costly.draw(self.rng)
            a = self.rng.choice(self.tables[ta])
            tb = self.rng.randint(self.lowest[a], self.highest[a] - 1)
            tb += tb >= ta  # any other table within reach, alike
            b = self.rng.choice(self.tables[tb])
            if not self.fits(b, ta):
                continue
            rep, moved = self.delta(a, b)
            if (rep, moved) > (0, 0):
                continue
            wind_a = self.table_wind([b if x == a else x for x in self.tables[ta]])
            wind_b = self.table_wind([a if y == b else y for y in self.tables[tb]])
            change = wind_a + wind_b - winds[ta] - winds[tb]
            if (rep, moved, change) > (0, 0, 0):
                continue
            floors[ta] += self.seat_floor[b] - self.seat_floor[a]
            floors[tb] += self.seat_floor[a] - self.seat_floor[b]
            self.swap(a, b)
            winds[ta], winds[tb] = wind_a, wind_b
            for t in (ta, tb):
                costly.keep(t, winds[t] > floors[t])
            if (rep, moved, change) < (0, 0, 0):
                since_better = 0


class _Pool:
    """A set of tables to draw from at random, in constant time for a draw, an addition or a removal."""

    def __init__(self, items: Iterable[int]) -> None:
        self.items = list(items)
        self.place = {item: i for i, item in enumerate(self.items)}

    def draw(self, rng: random.Random) -> int:
        return self.items[rng.randrange(len(self.items))]

    def keep(self, item: int, kept: bool) -> None:
        """Add ``item`` if ``kept`` and missing; remove it if not ``kept`` and present."""
        where = self.place.get(item)
        if kept and where is None:
            self.place[item] = len(self.items)
            self.items.append(item)
        elif not kept and where is not None:
            moved = self.items[where] = self.items[-1]
            self.place[moved] = where
            self.items.pop()
            del self.place[item]
