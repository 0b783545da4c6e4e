"""Benchmark: the cut and the carry of an event in stages, on the pure core and through the services.

Run it from the project root (SQLite by default; set DATABASE_URL for PostgreSQL)::

    .venv/bin/python benchmarks/stages.py [--players 1000] [--stages 3] [--repeat 5] [--seed 7] [--core-only]

The pure core (rules/stages): it draws each player's points and two tiebreak values (sum of end scores, average
placement) per stage, in tenths of a point as real results are, then runs the event: each stage's standings, the
cut to the next (half the players, then half again), the carry of half the totals, and at the end the event's
final ranking and the first round of the last stage seated by rank.

The services, on a fresh test database: the same event of ``--players`` players built as the product stores it
(rounds of tables, games recorded by their end scores, each replayed and its results stored; the cuts confirmed
by ``cut_confirm``), four rounds in the first stage, three in the second, two in the third. Then it times, on one
state and then on the next:

- ``cut_preview`` into the last stage (every stage before it ranked with its carry, the cut, what each player
  carries in) beside ``stages_ranked`` alone and one ``standings_recompute``;
- the last stage entered and played: ``stages_ranked`` over every stage against one ``standings_recompute``.

The issue asks for the cut and the carry in less than one standings recompute. It prints the best and the mean
of ``--repeat`` runs, one process, one core, and the queries each makes; figures are printed, not judged.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import argparse
import random
import statistics
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from rules.stages import Carry, Entry, Line, StageLine, carry_over, cut, final_ranking, rank_seating, stage_standings

TABLE_SIZE = 4


def stage_results(rng: random.Random, players: tuple[int, ...]) -> list[Line]:
    """Points in tenths (as oka and uma make them), a sum of end scores in hundreds, an average placement."""
    return [
        Line(
            p,
            Fraction(rng.randint(-1500, 1500), 10),
            tiebreaks=(Fraction(rng.randint(1500, 4500) * 100), -Fraction(rng.randint(100, 400), 100)),
        )
        for p in players
    ]


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


def core(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    # Every stage's results are drawn for every player; a stage reads only its entrants' lines.
    everyone = tuple(range(1, args.players + 1))
    drawn = [{line.player: line for line in stage_results(rng, everyone)} for _ in range(args.stages)]
    timings = []
    for _ in range(args.repeat):
        begin = time.perf_counter()
        ranked, tables = run_event(drawn, args.players, args.stages)
        timings.append(time.perf_counter() - begin)
    print(
        f"pure core, {args.players} players, {args.stages} stages: {ranked} in the final ranking, "
        f"{tables} tables in the last stage"
    )
    print(f"  cut and carry, whole event:   {figures(timings)}")


def figures(timings: list[float]) -> str:
    return f"best {min(timings) * 1000:8.1f} ms, mean {statistics.mean(timings) * 1000:8.1f} ms"


# --- through the services, on a database ----------------------------------------------------------------------------

ROUNDS = (4, 3, 2)  # rounds played in the first, second and third stage (a later stage plays two)


def end_scores(rng: random.Random) -> list[int]:
    """Four wrc-2025 end scores adding up to 120,000, in hundreds."""
    moves = [rng.randint(-250, 250) * 100 for _ in range(3)]
    return [30000 + m for m in moves] + [30000 - sum(moves)]


def play_round(event: Any, number: int, stage: int, players: list[int], rng: random.Random) -> int:
    """A round of the stage: its players at random tables of four, each game recorded by its end scores (a sheet
    resumed at them and ended by the clock), replayed and its results stored as the product stores them."""
    from django.db import transaction

    from scoring.services.replay import replay, store_result
    from tournament.models import Game, Round, Seat, Table

    seated = rng.sample(players, len(players) // TABLE_SIZE * TABLE_SIZE)
    with transaction.atomic():
        round_ = Round.objects.create(event=event, number=number, stage=stage)
        tables = Table.objects.bulk_create(
            [Table(round=round_, number=n + 1) for n in range(len(seated) // TABLE_SIZE)]
        )
        for table in tables:
            game = Game.objects.create(event=event, table=table, ended_by_time=True, start={"scores": end_scores(rng)})
            at_table = seated[(table.number - 1) * TABLE_SIZE : table.number * TABLE_SIZE]
            Seat.objects.bulk_create([Seat(game=game, player_id=p, position=s) for s, p in enumerate(at_table)])
            store_result(game, replay(game, []))
    return len(tables)


def enter(stage: Any) -> list[int]:
    """Confirm the cut into ``stage`` (a tie at the line decided as an organiser would: the first of the tied by
    id); its players."""
    from scoring.services.stages import cut_confirm, cut_preview

    preview = cut_preview(stage)
    through = None
    if not preview.cut.decided:
        through = [*preview.cut.through, *sorted(preview.cut.tied_at_line)[: preview.cut.places]]
    return list(cut_confirm(stage=stage, through=through, user=None).through or [])


def build(players: int, seed: int) -> tuple[Any, Any, int]:
    """The event: the first stage played, the second entered and played, the third added (its cut not confirmed).
    Returns the event, the third stage and the number of games."""
    from scoring.services.stages import stage_add
    from tournament.models import Event, Player, Registration

    rng = random.Random(seed)
    event = Event.objects.create(name="Benchmark stages", slug="bench-stages", ruleset_key="wrc-2025", public=True)
    people = Player.objects.bulk_create([Player(name=f"Player {i:04d}") for i in range(players)])
    Registration.objects.bulk_create([Registration(event=event, player=p) for p in people])
    entrants, number, games = [p.pk for p in people], 0, 0
    last = None
    for stage in range(1, len(ROUNDS) + 1):
        if stage > 1:
            top = max(TABLE_SIZE, len(entrants) // 2 // TABLE_SIZE * TABLE_SIZE)
            last = stage_add(event=event, data={"name": f"Stage {stage}", "entry_top": top, "carry": "half"}, user=None)
            if stage == len(ROUNDS):
                break
            entrants = enter(last)
        for _ in range(ROUNDS[stage - 1]):
            number += 1
            games += play_round(event, number, stage, entrants, rng)
    return event, last, games


def timed(call: Callable[[], Any], repeat: int) -> tuple[list[float], int]:
    """Each run's seconds, and the queries of the last run."""
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    timings = []
    for _ in range(repeat):
        reset_queries()
        with CaptureQueriesContext(connection) as queries:
            begin = time.perf_counter()
            call()
            timings.append(time.perf_counter() - begin)
    return timings, len(queries)


def services(args: argparse.Namespace) -> None:
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    from scoring.services.stages import cut_preview
    from scoring.services.standings import standings_recompute
    from scoring.services.standings_rows import stages_ranked

    setup_test_environment()
    if connection.vendor != "sqlite":  # a database of its own: a test run beside it keeps test_<name>
        connection.settings_dict.setdefault("TEST", {})["NAME"] = "test_bench_stages"
    old_name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        begin = time.perf_counter()
        event, last, games = build(args.players, args.seed)
        print(
            f"services on {connection.vendor}, {args.players} players, {len(ROUNDS)} stages, {games} games "
            f"(built in {time.perf_counter() - begin:.0f} s)"
        )
        report(f"cut preview into stage {last.number}:", lambda: cut_preview(last), args.repeat)
        report(f"stages_ranked (stages 1-{last.number - 1}):", lambda: stages_ranked(event), args.repeat)
        report("one standings recompute:", lambda: standings_recompute(event), args.repeat)
        players = enter(last)
        number = event.rounds.count()
        for _ in range(ROUNDS[-1]):
            number += 1
            play_round(event, number, last.number, players, random.Random(args.seed + number))
        print(f"stage {last.number} entered by {len(players)} and played:")
        report(f"stages_ranked (stages 1-{last.number}):", lambda: stages_ranked(event), args.repeat)
        report("one standings recompute:", lambda: standings_recompute(event), args.repeat)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def report(label: str, call: Callable[[], Any], repeat: int) -> None:
    timings, queries = timed(call, repeat)
    print(f"  {label:<34} {figures(timings)}  ({queries} queries)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--stages", type=int, default=3, help="stages of the pure core's event")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--core-only", action="store_true", help="the pure core only, no database")
    args = parser.parse_args(argv)
    core(args)
    if not args.core_only:
        services(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
