"""Benchmark: standings of a big league, with the real services and database.

Run it from the project root (SQLite by default; set DATABASE_URL for PostgreSQL)::

    .venv/bin/python benchmarks/standings.py [--players 400] [--games 4000] [--code DIR]

It builds a league in a fresh test database: players, and games of random but
valid hands (about ten each), stored as the hand-entry service stores them
(Hand rows, the replayed result, GameResult rows). Then it prints:

- the full standings recompute time (target under 10 s), the first and one
  with nothing changed;
- the time to take in one more hand through ``game_record_hand`` on a game
  going on (no standings to update; target under 100 ms);
- the time to end a game (its sheet put with ``ended_by_time``): without a
  broker the standings are brought up to date inside the call;
- a standings read through the API, cold (empty cache): its queries (target
  under 5) and time;
- the full standings page: a cold render, and the answer to its ETag (a 304
  where the page has one);
- the peak memory of the process (target under 500 MB).

``--code DIR`` runs the same measurements on another checkout's code (its
settings, migrations and services), e.g. ``--code /work/main`` for the code
before a change: run the two one after the other, with the same seed, for a
side-by-side comparison. A league of 4,000 players and 40,000 games takes a
few minutes to build on SQLite.

``--keep`` keeps the test database after the run, and a later run with ``--keep`` measures the league kept
instead of building one (migrated to its checkout first): build it once with the code before a change, then
measure the code after it on the same league (which has the games the first run's measurements added, a few).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import django

# The checkout whose code is measured: ``--code DIR``, or this one (read before Django is set up).
CODE = Path(sys.argv[sys.argv.index("--code") + 1] if "--code" in sys.argv[:-1] else __file__).resolve()
CODE = CODE if "--code" in sys.argv[:-1] else CODE.parent.parent
sys.path.insert(0, str(CODE))
os.chdir(CODE)  # Celery puts the working directory first on the path: it must be the measured checkout
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

if TYPE_CHECKING:
    from scoring.sheet.record import HandRecord

VALUES = ((1, 30), (2, 30), (3, 30), (2, 40), (3, 40), (4, 30), (1, 40), (5, None), (6, None))


def random_game(rng: random.Random, ids: list[int]) -> list[HandRecord]:
    """Hand records (players by id) for one complete wrc-2025 hanchan, checked hand by hand by the engine."""
    from rules.game import play_hand
    from rules.hands import Draw, HandResult, Ron, Tsumo, Win
    from rules.presets import get_preset
    from rules.state import start_state

    ruleset = get_preset("wrc-2025")
    state = start_state(ruleset=ruleset)
    records: list[HandRecord] = []
    while not state.finished:
        kind = rng.choices(("ron", "tsumo", "draw"), (50, 30, 20))[0]
        riichi = frozenset(p for p in range(4) if rng.random() < 0.2)
        result: HandResult
        if kind == "draw":
            tenpai = riichi | {p for p in range(4) if rng.random() < 0.4}
            result = Draw(tenpai=frozenset(tenpai), riichi=riichi)
            record: HandRecord = {"result": "draw", "tenpai": sorted(ids[p] for p in tenpai)}
        else:
            winner = rng.randrange(4)
            han, fu = rng.choice(VALUES)
            win = Win(winner=winner, han=han, fu=fu)
            record = {"result": kind, "winner": ids[winner], "han": han}
            if fu is not None:
                record["fu"] = fu
            if kind == "ron":
                loser = rng.choice([p for p in range(4) if p != winner])
                result = Ron(loser=loser, wins=(win,), riichi=riichi)
                record["loser"] = ids[loser]
            else:
                result = Tsumo(win=win, riichi=riichi)
        if riichi:
            record["riichi"] = sorted(ids[p] for p in riichi)
        state = play_hand(ruleset=ruleset, state=state, result=result).after
        records.append(record)
    return records


def build(players: int, games: int, seed: int) -> Any:
    from tournament.models import Event, Player, Registration

    rng = random.Random(seed)
    event = Event.objects.create(name="Benchmark league", slug="bench-league", kind="league", public=True)
    people = Player.objects.bulk_create([Player(name=f"Player {i:04d}") for i in range(players)])
    Registration.objects.bulk_create([Registration(event=event, player=p) for p in people])
    ids = [p.pk for p in people]
    hands = 0
    begin = time.perf_counter()
    for start in range(0, games, BUILD_BATCH):
        tables = [rng.sample(ids, 4) for _ in range(min(BUILD_BATCH, games - start))]
        hands += build_batch(event, [(table, random_game(rng, table)) for table in tables])
        done = start + len(tables)
        if done % 2000 == 0 or done == games:
            print(f"  built {done} games, {hands} hands ({time.perf_counter() - begin:.0f} s)", flush=True)
    return event, hands


def build_batch(event: Any, played: list[tuple[list[int], list[HandRecord]]]) -> int:
    """Games stored as the hand-entry service stores them (hands, the replayed result, GameResult rows), in bulk:
    each sheet scored by the engine in memory, the rows of a batch inserted together (no statistics rows)."""
    from django.db import transaction

    from scoring.models import GameResult, Hand
    from scoring.services.replay import result_rows
    from scoring.sheet.output import result_json
    from scoring.sheet.reader import score_sheet
    from tournament.models import Game, Seat

    with transaction.atomic():
        games = Game.objects.bulk_create([Game(event=event, status=Game.Status.FINISHED) for _ in played])
        seats = Seat.objects.bulk_create(
            [
                Seat(game=g, player_id=p, position=s)
                for g, (table, _) in zip(games, played, strict=True)
                for s, p in enumerate(table)
            ]
        )
        Hand.objects.bulk_create(
            [
                Hand(game=g, index=i, record=r)
                for g, (_, records) in zip(games, played, strict=True)
                for i, r in enumerate(records)
            ]
        )
        results = []
        for n, (game, (table, records)) in enumerate(zip(games, played, strict=True)):
            sheet = {"ruleset": event.ruleset_key, "overrides": event.ruleset_overrides, "players": table}
            scored = score_sheet({**sheet, "hands": records, "penalties": []}, labels=[str(p) for p in table])
            game.result = result_json(scored)
            results += result_rows(game, scored, {s: seats[4 * n + s] for s in range(4)})
        Game.objects.bulk_update(games, ["result"], batch_size=500)
        GameResult.objects.bulk_create(results, batch_size=1000)
    return sum(len(records) for _, records in played)


BUILD_BATCH = 500


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def timed(work: Any) -> tuple[float, Any]:
    begin = time.perf_counter()
    out = work()
    return time.perf_counter() - begin, out


def recomputes(event: Any) -> None:
    from scoring.services.standings import standings_recompute

    first, lines = timed(lambda: standings_recompute(event))
    print(f"full standings recompute:     {first:8.3f} s   ({lines} lines; target < 10 s)")
    again, _ = timed(lambda: standings_recompute(event))
    print(f"  again, nothing changed:     {again:8.3f} s")


def writes(event: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring import tasks
    from scoring.services.games import game_create
    from scoring.services.hands import game_put_sheet, game_record_hand
    from tournament.models import Game

    game = Game.objects.filter(event=event).order_by("id").first()
    assert game is not None
    seats = list(game.seats.order_by("position").values_list("player_id", flat=True))
    # One more hand on a game that is over would be refused; use a fresh game, as a referee would.
    fresh = game_create(event=event, player_ids=seats)
    timings = []
    for winner in range(3):
        record: HandRecord = {"result": "ron", "winner": seats[winner], "loser": seats[3], "han": 3, "fu": 40}
        begin = time.perf_counter()
        game_record_hand(game_id=fresh.pk, record=record, user=None, version=None)
        timings.append(time.perf_counter() - begin)
    print(f"one more hand, game going on: {ms(min(timings))}  best of 3 (target < 100 ms)")
    # Ending a game changes the standings: without a broker they are brought up to date inside the call.
    endings = []
    recomputes = timing(tasks, "standings_catch_up")  # the queued task runs it in the call, without a broker
    for _ in range(5):
        game = game_create(event=event, player_ids=seats)
        records: list[HandRecord] = [{"result": "ron", "winner": seats[0], "loser": seats[3], "han": 3, "fu": 40}]
        with CaptureQueriesContext(connection) as queries:
            begin = time.perf_counter()
            game_put_sheet(game_id=game.pk, hands=records, user=None, version=None, ended_by_time=True)
            endings.append(time.perf_counter() - begin)
    print(
        f"ending a game (by the clock): {ms(sorted(endings)[2])}  median of 5, first {ms(endings[0]).strip()}, "
        f"{len(queries)} queries"
    )
    # What the standings' part costs, apart from storing the game (the same work before and after a change to it).
    walls, cpus = sorted(wall for wall, _ in recomputes), sorted(cpu for _, cpu in recomputes)
    # Its processor time in this process too: on a busy machine the wall time is mostly waiting for a core.
    print(
        f"  of which the recompute:     {ms(walls[len(walls) // 2])}  median of {len(walls)}; "
        f"this process's CPU {ms(cpus[len(cpus) // 2]).strip()}"
    )


def timing(module: Any, name: str) -> list[tuple[float, float]]:
    """The wall and processor times of each call to ``module.name`` from now on (wrapped where the callers look
    it up)."""
    durations: list[tuple[float, float]] = []
    inner = getattr(module, name)

    def timed_call(*args: Any, **kwargs: Any) -> Any:
        begin, cpu = time.perf_counter(), time.process_time()
        try:
            return inner(*args, **kwargs)
        finally:
            durations.append((time.perf_counter() - begin, time.process_time() - cpu))

    setattr(module, name, timed_call)
    return durations


def reads(event: Any) -> None:
    from django.core.cache import cache
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    Client().get("/")  # the first request of a process loads what every later one finds loaded
    APIClient().get("/api/v1/events/")
    cache.clear()
    reset_queries()  # DEBUG logs every query; start the count from an empty log
    with CaptureQueriesContext(connection) as queries:
        took, response = timed(lambda: APIClient().get(f"/api/v1/events/{event.slug}/standings/"))
    assert response.status_code == 200, response.status_code
    page = response.json()
    print(
        f"standings read (API, cold):   {ms(took)}  {len(queries)} queries (target < 5), {page['count']} rows, "
        f"{len(page['results'])} on the first page"
    )
    url = f"/events/{event.slug}/standings/"
    took, first = timed(lambda: Client().get(url))
    print(f"standings page, cold render:  {ms(took)}  {len(first.content) // 1024} KB")
    etag = first.get("ETag")
    answers = [timed(lambda: Client().get(url, headers={"If-None-Match": etag or '"none"'})) for _ in range(5)]
    took = sorted(t for t, _ in answers)[2]
    status = answers[0][1].status_code
    print(f"standings page, its ETag:     {ms(took)}  median of 5: {status}" + ("" if etag else " (no ETag)"))


def kept() -> tuple[Any, int]:
    """The league a run with ``--keep`` left, with its hands; None when there is none."""
    from scoring.models import Hand
    from tournament.models import Event

    event = Event.objects.filter(slug="bench-league").first()
    return event, Hand.objects.filter(game__event=event).count() if event else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--code", default=None, help="another checkout whose code to measure (e.g. /work/main)")
    parser.add_argument("--keep", action="store_true", help="keep the test database, and reuse a league kept")
    args = parser.parse_args(argv)

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, keepdb=args.keep)
    try:
        print(f"Code: {CODE}")
        event, hands = kept() if args.keep else (None, 0)
        if event is None:
            print(f"Building a league of {args.players} players and {args.games} games on {connection.vendor} ...")
            event, hands = build(args.players, args.games, args.seed)
        print(f"{event.games.count()} games, {hands} hands, {event.registrations.count()} players\n")
        recomputes(event)
        writes(event)
        reads(event)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak memory (ru_maxrss):      {rss:8.1f} MB (target < 500 MB)")
    finally:
        if not args.keep:
            connection.creation.destroy_test_db(old_name, verbosity=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
