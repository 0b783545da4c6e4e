"""Benchmark: 1,000 watchers of the live endpoint, what each costs the server, and how soon they see a hand.

Run it from the project root (Redis on 127.0.0.1; SQLite by default, ``--postgres`` for PostgreSQL)::

    .venv/bin/python benchmarks/live.py [--watchers 1000] [--every 3] [--seconds 30] [--workers 2]

It builds, through the services, a wrc-2025 event of 48 players seated at 12 tables (a fresh SQLite file in a
temporary folder, or with ``--postgres`` a database of its own, ``mahjong_live``, dropped and made again), and
starts gunicorn (DEBUG off) on the Redis cache ``--cache`` (database 13 by default, flushed first: the live
version is kept in the cache every web process shares). Then ``--watchers`` simulated browsers poll
``/events/<slug>/live/`` every ``--every`` seconds (a random phase each) with ``If-None-Match``, as live.js
does, one connection per poll, while this process saves a hand at a random table every ``--write-every``
seconds through ``game_record_hand``. It prints requests per second, the share of 304, the latency p50/p99,
the server's CPU per request (gunicorn's processes' user + system time over the requests they answered),
the database queries of one 304 and of one 200, and how long after a hand's commit the watchers saw it
(p50/p99/max). A benchmark, not a test: it asserts nothing and CI does not run it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import argparse
import asyncio
import json
import multiprocessing
import random
import secrets
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import django

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
SLUG = "live-bench"


@dataclass
class Seen:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    first_seen: dict[int, list[float]] = field(default_factory=dict)  # version -> when each watcher first saw it
    errors: int = 0


def environment(args: argparse.Namespace, folder: Path) -> dict[str, str]:
    database = (
        f"postgres://postgres@{HOST}:5432/mahjong_live" if args.postgres else f"sqlite:///{folder / 'live.sqlite3'}"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "DATABASE_", "CACHE_"))}
    env.update(
        DATABASE_URL=database,
        CACHE_URL=args.cache,
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(40)[:50],
        ALLOWED_HOSTS=HOST,
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    return env


def fresh_database() -> None:
    import psycopg

    with psycopg.connect(f"postgresql://postgres@{HOST}:5432/postgres", autocommit=True) as conn:
        conn.execute('DROP DATABASE IF EXISTS "mahjong_live" WITH (FORCE)')
        conn.execute('CREATE DATABASE "mahjong_live"')


def build() -> list[tuple[int, list[int]]]:
    """The event, 48 players, round 1 seated at 12 tables: (game id, its players' ids in seat order)."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from scoring.services.games import round_seat
    from tournament.models import Event
    from tournament.services.events import event_create, player_register, round_add
    from tournament.services.seating import Method

    call_command("migrate", verbosity=0)
    organiser = get_user_model().objects.create_user("organiser")
    event = event_create(
        organiser=organiser, name="Live Bench", ruleset_key="wrc-2025", public=True, status=Event.Status.RUNNING
    )
    for n in range(48):
        player_register(event=event, name=f"Player {n:02d}")
    round_add(event=event)
    games = round_seat(event=event, number=1, method=Method.RANDOM, seed=1)
    return [(game.pk, list(game.seats.order_by("position").values_list("player_id", flat=True))) for game in games]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def warm_up(port: int, workers: int) -> None:
    """Wait for the server, then have every worker answer a few polls (its first answers read templates, URLs)."""
    for _ in range(200):
        try:
            socket.create_connection((HOST, port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)

    async def polls() -> None:
        for _ in range(5):
            await asyncio.gather(*(poll(port, None) for _ in range(workers * 4)))

    asyncio.run(polls())


def cpu_seconds(pid: int) -> float:
    """User and system time of a process and its children still running (gunicorn's master and workers)."""
    total = 0.0
    pids = [pid, *(int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split())]
    ticks = os.sysconf("SC_CLK_TCK")
    for one in pids:
        fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def queries_per_answer() -> tuple[int, int]:
    """The database queries of one anonymous 304 and one 200, counted in this process."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST=HOST)
    with CaptureQueriesContext(connection) as full:
        etag = client.get(f"/events/{SLUG}/live/")["ETag"]
    with CaptureQueriesContext(connection) as unchanged:
        assert client.get(f"/events/{SLUG}/live/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    return len(unchanged.captured_queries), len(full.captured_queries)


async def poll(port: int, etag: str | None) -> tuple[int, str | None, dict[str, Any] | None]:
    reader, writer = await asyncio.open_connection(HOST, port)
    head = f"GET /events/{SLUG}/live/ HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\nAccept: application/json\r\n"
    writer.write((head + (f"If-None-Match: {etag}\r\n" if etag else "") + "\r\n").encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    header, _, body = raw.partition(b"\r\n\r\n")
    lines = header.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return status, headers.get("etag", etag), json.loads(body) if status == 200 else None


async def watcher(port: int, every: float, until: float, seen: Seen) -> None:
    etag: str | None = None
    version = None
    await asyncio.sleep(random.uniform(0, every))
    while time.monotonic() < until:
        began = time.monotonic()
        try:
            status, etag, body = await poll(port, etag)
        except OSError:
            seen.errors += 1
            await asyncio.sleep(every)
            continue
        done = time.monotonic()
        seen.latencies.append(done - began)
        seen.statuses[status] = seen.statuses.get(status, 0) + 1
        if body is not None and body["version"] != version:
            version = body["version"]
            seen.first_seen.setdefault(version, []).append(time.time())
        await asyncio.sleep(max(0.0, every - (time.monotonic() - began)))


def writer(games: list[tuple[int, list[int]]], every: float, until: float, commits: Any) -> None:
    """A hand at a random table every ``every`` seconds: a draw with everyone tenpai (the game never ends). Run in
    a process of its own: the watchers' loop must not wait for the replay."""
    from django.db import connections

    from scoring.services.hands import game_record_hand
    from scoring.services.live import live_version
    from tournament.models import Game

    connections.close_all()  # the parent's connection stays the parent's
    rng = random.Random(7)
    event_id = Game.objects.get(pk=games[0][0]).event_id
    while time.time() < until - every:
        time.sleep(every)
        game_id, players = rng.choice(games)
        game_record_hand(game_id=game_id, record={"result": "draw", "tenpai": players}, user=None, version=None)
        commits[live_version(event_id)] = time.time()  # bumped on the commit, before this returns


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def watchers(port: int, count: int, every: float, until: float) -> Seen:
    """``count`` watchers in one process's event loop, until the wall-clock time ``until``."""
    seen = Seen()
    left = until - time.time()

    async def run() -> None:
        ends = time.monotonic() + left
        await asyncio.gather(*(watcher(port, every, ends, seen) for _ in range(count)))

    asyncio.run(run())
    return seen


def measure(args: argparse.Namespace, games: list[tuple[int, list[int]]], port: int, pid: int) -> None:
    """The watchers in ``--clients`` processes (one event loop does not keep up with 1,000 on a busy machine),
    the writer in one more."""
    from django.db import connections

    connections.close_all()
    fork = multiprocessing.get_context("fork")
    with multiprocessing.Manager() as manager, fork.Pool(args.clients) as pool:
        commits = manager.dict()
        until = time.time() + args.seconds
        writing = fork.Process(target=writer, args=(games, args.write_every, until, commits), daemon=True)
        cpu_before, began = cpu_seconds(pid), time.monotonic()
        writing.start()
        shares = [args.watchers // args.clients + (n < args.watchers % args.clients) for n in range(args.clients)]
        parts = pool.starmap(watchers, [(port, share, args.every, until) for share in shares])
        elapsed, cpu = time.monotonic() - began, cpu_seconds(pid) - cpu_before
        writing.join()
        seen = Seen()
        for part in parts:
            seen.latencies += part.latencies
            seen.errors += part.errors
            for status, n in part.statuses.items():
                seen.statuses[status] = seen.statuses.get(status, 0) + n
            for version, whens in part.first_seen.items():
                seen.first_seen.setdefault(version, []).extend(whens)
        report(args, seen, dict(commits), elapsed, cpu)


def report(args: argparse.Namespace, seen: Seen, commits: dict[int, float], elapsed: float, cpu: float) -> None:
    answered = sum(seen.statuses.values())
    delays = [
        when - commits[version] for version, whens in seen.first_seen.items() if version in commits for when in whens
    ]
    not_modified, full = queries_per_answer()
    print(
        f"{args.watchers} watchers ({args.clients} processes) polling every {args.every:g} s for {elapsed:.0f} s; "
        "a hand every "
        f"{args.write_every:g} s ({len(commits)} hands); gunicorn {args.workers} workers; "
        f"{'PostgreSQL' if args.postgres else 'SQLite'}, Redis cache"
    )
    print(
        f"  load average of the machine at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
        "(the watchers share it: a busy machine slows the clients, not only the server)"
    )
    print(f"  requests: {answered} ({answered / elapsed:.0f}/s), {seen.errors} failed; statuses {seen.statuses}")
    print(f"  304: {seen.statuses.get(304, 0) / max(answered, 1):.1%} of the answers")
    print(
        f"  latency: p50 {percentile(seen.latencies, 0.5) * 1000:.1f} ms, p99 "
        f"{percentile(seen.latencies, 0.99) * 1000:.1f} ms (client side, with gunicorn's queue)"
    )
    per_request = cpu / max(answered, 1)
    print(
        f"  server CPU: {cpu:.2f} s in all, {per_request * 1000:.2f} ms per request "
        f"({cpu / elapsed:.0%} of one core): one core answers about {1 / per_request:.0f} polls/s, "
        f"{args.every / per_request:.0f} watchers polling every {args.every:g} s"
    )
    print(f"  database queries: {not_modified} per 304 (anonymous), {full} per 200")
    print(
        f"  a hand seen by the watchers after its commit: p50 {percentile(delays, 0.5):.2f} s, p99 "
        f"{percentile(delays, 0.99):.2f} s, max {max(delays, default=float('nan')):.2f} s ({len(delays)} sightings)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--every", type=float, default=3.0, help="seconds between a watcher's polls (live.js: 3)")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--write-every", type=float, default=2.0)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--clients", type=int, default=4, help="processes the watchers are shared among")
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL on 127.0.0.1 instead of SQLite")
    parser.add_argument("--cache", default=f"redis://{HOST}:6379/13", help="a Redis database of its own")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="live-bench-") as tmp:
        folder = Path(tmp)
        env = environment(args, folder)
        os.environ.update(env)
        if args.postgres:
            fresh_database()
        import redis

        redis.Redis.from_url(args.cache).flushdb()
        django.setup()
        games = build()
        port = free_port()
        log = (folder / "gunicorn.log").open("wb")
        server = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "gunicorn"),
                "config.wsgi:application",
                "--workers",
                str(args.workers),
                "--bind",
                f"{HOST}:{port}",
                "--backlog",
                "4096",
                "--preload",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        try:
            warm_up(port, args.workers)
            measure(args, games, port, server.pid)
        finally:
            server.terminate()
            try:
                server.wait(timeout=60)  # a busy machine stops five workers slowly
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            log.close()
            complaints = [
                line
                for line in (folder / "gunicorn.log").read_text().splitlines()
                if "WARNING" in line or "ERROR" in line
            ]
            print(f"  server log: {len(complaints)} warnings or errors", *complaints[:5], sep="\n    ")


if __name__ == "__main__":
    main()
