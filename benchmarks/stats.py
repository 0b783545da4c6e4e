"""Benchmark: a player's career statistics and an event's leaderboards, with the real services and database.

Run it from the project root (SQLite by default; set DATABASE_URL for PostgreSQL)::

    .venv/bin/python benchmarks/stats.py [--career 2000] [--players 1000] [--hands 100000]

It builds, in a fresh test database, a pool of real replays (random but valid wrc-2025 hanchan, about ten hands
each, scored by the rules and counted by ``scoring.sheet.seat_counts``), then seats them again and again:

- one player's career of ``--career`` games over ten events, and a tenth more in a private event, which the
  statistics a stranger reads must leave out;
- an event of ``--players`` players with games until it holds ``--hands`` hands.

Only the rows the statistics read are written (games, seats, GameResult and GameStats rows): the hands
themselves are not, since nothing here reads them. Then it prints:

- the career statistics through the service and through ``GET /api/v1/players/{id}/stats/`` (target under
  50 ms), with their queries for a tenth of the career and for all of it (the same: constant);
- the career page;
- the event's leaderboards through the service and the API, and the CSV of every player's figures.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import argparse
import importlib
import json
import random
import statistics
import time
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import django

if TYPE_CHECKING:
    from scoring.sheet.output import Result

POOL = 400  # distinct replayed games, seated again with other players
EVENTS = 10  # the career's events


def replayed_pool(rng: random.Random, size: int) -> list[Result]:
    """``size`` results (players by seat) of complete random hanchan, as store_result stores them."""
    from scoring.sheet.output import result_json
    from scoring.sheet.reader import score_sheet

    # The standings benchmark's random hanchan; imported by name, as each benchmark is a script of its own.
    random_game = importlib.import_module("benchmarks.standings").random_game
    seats = ["0", "1", "2", "3"]
    out = []
    for _ in range(size):
        records = random_game(rng, seats)
        scored = score_sheet({"ruleset": "wrc-2025", "players": seats, "hands": records})
        out.append(json.loads(json.dumps(result_json(scored))))
    return out


def seat_game(
    event: Any, result: Result, players: list[int], played_on: Any, rows: dict[str, list[Any]], game_id: int
) -> None:
    """The rows of one game (unsaved, ids given so that the bulk inserts need no round trip per game)."""
    from collections import Counter

    from scoring.models import GameResult
    from scoring.services.game_stats import stats_rows
    from tournament.models import Game, Seat

    game = Game(pk=game_id, event=event, status=Game.Status.FINISHED, result=result, played_on=played_on)
    rows["games"].append(game)
    rows["seats"].extend(Seat(game_id=game_id, player_id=p, position=s) for s, p in enumerate(players))
    ranks = Counter(r["rank"] for r in result["final"])
    results = [
        GameResult(
            game_id=game_id,
            player_id=players[r["player"]],
            event_id=event.pk,
            finished=True,
            rank=Decimal(r["rank"]) + Decimal(ranks[r["rank"]] - 1) / 2,
            score=r["score"],
            points=Decimal(str(r["points"])),
            penalty=Decimal(str(r["penalty"])),
        )
        for r in result["final"]
    ]
    rows["results"].extend(results)
    rows["stats"].extend(stats_rows(game, result, results, {p: s for s, p in enumerate(players)}))


def write(rows: dict[str, list[Any]]) -> None:
    from scoring.models import GameResult, GameStats
    from tournament.models import Game, Seat

    for model, key in ((Game, "games"), (Seat, "seats"), (GameResult, "results"), (GameStats, "stats")):
        model.objects.bulk_create(rows[key], batch_size=2000)
        rows[key].clear()


def build(args: argparse.Namespace) -> tuple[Any, Any, int]:
    """The career player, the big event, and the big event's hands."""
    from datetime import date, timedelta

    from tournament.models import Event, Player, Registration

    rng = random.Random(args.seed)
    pool = replayed_pool(rng, POOL)
    rows: dict[str, list[Any]] = {"games": [], "seats": [], "results": [], "stats": []}
    game_id = 1
    me = Player.objects.create(name="Career player")
    others = Player.objects.bulk_create([Player(name=f"Opponent {i:03d}") for i in range(60)])
    # Ten public events make the career; an eleventh, private, is left out of what a stranger reads.
    for e in range(EVENTS + 1):
        event = Event.objects.create(name=f"Career event {e}", slug=f"career-{e}", public=e < EVENTS)
        Registration.objects.bulk_create([Registration(event=event, player=p) for p in [me, *others]])
        for g in range(args.career // EVENTS):
            table = [me.pk, *(p.pk for p in rng.sample(others, 3))]
            rng.shuffle(table)
            seat_game(
                event, rng.choice(pool), table, date(2020, 1, 1) + timedelta(days=e * 100 + g // 8), rows, game_id
            )
            game_id += 1
    write(rows)
    big = Event.objects.create(name="Big event", slug="big-event", public=True, starts_on=date(2026, 5, 1))
    people = Player.objects.bulk_create([Player(name=f"Player {i:04d}") for i in range(args.players)])
    Registration.objects.bulk_create([Registration(event=big, player=p) for p in people])
    hands = 0
    while hands < args.hands:
        result = rng.choice(pool)
        seat_game(big, result, [p.pk for p in rng.sample(people, 4)], date(2026, 5, 1), rows, game_id)
        game_id += 1
        hands += sum(1 for h in result["hands"] if h["result"] != "chombo")
        if len(rows["games"]) >= 2000:
            write(rows)
    write(rows)
    return me, big, hands


def timed(run: Callable[[], Any], times: int = 7) -> tuple[float, float, Any]:
    """Median and best of ``times`` runs, in ms, and the last answer."""
    spent, answer = [], None
    for _ in range(times):
        begin = time.perf_counter()
        answer = run()
        spent.append((time.perf_counter() - begin) * 1000)
    return statistics.median(spent), min(spent), answer


def queries_of(run: Callable[[], Any]) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        run()
    return len(queries)


def report(me: Any, big: Any) -> None:
    from django.contrib.auth.models import AnonymousUser
    from django.test import Client
    from rest_framework.test import APIClient

    from scoring.services.leaderboards import event_leaderboards, leaderboards_csv
    from scoring.services.stats import StatsFilter, player_stats, read_filter

    anonymous, api, web = AnonymousUser(), APIClient(), Client()
    median, best, figures = timed(lambda: player_stats(me, anonymous, StatsFilter()))
    print(
        f"career statistics (service):  {median:7.1f} ms median, {best:.1f} best (target < 50 ms): "
        f"{figures['games']} games, {figures['hands']} hands, win rate {figures['win_rate']}"
    )
    median, best, response = timed(lambda: api.get(f"/api/v1/players/{me.pk}/stats/"))
    assert response.status_code == 200, response.content[:200]
    print(f"career statistics (API):      {median:7.1f} ms median, {best:.1f} best")
    tenth = read_filter({"event": "career-1"}, anonymous)
    print(
        f"queries, a tenth / all:       {queries_of(lambda: player_stats(me, anonymous, tenth))} / "
        f"{queries_of(lambda: player_stats(me, anonymous, StatsFilter()))} (service), "
        f"{queries_of(lambda: api.get(f'/api/v1/players/{me.pk}/stats/?event=career-1'))} / "
        f"{queries_of(lambda: api.get(f'/api/v1/players/{me.pk}/stats/'))} (API)"
    )
    median, best, page = timed(lambda: web.get(f"/players/{me.pk}/"), times=5)
    assert page.status_code == 200
    print(
        f"career page:                  {median:7.1f} ms median, {best:.1f} best, "
        f"{queries_of(lambda: web.get(f'/players/{me.pk}/'))} queries"
    )
    median, best, boards = timed(lambda: event_leaderboards(big), times=5)
    print(
        f"leaderboards (service):       {median:7.1f} ms median, {best:.1f} best: {boards.players} players, "
        f"min_hands {boards.min_hands}"
    )
    median, best, _ = timed(lambda: api.get(f"/api/v1/events/{big.slug}/leaderboards/"), times=5)
    print(
        f"leaderboards (API):           {median:7.1f} ms median, {best:.1f} best, "
        f"{queries_of(lambda: api.get(f'/api/v1/events/{big.slug}/leaderboards/'))} queries"
    )
    median, best, _ = timed(lambda: web.get(f"/events/{big.slug}/leaderboards/"), times=5)
    print(f"leaderboards page:            {median:7.1f} ms median, {best:.1f} best")
    median, best, text = timed(lambda: leaderboards_csv(big), times=3)
    print(f"every player's figures (CSV): {median:7.1f} ms median, {best:.1f} best, {text.count(chr(10)) - 1} lines")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--career", type=int, default=2000)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args(argv)

    django.setup()
    import logging

    logging.disable(logging.INFO)  # every request is logged: the figures are the output
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    old_name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        begin = time.perf_counter()
        me, big, hands = build(args)
        print(
            f"Built on {connection.vendor} in {time.perf_counter() - begin:.0f} s: a career of {args.career} games "
            f"in {EVENTS} events (and {args.career // EVENTS} more in a private one), and an event of "
            f"{args.players} players, {big.games.count()} games, {hands} hands\n"
        )
        report(me, big)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
