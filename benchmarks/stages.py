"""Benchmark: the cut and the carry of an event in stages, with rules/stages.

Run it from the project root::

    .venv/bin/python benchmarks/stages.py [--players 1000] [--stages 3] [--repeat 5] [--seed 7]

It draws each player's points and two tiebreak values (sum of end scores, average placement) per stage, in
tenths of a point as real results are, then runs the event: each stage's standings, the cut to the next
(half the players, then half again), the carry of half the totals, and at the end the event's final ranking
and the first round of the last stage seated by rank. It prints the best and the mean time of the whole run
over ``--repeat`` runs, one process, one core. The issue asks for less than one standings recompute
(``benchmarks/standings.py`` prints that figure); figures are printed, not judged.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse
import random
import statistics
import time
from fractions import Fraction

from rules.stages import Carry, Entry, Line, StageLine, carry_over, cut, final_ranking, rank_seating, stage_standings

TABLE_SIZE = 4


def stage_results(rng: random.Random, players: tuple[int, ...]) -> list[Line]:
    """Points in tenths (as oka and uma make them), a sum of end scores in hundreds, an average placement."""
    return [Line(p, Fraction(rng.randint(-1500, 1500), 10),
                 tiebreaks=(Fraction(rng.randint(1500, 4500) * 100), -Fraction(rng.randint(100, 400), 100)))
            for p in players]


def run_event(drawn: list[dict[int, Line]], players: int, stages: int) -> tuple[int, int]:
    """The whole event from drawn results; returns the final ranking's length and the last stage's tables."""
    entrants: tuple[int, ...] = tuple(range(1, players + 1))
    done: list[tuple[StageLine, ...]] = []
    carried = None
    for number in range(stages):
        results = [drawn[number][p] for p in entrants]
        done.append(stage_standings(entrants=entrants, results=results, carried=carried))
        if number + 1 == stages:
            break
        top = max(TABLE_SIZE, len(entrants) // 2 // TABLE_SIZE * TABLE_SIZE)
        # A tie at the line is decided as an organiser would: the first of the tied by player id.
        going = cut(standings=done[-1], entry=Entry(top=top))
        if not going.decided:
            chosen = sorted(going.tied_at_line)[: going.places]
            going = cut(standings=done[-1], entry=Entry(top=top), through=[*going.through, *chosen])
        entrants = going.through
        carried = carry_over(standings=done[-1], players=entrants, carry=Carry.parse("half"))
    tables = rank_seating(players=[line.player for line in done[-1]], table_size=TABLE_SIZE)
    return len(final_ranking(done)), len(tables)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--stages", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    # Every stage's results are drawn for every player; a stage reads only its entrants' lines.
    everyone = tuple(range(1, args.players + 1))
    drawn = [{line.player: line for line in stage_results(rng, everyone)} for _ in range(args.stages)]
    timings = []
    for _ in range(args.repeat):
        begin = time.perf_counter()
        ranked, tables = run_event(drawn, args.players, args.stages)
        timings.append(time.perf_counter() - begin)
    print(f"{args.players} players, {args.stages} stages: {ranked} in the final ranking, "
          f"{tables} tables in the last stage")
    print(f"cut and carry, whole event: best {min(timings) * 1000:7.1f} ms, mean "
          f"{statistics.mean(timings) * 1000:7.1f} ms over {args.repeat} runs (target: under one standings "
          f"recompute, benchmarks/standings.py)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
