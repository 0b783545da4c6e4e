"""Benchmark: hand writes per second and statements per write, through the service and through the API.

Run it from the project root, PostgreSQL on 127.0.0.1 (user postgres)::

    .venv/bin/python benchmarks/writes.py --setup          # once: a database of its own, migrated
    .venv/bin/python benchmarks/writes.py [--games 8] [--hands 12]

``--checkout PATH`` runs the code of another checkout of the project (this script is read from here, the
project from there), and ``--database NAME`` names the database (``mahjong_writes`` by default), so that two
checkouts can be run in turn on databases of their own, each prepared once with ``--setup``.

Each run makes a new wrc-2025 event of ``--games`` tables (four players each) and enters ``--hands`` hands
into each game twice over: through ``game_record_hand`` (the service, no key) and through
``POST /api/v1/games/<id>/hands/`` with an ``Idempotency-Key`` (Django's test client, signed in by
``force_authenticate``, DEBUG off, standings in process as without a broker). Every hand is a 1-han ron the
dealer wins from the next player in turn, so the dealer keeps the deal, two scores move and the game goes on
(the common write: a game still being played). It prints writes per second and the statements of one write
(the last game's, counted apart from the timed ones; the sign-in costs none here; BEGIN and COMMIT are
counted), and this process's CPU time per write: on a shared machine the wall time also waits for the
others. A benchmark, not a test:
it asserts nothing and CI does not run it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any, cast

HOST = "127.0.0.1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--database", default="mahjong_writes")
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--setup", action="store_true", help="make the database afresh and migrate it")
    args = parser.parse_args()
    sys.path.insert(0, args.checkout)
    os.chdir(args.checkout)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"postgres://postgres@{HOST}:5432/{args.database}",
        ALLOWED_HOSTS="testserver",
        LOG_LEVEL="WARNING",
    )
    for name in ("CELERY_BROKER_URL", "CACHE_URL", "DEBUG"):
        os.environ.pop(name, None)
    if args.setup:
        setup(args.database)
        return
    import django

    django.setup()
    run(args.games, args.hands)


def setup(database: str) -> None:
    import psycopg

    with psycopg.connect(f"postgresql://postgres@{HOST}:5432/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{database}"')
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def run(games: int, hands: int) -> None:
    from django.contrib.auth.models import User
    from rest_framework.test import APIClient

    from scoring.services.hands import game_record_hand
    from scoring.sheet.record import HandRecord
    from tests.factories import EventFactory, played, registered
    from tournament.models import Event

    tag = uuid.uuid4().hex[:8]
    referee = User.objects.create_user(f"bench-{tag}")
    event = EventFactory.create(slug=f"writes-{tag}", status=Event.Status.RUNNING, referees=[referee])
    tables = [played(event, registered(event, *(f"P{tag}-{g}-{s}" for s in range(4)))) for g in range(2 * games + 2)]
    client = APIClient()
    client.force_authenticate(referee)

    def by_service(game: Any, record: dict[str, Any]) -> None:
        game_record_hand(game_id=game.pk, record=cast(HandRecord, record), user=referee, version=None)

    def by_api(game: Any, record: dict[str, Any]) -> None:
        response = client.post(
            f"/api/v1/games/{game.pk}/hands/", record, format="json", headers={"Idempotency-Key": uuid.uuid4().hex}
        )
        if response.status_code != 201:
            raise SystemExit(f"the API answered {response.status_code}: {response.content[:300]!r}")

    doors = {"service": by_service, "api": by_api}
    print(f"{games} games x {hands} hands per door, PostgreSQL")
    for number, (door, send) in enumerate(doors.items()):
        timed = tables[number * games : (number + 1) * games]
        started, cpu = time.perf_counter(), time.process_time()
        for game in timed:
            enter(game, hands, send)
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        counted = statements(tables[2 * games + number], hands, send)
        writes = games * hands
        print(
            f"{door:8} {writes / elapsed:8.1f} writes/s {1000 * cpu / writes:6.1f} ms CPU per write (this process) "
            f"{counted:5.1f} statements per write"
        )


def enter(game: Any, hands: int, send: Any) -> None:
    seats = list(game.seats.order_by("position").values_list("player_id", flat=True))
    for number in range(hands):
        send(game, {"result": "ron", "winner": seats[0], "loser": seats[1 + number % 3], "han": 1, "fu": 30})


def statements(game: Any, hands: int, send: Any) -> float:
    """The mean statements of a write, over ``hands`` writes to one game (the first hand's costs one more)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        enter(game, hands, send)
    return len(captured) / hands


if __name__ == "__main__":
    main()
