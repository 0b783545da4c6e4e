"""Benchmark: the EMA ranking of 10,000 players over 5 years of events, on one date.

Run it from the project root (SQLite by default; set DATABASE_URL for PostgreSQL)::

    .venv/bin/python benchmarks/rankings.py [--players 10000] [--years 5] [--events-per-year 80]

It draws a federation of players and five years of events (each with 20 to 200 players from the federation, one
to three days, up to 15 countries, the last ones after the COVID freeze), then prints:

- the pure computation (rules.rankings: every active result's score, weight and time factor, the two-part
  average, the ranks, the country figures) on one date (target under 10 s, the whole of it);
- the same week stored as a snapshot with every row's explanation and the changes since the week before, from the
  results in the database (scoring.services.rankings.mers_snapshot: read, compute twice, write), in a fresh test
  database (target under 10 s);
- a page of that ranking read through the API (queries and time);
- the peak memory of the process.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import argparse
import random
import resource
import time
from datetime import date, timedelta

import django

COUNTRIES = (
    "AT",
    "BE",
    "CH",
    "CZ",
    "DE",
    "DK",
    "ES",
    "FI",
    "FR",
    "GB",
    "HU",
    "IT",
    "NL",
    "PL",
    "PT",
    "SE",
    "SK",
    "UA",
    "IE",
    "NO",
)


def federation(players: int, rng: random.Random) -> list[tuple[str, str]]:
    """(EMA number, country) for each player."""
    return [(f"{n:08d}", rng.choice(COUNTRIES)) for n in range(1, players + 1)]


def calendar(years: int, per_year: int, on: date, rng: random.Random) -> list[tuple[str, date, int, int]]:
    """(id, first day, days, players) of the events of the ``years`` before ``on``."""
    first = on - timedelta(days=365 * years)
    days = (on - first).days
    return [
        (f"E{n:05d}", first + timedelta(days=rng.randrange(days)), rng.choice((1, 2, 2, 3)), rng.randrange(20, 201))
        for n in range(years * per_year)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--years", type=int, default=5)
    parser.add_argument("--events-per-year", type=int, default=80)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--on", type=date.fromisoformat, default=date(2026, 11, 23))
    args = parser.parse_args(argv)

    django.setup()
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from rest_framework.test import APIClient

    from rules.rankings.mers import RankedEvent, Result, country_figures, mers_ranking
    from scoring.models import RankedEvent as StoredEvent
    from scoring.models import RankedResult
    from scoring.services.rankings import mers_snapshot

    rng = random.Random(args.seed)
    people = federation(args.players, rng)
    country_of = dict(people)
    events, results = [], []
    for key, day, length, size in calendar(args.years, args.events_per_year, args.on, rng):
        field = rng.sample(people, size)
        countries = len({c for _, c in field})
        events.append(RankedEvent(key=key, starts_on=day, days=length, players=size, countries=countries))
        results += [Result(key, fid, place) for place, (fid, _) in enumerate(field, start=1)]
    print(f"{args.players} players, {len(events)} events over {args.years} years, {len(results)} results")

    begin = time.perf_counter()
    ranking = mers_ranking(events, results, args.on)
    figures = country_figures(ranking, country_of)
    pure = time.perf_counter() - begin
    print(
        f"pure ranking on {args.on}:     {pure:8.3f} s   ({len(ranking.lines)} listed, {len(figures)} countries; "
        "target < 10 s)"
    )

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        stored = StoredEvent.objects.bulk_create(
            StoredEvent(
                ranking="ema",
                external_id=e.key,
                name=e.key,
                starts_on=e.starts_on,
                days=e.days,
                players=e.players,
                countries=e.countries,
            )
            for e in events
        )
        ids = {e.external_id: e.pk for e in stored}
        RankedResult.objects.bulk_create(
            (
                RankedResult(
                    ranked_event_id=ids[r.event],
                    federation_id=r.player,
                    name=f"Player {r.player}",
                    country=country_of[r.player],
                    place=r.place,
                )
                for r in results
            ),
            batch_size=5000,
        )
        begin = time.perf_counter()
        snapshot = mers_snapshot("ema", args.on)
        built = time.perf_counter() - begin
        print(
            f"snapshot stored ({connection.vendor}):  {built:8.3f} s   ({snapshot.lines.count()} rows with their "
            "explanations and the changes since the week before; target < 10 s)"
        )
        reads = []
        for _ in range(3):  # the first read also loads the API's code
            reset_queries()
            begin = time.perf_counter()
            with CaptureQueriesContext(connection) as queries:
                response = APIClient().get(f"/api/v1/rankings/ema/?as_of={args.on.isoformat()}")
            reads.append(time.perf_counter() - begin)
            assert response.status_code == 200, response.content[:300]
        print(
            f"API page read:               {min(reads) * 1000:8.1f} ms  best of 3, first {reads[0] * 1000:.1f} ms "
            f"({len(queries)} queries, {len(response.json()['results'])} rows of {response.json()['count']})"
        )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (ru_maxrss):     {rss:8.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
