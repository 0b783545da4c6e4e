"""Benchmark: seat the rounds of a tournament with rules/seating.

Run it from the project root::

    .venv/bin/python benchmarks/seating.py [--rounds N] [--seed S] [--time-limit T] [--sizes 36,64,...]
                                           [--spreads 1,7]

For each field size it seats ``--rounds`` rounds of four-player tables one
after another, each round seeing the ones before as history: once with
``random_seating`` and, for each spread, once with ``swiss_seating``. The
swiss standings drift as real ones do: each round every player's score takes
a random step (a Gaussian walk), and the standings are the scores in order.
A spread of 7 is what Pantheon's seating was measured to use (players moved
up to seven tables), 1 is the product's default.

It prints, per run: the repeated pairs over all rounds (``count_repeats``);
the tables moved from the rank tables, summed over players and rounds, and
how many of those seatings moved a player more than one table; the wind
imbalance after the last round; the seconds per round (max and mean) and in
all, one process, one core; and how many rounds were proven optimal. Then the
repeats of 16 players over 5 rounds at random, where a repeat-free schedule
exists (the affine plane of order 4). Targets: at most 0.5 s per swiss round
of 256 players at a spread of 1; figures are printed, not judged.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse
import random
import time
from dataclasses import dataclass, field

from rules.seating import Seating, count_repeats, random_seating, swiss_seating

DEFAULT_SIZES = (36, 64, 128, 256)
DEFAULT_SPREADS = (1, 7)
TABLE_SIZE = 4
SCORE_STEP = 20.0  # standard deviation of a player's score change per round, in points
TARGET_SECONDS = 0.5  # per swiss round of 256 players at a spread of 1


@dataclass
class Run:
    repeats: int = 0
    moved: int = 0
    far: int = 0  # a player seated more than one table from his rank table, once per round
    imbalance: int = 0
    optimal: int = 0
    seconds: list[float] = field(default_factory=list)


def play(*, players: int, rounds: int, spread: int | None, swiss: bool, seed: int, time_limit: float) -> Run:
    """``rounds`` rounds seated one after another; the same seed gives every method the same standings."""
    rng = random.Random(f"{seed}:{players}")
    scores = dict.fromkeys(range(1, players + 1), 0.0)
    history: list[list[tuple[int, ...]]] = []
    run = Run()
    seating: Seating | None = None
    for number in range(rounds):
        for player in scores:
            scores[player] += rng.gauss(0, SCORE_STEP)
        standings = sorted(scores, key=lambda p: -scores[p])
        begin = time.perf_counter()
        if swiss:
            seating = swiss_seating(standings=standings, table_size=TABLE_SIZE, history=history, seed=number,
                                    time_limit=time_limit, spread=spread)
        else:
            seating = random_seating(players=standings, table_size=TABLE_SIZE, history=history, seed=number,
                                     time_limit=time_limit)
        run.seconds.append(time.perf_counter() - begin)
        run.moved += sum(abs(place.moved) for place in seating.placements)
        run.far += sum(1 for place in seating.placements if abs(place.moved) > 1)
        run.optimal += seating.optimal
        history.append([table.seats for table in seating.tables])
    run.repeats = count_repeats(history=history)
    run.imbalance = seating.wind_imbalance if seating else 0
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=1.0, help="time_limit passed per round (default 1.0)")
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    parser.add_argument("--spreads", default=",".join(map(str, DEFAULT_SPREADS)),
                        help='swiss spreads to run, "any" for no limit (default 1,7)')
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",")]
    spreads = [None if s == "any" else int(s) for s in args.spreads.split(",")]

    print(f"Seating {args.rounds} rounds of {TABLE_SIZE}-player tables, seed {args.seed}, standings drifting by "
          f"a random walk (step {SCORE_STEP:.0f} points), time_limit {args.time_limit} s per round, one process.")
    header = (f"{'players':>7} {'method':<14} {'repeats':>7} {'moved':>6} {'moved>1':>7} {'imbalance':>9} "
              f"{'max s':>6} {'mean s':>6} {'total s':>7} {'optimal':>7}")
    print(header)
    print("-" * len(header))
    for players in sizes:
        methods = [("random", False, None)] + [(f"swiss spread {s if s is not None else 'any'}", True, s)
                                               for s in spreads]
        for name, swiss, spread in methods:
            run = play(players=players, rounds=args.rounds, spread=spread, swiss=swiss, seed=args.seed,
                       time_limit=args.time_limit)
            print(f"{players:>7} {name:<14} {run.repeats:>7} {run.moved:>6} {run.far:>7} {run.imbalance:>9} "
                  f"{max(run.seconds):>6.3f} {sum(run.seconds) / len(run.seconds):>6.3f} {sum(run.seconds):>7.2f} "
                  f"{run.optimal:>4}/{args.rounds}")
    print("-" * len(header))
    small = play(players=16, rounds=5, spread=None, swiss=False, seed=args.seed, time_limit=args.time_limit)
    print(f"16 players over 5 rounds (random): {small.repeats} repeated pairs (a repeat-free schedule exists), "
          f"wind imbalance {small.imbalance}, max {max(small.seconds):.3f} s per round")
    print("moved: tables from the rank table, summed over players and rounds; moved>1: seatings more than one "
          "table away; optimal: rounds proven to have the fewest repeats (then moves) their spread allows.")
    print(f"Target: at most {TARGET_SECONDS} s per swiss round of 256 players at spread 1.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
