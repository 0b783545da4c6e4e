"""Benchmark: standings of a big league, with the real services and database.

Run it from the project root (SQLite by default; set DATABASE_URL for PostgreSQL)::

    .venv/bin/python benchmarks/standings.py [--players 400] [--games 4000]

It builds a league in a fresh test database: players, and games of random but
valid hands (about ten each), stored as the hand-entry service stores them
(Hand rows, the replayed result, GameResult rows). Then it prints:

- the full standings recompute time (target under 10 s);
- the time to take in one more hand through ``game_record_hand``, which
  replays that game and, eagerly, recomputes the standings (target under 100 ms);
- the number of queries of a standings read through the API (target under 5);
- the peak memory of the process (target under 500 MB).
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
from typing import TYPE_CHECKING, Any

import django

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
    from django.db import transaction

    from scoring.models import Hand
    from scoring.services.replay import replay, store_result
    from tournament.models import Event, Game, Player, Registration, Seat

    rng = random.Random(seed)
    event = Event.objects.create(name="Benchmark league", slug="bench-league", kind="league", public=True)
    people = Player.objects.bulk_create([Player(name=f"Player {i:03d}") for i in range(players)])
    Registration.objects.bulk_create([Registration(event=event, player=p) for p in people])
    ids = [p.pk for p in people]
    hands = 0
    begin = time.perf_counter()
    for n in range(games):
        table = rng.sample(ids, 4)
        records = random_game(rng, table)
        with transaction.atomic():
            game = Game.objects.create(event=event)
            Seat.objects.bulk_create([Seat(game=game, player_id=p, position=s) for s, p in enumerate(table)])
            Hand.objects.bulk_create([Hand(game=game, index=i, record=r) for i, r in enumerate(records)])
            store_result(game, replay(game, records))
        hands += len(records)
        if (n + 1) % 500 == 0:
            print(f"  built {n + 1} games, {hands} hands ({time.perf_counter() - begin:.0f} s)", flush=True)
    return event, hands


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)

    django.setup()
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from rest_framework.test import APIClient

    from scoring.services.games import game_create
    from scoring.services.hands import game_put_sheet, game_record_hand
    from scoring.services.standings import standings_recompute
    from tournament.models import Game

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        print(f"Building a league of {args.players} players and {args.games} games on {connection.vendor} ...")
        event, hands = build(args.players, args.games, args.seed)
        print(f"{args.games} games, {hands} hands\n")

        begin = time.perf_counter()
        lines = standings_recompute(event)
        full = time.perf_counter() - begin
        print(f"full standings recompute:     {full:8.3f} s   ({lines} lines; target < 10 s)")

        game = Game.objects.filter(event=event).order_by("id").first()
        assert game is not None
        seats = list(game.seats.order_by("position").values_list("player_id", flat=True))
        # One more hand on a game that is over would be refused; use a fresh game, as a referee would.
        fresh = game_create(event=event, player_ids=seats)
        timings = []
        for winner in range(3):
            begin = time.perf_counter()
            game_record_hand(
                game_id=fresh.pk,
                record={"result": "ron", "winner": seats[winner], "loser": seats[3], "han": 3, "fu": 40},
                user=None,
                version=None,
            )
            timings.append(time.perf_counter() - begin)
        print(f"one more hand, game going on: {min(timings) * 1000:7.1f} ms  best of 3 (target < 100 ms)")
        # Ending a game changes the standings: eager Celery recomputes them inside the call.
        endings = []
        for _ in range(3):
            game = game_create(event=event, player_ids=seats)
            records: list[HandRecord] = [{"result": "ron", "winner": seats[0], "loser": seats[3], "han": 3, "fu": 40}]
            begin = time.perf_counter()
            game_put_sheet(game_id=game.pk, hands=records, user=None, version=None, ended_by_time=True)
            endings.append(time.perf_counter() - begin)
        print(
            f"ending a game (by the clock): {min(endings) * 1000:7.1f} ms  best of 3, first "
            f"{endings[0] * 1000:.1f} ms (replay + the whole league's standings)"
        )

        client = APIClient()
        reset_queries()  # DEBUG logs every query; start the count from an empty log
        with CaptureQueriesContext(connection) as queries:
            response = client.get(f"/api/v1/events/{event.slug}/standings/")
        assert response.status_code == 200
        page = response.json()
        print(
            f"standings read:               {len(queries):8d} queries (target < 5), {page['count']} rows, "
            f"{len(page['results'])} on the first page"
        )
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak memory (ru_maxrss):      {rss:8.1f} MB (target < 500 MB)")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
