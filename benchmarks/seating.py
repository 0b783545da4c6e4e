"""Benchmark: seat the rounds of a tournament with rules/seating.

Run it from the project root::

    .venv/bin/python benchmarks/seating.py [--rounds N] [--seed S] [--time-limit T] [--sizes 16,36,...]

For each field size it seats ``--rounds`` rounds of four-player tables one
after another, each round seeing the ones before as history: once with
``random_seating`` and once with ``swiss_seating`` on standings drawn at
random each round (as if results were random). It reports the repeated pairs
over all rounds (``count_repeats``), the wind imbalance after the last round,
and the seconds per round (max and mean, one process, one core). It also
reports the repeats of 16 players over 5 rounds, where a repeat-free schedule
exists (the affine plane of order 4). The targets are zero repeats while they
can be avoided and under 2 s per round for 256 players; figures are printed,
not judged.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse
import random
import time
from dataclasses import dataclass

from rules.seating import Seating, count_repeats, random_seating, swiss_seating

DEFAULT_SIZES = (16, 36, 64, 128, 256)
TABLE_SIZE = 4
TARGET_SECONDS = 2.0  # per round, for 256 players


@dataclass
class Run:
    repeats: int
    imbalance: int
    seconds: list[float]


def play(*, players: int, rounds: int, swiss: bool, seed: int, time_limit: float) -> Run:
    ids = list(range(1, players + 1))
    rng = random.Random(f"{seed}:{players}:{swiss}")
    history: list[list[tuple[int, ...]]] = []
    seconds: list[float] = []
    seating: Seating | None = None
    for _ in range(rounds):
        round_seed = rng.randrange(2**32)
        begin = time.perf_counter()
        if swiss:
            standings = rng.sample(ids, len(ids))
            seating = swiss_seating(standings=standings, table_size=TABLE_SIZE, history=history, seed=round_seed,
                                    time_limit=time_limit)
        else:
            seating = random_seating(players=ids, table_size=TABLE_SIZE, history=history, seed=round_seed,
                                     time_limit=time_limit)
        seconds.append(time.perf_counter() - begin)
        history.append([table.seats for table in seating.tables])
    return Run(repeats=count_repeats(history=history), imbalance=seating.wind_imbalance if seating else 0,
               seconds=seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=1.0, help="time_limit passed per round (default 1.0)")
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",")]

    print(f"Seating {args.rounds} rounds of {TABLE_SIZE}-player tables, seed {args.seed}, "
          f"time_limit {args.time_limit} s per round, one process.")
    header = (f"{'players':>7} {'mode':<7} {'repeats':>7} {'imbalance':>9} {'max s':>7} {'mean s':>7}  "
              f"{'wind floor':>10}")
    print(header)
    print("-" * len(header))
    for players in sizes:
        for swiss in (False, True):
            run = play(players=players, rounds=args.rounds, swiss=swiss, seed=args.seed, time_limit=args.time_limit)
            # After r rounds of 4 seats a player's imbalance is at least 0 when 4 divides r, else 1.
            floor = 0 if args.rounds % TABLE_SIZE == 0 else players
            print(f"{players:>7} {'swiss' if swiss else 'random':<7} {run.repeats:>7} {run.imbalance:>9} "
                  f"{max(run.seconds):>7.3f} {sum(run.seconds) / len(run.seconds):>7.3f}  {floor:>10}")
    print("-" * len(header))
    small = play(players=16, rounds=5, swiss=False, seed=args.seed, time_limit=args.time_limit)
    print(f"16 players over 5 rounds (random): {small.repeats} repeated pairs (a repeat-free schedule exists), "
          f"wind imbalance {small.imbalance}, max {max(small.seconds):.3f} s per round")
    four = play(players=16, rounds=4, swiss=False, seed=args.seed, time_limit=args.time_limit)
    print(f"16 players over 4 rounds (random): wind imbalance {four.imbalance} (0: every player sat every wind once)")
    print(f"Target: under {TARGET_SECONDS:.0f} s per round for 256 players.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
