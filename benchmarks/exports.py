"""Benchmark: a big league's exports and print pages, before and after a change, side by side in one run.

Run it from the project root (on an SQLite file of its own, in a temporary folder)::

    .venv/bin/python benchmarks/exports.py [--games 10000] [--players 4000] [--tables 100] [--before main]

It builds one league cheaply: one game of random but valid hands played through the services, then
``--games`` games copied from it in bulk (each with the same 6-9 KB stored result JSON, its seats and its
GameResult rows, as the hand-entry service leaves them), the first ``--tables`` of them seated at round 1's
tables. Then it extracts the ``--before`` revision (``git archive``) into a temporary folder and, ``--runs``
times, alternately with that code and with this checkout's, times in a process of its own (the same
database, the same Python):

- ``results.csv`` through the page (``?header=keys``): the time to the first byte and to the last, the
  size, the process's peak memory, and whether both wrote the same bytes;
- the round's print page (a QR code per table): opened once, then again.

It prints the medians side by side with their ratio. Targets: ``results.csv`` of 10,000 games under 3 s;
the print page opened again without drawing its codes. It is a benchmark, not a test: CI does not run it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import argparse
import hashlib
import json
import random
import resource
import statistics
import subprocess
import tarfile
import tempfile
import time
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SLUG = "export-league"
FIGURES = (
    ("csv_first_byte_s", "results.csv, first byte", "s"),
    ("csv_s", "results.csv, whole file", "s"),
    ("csv_mb", "results.csv, size", "MB"),
    ("print_first_s", "print page, first opening", "s"),
    ("print_again_s", "print page, opened again", "s"),
    ("peak_mb", "peak memory of the process", "MB"),
)


# --- the league ---------------------------------------------------------------------------------------


def build(players: int, games: int, tables: int, seed: int) -> None:
    """The league, built once: one real game, then ``games`` copies of it in bulk."""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from scoring.models import GameResult
    from scoring.services.games import game_create
    from scoring.services.hands import game_put_sheet
    from tournament.models import Event, Game, Player, Registration, Round, Seat, Table

    rng = random.Random(seed)
    event = Event.objects.create(name="Export league", slug=SLUG, kind="league", public=True)
    people = Player.objects.bulk_create([Player(name=f"Player {i:04d}") for i in range(players)])
    Registration.objects.bulk_create([Registration(event=event, player=p) for p in people])
    ids = [p.pk for p in people]
    model = game_create(event=event, player_ids=ids[:4])
    # Hands that keep the dealer (a dealer ron, everyone tenpai at a draw), ended by the clock: a real result.
    hands: list[Any] = [
        {"result": "ron", "winner": ids[0], "loser": ids[1 + n % 3], "han": 1 + n % 4, "fu": 30}
        if n % 2
        else {"result": "draw", "tenpai": ids[:4]}
        for n in range(12)
    ]
    model = game_put_sheet(game_id=model.pk, hands=hands, user=None, version=None, ended_by_time=True)
    lines = list(GameResult.objects.filter(game=model).order_by("player_id").values())
    round_ = Round.objects.create(event=event, number=1)
    seated = Table.objects.bulk_create([Table(round=round_, number=n + 1) for n in range(tables)])
    copies = Game.objects.bulk_create(
        [
            Game(event=event, status=model.status, version=model.version, start=model.start, result=model.result)
            for _ in range(games - 1)
        ],
        batch_size=500,
    )
    for game, table in zip(copies, seated, strict=False):
        game.table = table
    Game.objects.bulk_update(copies[:tables], ["table"], batch_size=500)
    seats, results = [], []
    for game in copies:
        four = rng.sample(ids, 4)
        seats += [Seat(game=game, player_id=p, position=s) for s, p in enumerate(four)]
        for line, player in zip(lines, sorted(four), strict=True):
            results.append(GameResult(**{**line, "id": None, "game_id": game.pk, "player_id": player}))
    Seat.objects.bulk_create(seats, batch_size=2000)
    GameResult.objects.bulk_create(results, batch_size=2000)
    size = len(json.dumps(model.result))
    print(f"{games} games ({size / 1024:.1f} KB of stored result each), {players} players, {tables} tables")


# --- one measurement, in a process of its own --------------------------------------------------------


def measure(root: Path) -> dict[str, Any]:
    """Time the pages with the project's code from ``root`` (this process imports nothing else of it)."""
    sys.path[0:0] = [str(root)]
    os.chdir(root)
    import django

    django.setup()
    from django.test import Client

    client, figures = Client(), dict[str, Any]()
    # Warm: the URLs, the templates' loaders and the rulesets are read on the first request of a process.
    assert client.get(f"/events/{SLUG}/rounds/2/").status_code == 404
    assert client.get(f"/events/{SLUG}/results.csv?header=none").status_code == 400
    began = time.perf_counter()
    response = client.get(f"/events/{SLUG}/results.csv?header=keys")
    assert response.status_code == 200, response.status_code
    digest, size, first = hashlib.sha256(), 0, None
    pieces = getattr(response, "streaming_content", None) or [response.content]  # before: one piece
    for piece in pieces:
        first = first if first is not None else time.perf_counter() - began
        digest.update(piece)
        size += len(piece)
    figures["csv_s"] = time.perf_counter() - began
    figures["csv_first_byte_s"], figures["csv_mb"], figures["csv_sha256"] = first, size / 2**20, digest.hexdigest()
    for name in ("print_first_s", "print_again_s"):
        began = time.perf_counter()
        assert client.get(f"/events/{SLUG}/rounds/1/print/").status_code == 200
        figures[name] = time.perf_counter() - began
    figures["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return figures


def measured(root: Path, env: dict[str, str]) -> dict[str, Any]:
    command = [sys.executable, str(Path(__file__).resolve()), "--measure", str(root)]
    done = subprocess.run(command, env=env, cwd=root, capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"the measurement with {root} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def checkout(revision: str, into: Path) -> Path:
    """The ``revision``'s files (``git archive``), unpacked under ``into``."""
    archive = into / "before.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), revision], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "before", filter="data")
    return into / "before"


def report(before: str, runs: dict[str, list[dict[str, Any]]]) -> None:
    print(f"\nmedians of {len(runs['after'])} runs, before ({before}) and after (this checkout) alternately:")
    print(f"  {'':32} {'before':>10} {'after':>10} {'after/before':>13}")
    for key, label, unit in FIGURES:
        old, new = (statistics.median(run[key] for run in runs[side]) for side in ("before", "after"))
        print(f"  {label:32} {old:9.3f}{unit[0]} {new:9.3f}{unit[0]} {new / old if old else float('nan'):12.3f}x")
    same = {run["csv_sha256"] for side in runs.values() for run in side}
    print(f"  results.csv the same bytes before and after: {'yes' if len(same) == 1 else 'NO'}")
    print("  targets: results.csv under 3 s; the print page opened again without drawing its codes")


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.measure:
        print(json.dumps(measure(Path(args.measure))))
        return 0
    with tempfile.TemporaryDirectory(prefix="exports-bench-") as folder:
        where = Path(args.keep or folder)
        where.mkdir(parents=True, exist_ok=True)
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{where / 'league.sqlite3'}",
            "ALLOWED_HOSTS": "testserver",
            "DEBUG": "0",
            "CACHE_URL": "",
        }
        os.environ.update(env)
        began = time.perf_counter()
        build(args.players, args.games, args.tables, args.seed)
        print(f"built in {time.perf_counter() - began:.1f} s", flush=True)
        roots = {"before": checkout(args.before, where), "after": ROOT}
        runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
        for n in range(args.runs):
            for side, root in roots.items():
                runs[side].append(measured(root, env))
            print(
                f"  run {n + 1}: results.csv {runs['before'][-1]['csv_s']:.2f} s -> {runs['after'][-1]['csv_s']:.2f} s"
            )
        report(args.before, runs)
        if args.keep:
            print(f"kept: the league and the 'before' code in {where}; a side alone, timed from outside:")
            print(
                f"  DATABASE_URL={env['DATABASE_URL']} ALLOWED_HOSTS=testserver {sys.executable} {__file__} "
                "--measure CHECKOUT"
            )
    return 0


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=4_000)
    parser.add_argument("--tables", type=int, default=100, help="round 1's tables, each with a game: the print page")
    parser.add_argument("--runs", type=int, default=3, help="measurements of each side, alternately")
    parser.add_argument("--before", default="main", help="the git revision measured as 'before'")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--keep", default="", help="build in this (new) folder and keep it, to time a side again")
    parser.add_argument("--measure", default="", help=argparse.SUPPRESS)  # the child: the checkout to import
    return parser


if __name__ == "__main__":
    sys.exit(main())
