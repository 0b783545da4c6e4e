"""Benchmark: the whole server under load, and whether anything written was lost or doubled on the way.

Run it from the project root (PostgreSQL and Redis on 127.0.0.1, as on the CI machine)::

    .venv/bin/python benchmarks/load.py [--players 400] [--hands 12] [--readers 20] [--think 1.5]

It drops and recreates a database of its own (``mahjong_load``), migrates it and builds, through the
services, one wrc-2025 event of ``--players`` players seated at random into tables of four for round 1,
with a referee (an API token) per table and an organiser. Then it starts gunicorn (4 workers, DEBUG off)
and a Celery worker on Redis (the broker's and the cache's databases flushed first), and then, for at most
``--max-load-seconds`` (after that the referees end their games early and the figures say so):

- one simulated referee per table enters its game hand by hand over the API: ``--hands`` hands that keep
  the dealer (draws with everyone tenpai, dealer rons of 1 han 30 fu), each a POST with a fresh
  ``Idempotency-Key`` and ``If-Match``; about 3 % are corrected (PUT), about 3 % are sent again with the
  same key as if the answer was lost, about 2 % are given up after a few milliseconds and sent again;
  then it waits until every table has entered its hands, and the round ends at once: every game ended by the
  clock (PATCH) within the same second, which has the worker recompute the standings, while
  ``--throughput-clients`` clients read the full standings page back to back for ``--round-end-seconds``
  (``--round-end-seconds 0``: each game ends as soon as its hands are in, as before);
- ``--readers`` threads poll the standings page's table (with ``If-None-Match``) and the standings API.

``--embedded`` runs the embedded default instead, as ``make run`` has it: an SQLite file, no broker (the
recompute runs in the request's process), each process's own memory for a cache, DEBUG on, served by
``make serve`` (what ``make run`` serves with) or by ``--server`` (a command, e.g. runserver, to compare).

Then it compares the database with what the clients were told (every hand answered 2xx stored once,
as last written), waits for the standings to settle and checks each player's games, and measures the
full standings page's throughput against a trivial endpoint's (``/api/v1/rulesets/wrc-2025/``), quiet
and through the end of the round.

It prints one block of figures. Targets: 0 hands lost, 0 duplicated, 0 5xx; server-side write latency
p99 <= 150 ms (from ``Server-Timing`` if the server sends it, else from the server's request log lines,
matched by ``X-Request-ID``, else client-side, and it says which); the standings page at >= 0.5 of the
trivial endpoint's requests per second; the whole run under 3 minutes on 2 cores. It exits 1 when a hand
was lost or duplicated, a 5xx or a dropped connection happened, or the standings disagree, so a person
running it sees the failure; it is a benchmark, not a test, and CI does not run it. Anonymous API reads are
not throttled during the run (``API_ANON_READ_RATE=off``): every client here shares one address.
Everything talks to 127.0.0.1 only; the servers' logs are kept in a temporary folder it names.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import argparse
import http.client
import json
import random
import re
import secrets
import shlex
import signal
import socket
import subprocess
import tempfile
import threading
import time
import traceback
import urllib.parse
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import django

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
SLUG = "wrc-2025"
TRIVIAL = "/api/v1/rulesets/wrc-2025/"
FAILURES = (OSError, http.client.HTTPException)  # a refused, dropped or timed-out connection
ATTEMPTS = 4  # a write answered 5xx or dropped is sent again (same key) this many times in all
TARGET_P99_MS = 150
TARGET_RATIO = 0.5


# --- HTTP ------------------------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    ms: float

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class Http:
    """One client's connection to the server (kept alive when the server allows it), reopened after a failure."""

    def __init__(self, port: int, token: str | None = None, timeout: float = 60.0) -> None:
        self.port, self.token, self.timeout = port, token, timeout
        self.conn: http.client.HTTPConnection | None = None

    def send(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Answer:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
        sent = {"Accept": "application/json", **(headers or {})}
        if self.token:
            sent["Authorization"] = f"Token {self.token}"
        data = None if body is None else json.dumps(body).encode()
        if data is not None:
            sent["Content-Type"] = "application/json"
        began = time.perf_counter()
        try:
            self.conn.request(method, path, body=data, headers=sent)
            response = self.conn.getresponse()
            payload = response.read()
        except FAILURES:
            self.close()
            raise
        answer = Answer(
            response.status,
            {k.lower(): v for k, v in response.getheaders()},
            payload,
            (time.perf_counter() - began) * 1000,
        )
        if response.will_close:
            self.close()
        return answer

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def server_timing_ms(header: str | None) -> float | None:
    """The duration a ``Server-Timing`` header gives (``app;dur=12.3``: the first ``dur``), if any."""
    found = re.search(r"dur=([0-9.]+)", header or "")
    return float(found.group(1)) if found else None


# --- what the clients saw ----------------------------------------------------------------------------


@dataclass
class Stats:
    """Counters and samples shared by every client thread."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    counts: Counter[str] = field(default_factory=Counter)
    writes: list[tuple[str, float, float | None]] = field(default_factory=list)  # request id, client ms, timing
    notes: list[str] = field(default_factory=list)

    def add(self, name: str, n: int = 1) -> None:
        with self.lock:
            self.counts[name] += n

    def note(self, text: str) -> None:
        with self.lock:
            if len(self.notes) < 8:
                self.notes.append(text[:600])

    def written(self, request_id: str, answer: Answer) -> None:
        with self.lock:
            self.writes.append((request_id, answer.ms, server_timing_ms(answer.headers.get("server-timing"))))


@dataclass
class Referee:
    game_id: int
    http: Http
    rng: random.Random
    seats: list[int] = field(default_factory=list)
    version: str = ""
    intended: list[dict[str, Any]] = field(default_factory=list)
    ended: bool = False


@dataclass
class RoundEnd:
    """The round ended at once: every referee waits with its hands entered, then all end their games within a
    second while clients read the standings page back to back."""

    release: threading.Event = field(default_factory=threading.Event)
    ready: int = 0  # referees waiting for the release
    began: float = 0.0  # time.monotonic() of the release
    ended: list[tuple[float, float]] = field(default_factory=list)  # (seconds after the release, PATCH ms)
    page_rps: float = 0.0
    page_errors: int = 0
    page_ms: list[float] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class Run:
    args: argparse.Namespace
    port: int
    stats: Stats = field(default_factory=Stats)
    referees: list[Referee] = field(default_factory=list)
    deadline: float = float("inf")  # time.monotonic() after which referees end their games at once
    round_end: RoundEnd = field(default_factory=RoundEnd)


# --- the database and the servers -------------------------------------------------------------------


def environment(args: argparse.Namespace, port: int, logs: Path) -> dict[str, str]:
    """The servers' environment (and this process's, for the build and the checks). ``--embedded``: an SQLite
    file, no broker (tasks run in the request's process) and each process's own memory for a cache, as
    ``make run`` has them, with DEBUG on as it sets it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "DATABASE_", "CACHE_", "DEBUG"))}
    if args.embedded:
        env.update(DATABASE_URL=f"sqlite:///{logs / 'load.sqlite3'}", DEBUG="1")
    else:
        env.update(
            DATABASE_URL=f"postgres://postgres@{HOST}:5432/{args.database}",
            CELERY_BROKER_URL=args.broker,
            CACHE_URL=args.cache,
            DEBUG="0",
        )
    env.update(
        SECRET_KEY=secrets.token_urlsafe(40)[:50],
        ALLOWED_HOSTS=HOST,
        API_ANON_READ_RATE="off",
        LOG_LEVEL="INFO",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    return env


def fresh_database(name: str) -> None:
    import psycopg

    with psycopg.connect(f"postgresql://postgres@{HOST}:5432/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def flush_redis(*urls: str) -> None:
    import redis

    for url in urls:
        redis.Redis.from_url(url).flushdb()


def build(players: int) -> list[tuple[int, str]]:
    """The event, its players, round 1 seated, a referee with a token per table: (game id, token) per table."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from scoring.services.games import round_seat
    from tournament.models import Event
    from tournament.services.events import event_create, player_register, round_add
    from tournament.services.seating import Method

    call_command("migrate", verbosity=0)
    user = get_user_model()
    organiser = user.objects.create_user("organiser")
    event = event_create(
        organiser=organiser, name="WRC 2025", ruleset_key="wrc-2025", public=True, status=Event.Status.RUNNING
    )
    assert event.slug == SLUG
    for n in range(players):
        player_register(event=event, name=f"Player {n:03d}")
    round_add(event=event)
    games = sorted(round_seat(event=event, number=1, method=Method.RANDOM, seed=1), key=lambda g: g.pk)
    referees = user.objects.bulk_create([user(username=f"referee{n:03d}") for n in range(len(games))])
    event.referees.add(*referees)
    tokens = Token.objects.bulk_create([Token(user=r, key=Token.generate_key()) for r in referees])
    return [(game.pk, token.key) for game, token in zip(games, tokens, strict=True)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def start_servers(
    args: argparse.Namespace, env: dict[str, str], port: int, logs: Path
) -> list[subprocess.Popen[bytes]]:
    bin_ = Path(sys.executable).parent
    commands = (
        server_commands(args, port)
        if args.embedded
        else {
            "gunicorn": [
                str(bin_ / "gunicorn"),
                "config.wsgi:application",
                "--workers",
                str(args.workers),
                "--bind",
                f"{HOST}:{port}",
                "--graceful-timeout",
                "5",
            ],
            "celery": [str(bin_ / "celery"), "-A", "config", "worker", "--concurrency=2", "-l", "warning"],
        }
    )
    started = []
    for name, command in commands.items():
        with (logs / f"{name}.log").open("wb") as log:
            started.append(
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    start_new_session=True,
                )
            )
    return started


def server_commands(args: argparse.Namespace, port: int) -> dict[str, list[str]]:
    """The embedded default's one server: what ``make run`` serves with (``make serve``), or ``--server``."""
    if args.server:
        return {"server": shlex.split(args.server.format(host=HOST, port=port))}
    make = ["make", "--no-print-directory", "serve", f"HOST={HOST}", f"PORT={port}", f"WEB_WORKERS={args.workers}"]
    return {"server": make}


def stop_servers(processes: Iterable[subprocess.Popen[bytes]]) -> None:
    """Terminate each process this script started, with what it started (its own session: ``make serve``'s
    gunicorn), then kill that process group if it lingers."""
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # its own session: only what it started
            process.wait(timeout=5)


def wait_ready(port: int, processes: list[subprocess.Popen[bytes]], seconds: float = 60) -> str:
    """Poll /health/ (or, where it does not exist yet, the rulesets) until it answers 200; the path that did."""
    path, deadline, http = "/health/", time.monotonic() + seconds, Http(port, timeout=5)
    while time.monotonic() < deadline:
        if any(p.poll() is not None for p in processes):
            raise RuntimeError("a server exited while starting; see its log")
        try:
            answer = http.send("GET", path)
        except FAILURES:
            time.sleep(0.2)
            continue
        if answer.status == 200:
            return path
        if answer.status == 404:
            path = "/api/v1/rulesets/"
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer 200 on {path} within {seconds:.0f} s")


# --- the referees ------------------------------------------------------------------------------------


def dealer_ron(seats: list[int], index: int) -> dict[str, Any]:
    """East (who deals throughout) rons for 1 han 30 fu; the losers take turns, so no one goes far below zero."""
    return {"result": "ron", "winner": seats[0], "loser": seats[1 + index % 3], "han": 1, "fu": 30}


def all_tenpai(seats: list[int]) -> dict[str, Any]:
    return {"result": "draw", "tenpai": sorted(seats)}


def planned(ref: Referee, index: int) -> dict[str, Any]:
    """A hand that keeps the dealer (wrc-2025: a dealer win, or the dealer tenpai at a draw): the game goes on."""
    return all_tenpai(ref.seats) if ref.rng.random() < 0.5 else dealer_ron(ref.seats, index)


def corrected(ref: Referee, index: int) -> dict[str, Any]:
    """What the referee meant instead of hand ``index``: the draw for a ron, the ron for a draw."""
    return dealer_ron(ref.seats, index) if ref.intended[index]["result"] == "draw" else all_tenpai(ref.seats)


def write(run: Run, ref: Referee, method: str, path: str, body: Any, key: str | None = None) -> Answer | None:
    """Send a write until it is answered: a 5xx or a dropped connection is sent again (the same key), a 409
    after reading the version again. The 2xx answer, or None when it was refused."""
    for attempt in range(ATTEMPTS):
        request_id = uuid.uuid4().hex
        headers = {"If-Match": ref.version, "X-Request-ID": request_id}
        if key is not None:
            headers["Idempotency-Key"] = key
        try:
            answer = ref.http.send(method, path, body, headers)
        except FAILURES as exc:
            run.stats.add("connection errors")
            run.stats.note(f"{method} {path}: {exc!r}")
            time.sleep(0.2 * (attempt + 1))
            continue
        if 200 <= answer.status < 300:
            if "idempotent-replayed" in answer.headers:
                run.stats.add("replayed")  # a give-up's first try had been written: its key's answer again
            else:
                run.stats.written(request_id, answer)
            ref.version = answer.headers.get("etag", ref.version)
            return answer
        run.stats.add("5xx" if answer.status >= 500 else str(answer.status))
        run.stats.note(f"{method} {path} {answer.status}: {answer.body[:300]!r}")
        if answer.status == 409:
            refresh(ref)
        elif answer.status < 500:
            return None
    return None


def refresh(ref: Referee) -> dict[str, Any]:
    """Read the game: its seats and its version (the ETag)."""
    answer = ref.http.send("GET", f"/api/v1/games/{ref.game_id}/")
    if answer.status != 200:
        raise RuntimeError(f"GET game {ref.game_id}: {answer.status} {answer.body[:200]!r}")
    game = answer.json()
    ref.seats = [p["id"] for p in sorted(game["players"], key=lambda p: p["seat"])]
    ref.version = answer.headers["etag"]
    return game  # type: ignore[no-any-return]


def give_up(run: Run, ref: Referee, path: str, record: dict[str, Any], key: str) -> None:
    """Send the hand on a client that waits only a few milliseconds for the answer, then drops the connection."""
    impatient = Http(run.port, ref.http.token, timeout=run.args.give_up_ms / 1000)
    try:
        impatient.send("POST", path, record, {"If-Match": ref.version, "Idempotency-Key": key})
        run.stats.add("give-ups answered in time")
    except FAILURES:
        run.stats.add("give-ups")
    finally:
        impatient.close()


def lost_answer(
    run: Run, ref: Referee, path: str, record: dict[str, Any], key: str, first: Answer, version: str
) -> None:
    """Send the hand again with its key as if the first answer never came: the same answer, nothing added."""
    headers = {"If-Match": version, "Idempotency-Key": key}
    try:
        again = ref.http.send("POST", path, record, headers)
    except FAILURES as exc:
        run.stats.add("connection errors")
        run.stats.note(f"resend {path}: {exc!r}")
        return
    run.stats.add("resent")
    same = (
        again.status == first.status
        and "idempotent-replayed" in again.headers
        and (again.json() or {}).get("version") == first.json().get("version")
    )
    if not same:
        run.stats.add("resend answered differently")
        run.stats.note(f"resend {path}: {again.status} {again.body[:300]!r}")
    if again.status >= 500:
        run.stats.add("5xx")


def add_hand(run: Run, ref: Referee, record: dict[str, Any]) -> None:
    path, key, version = f"/api/v1/games/{ref.game_id}/hands/", str(uuid.uuid4()), ref.version
    draw = ref.rng.random()
    if draw < run.args.give_ups:
        give_up(run, ref, path, record, key)
    answer = write(run, ref, "POST", path, record, key)
    if answer is None:
        run.stats.add("hands refused")
        return
    ref.intended.append(record)
    run.stats.add("hands written")
    if run.args.give_ups <= draw < run.args.give_ups + run.args.retries:
        lost_answer(run, ref, path, record, key, answer, version)


def correct_hand(run: Run, ref: Referee) -> None:
    index = ref.rng.randrange(len(ref.intended))
    record = corrected(ref, index)
    if write(run, ref, "PUT", f"/api/v1/games/{ref.game_id}/hands/{index}/", record) is not None:
        ref.intended[index] = record
        run.stats.add("corrections")


def referee(run: Run, ref: Referee) -> None:
    """One table's game, hand by hand at a referee's pace, then ended by the clock."""
    args = run.args
    try:
        time.sleep(ref.rng.uniform(0, args.think))  # the tables do not all start on the same second
        refresh(ref)
        for index in range(args.hands):
            if time.monotonic() > run.deadline:
                run.stats.add("hands skipped", args.hands - index)
                break
            time.sleep(ref.rng.uniform(0.5, 1.5) * args.think)
            add_hand(run, ref, planned(ref, index))
            if ref.intended and ref.rng.random() < args.corrections:
                correct_hand(run, ref)
        if args.round_end_seconds:
            await_round_end(run, ref)
        ended = write(run, ref, "PATCH", f"/api/v1/games/{ref.game_id}/", {"end": "time"})
        ref.ended = ended is not None
        if ended is not None and args.round_end_seconds:
            with run.stats.lock:
                run.round_end.ended.append((time.monotonic() - run.round_end.began, ended.ms))
        run.stats.add("games ended" if ref.ended else "games not ended")
    except Exception:
        run.stats.add("referees crashed")
        run.stats.note(traceback.format_exc())
    finally:
        ref.http.close()


def await_round_end(run: Run, ref: Referee) -> None:
    """Wait with the game's hands entered until every table is there, then end it within the next second."""
    with run.stats.lock:
        run.round_end.ready += 1
    run.round_end.release.wait()
    time.sleep(ref.rng.uniform(0, 1))


def end_round(run: Run) -> None:
    """Once every referee waits (or crashed): release them all at once, and meanwhile measure the standings
    page, read back to back by ``--throughput-clients`` clients for ``--round-end-seconds``."""
    stage = run.round_end
    while True:
        with run.stats.lock:
            waiting = stage.ready + run.stats.counts["referees crashed"]
        if waiting >= len(run.referees):
            break
        time.sleep(0.05)
    print(f"every table's hands entered; the round ends now (all {stage.ready} games within a second)", flush=True)
    seconds, clients = run.args.round_end_seconds, run.args.throughput_clients

    def measure_page() -> None:
        stage.page_rps, stage.page_errors = throughput(
            run.port, f"/events/{SLUG}/standings/", seconds, clients, stage.page_ms
        )

    page = threads(measure_page, [()])
    stage.began = time.monotonic()
    stage.release.set()
    for thread in page:
        thread.join()
    stage.seconds = time.monotonic() - stage.began


# --- the readers -------------------------------------------------------------------------------------


def reader(run: Run, path: str, stop: threading.Event) -> None:
    """Poll ``path`` as a browser or an app does, sending the last ETag back."""
    http, etag = Http(run.port), ""
    while not stop.is_set():
        try:
            answer = http.send("GET", path, headers={"If-None-Match": etag} if etag else {})
        except FAILURES as exc:
            run.stats.add("reader connection errors")
            run.stats.note(f"GET {path}: {exc!r}")
            stop.wait(run.args.reader_pause)
            continue
        run.stats.add("reads")
        if answer.status == 304:
            run.stats.add("reads 304")
        elif answer.status >= 500:
            run.stats.add("reader 5xx")
        elif answer.status != 200:
            run.stats.add(f"reads {answer.status}")
        etag = answer.headers.get("etag", etag)
        stop.wait(run.args.reader_pause)
    http.close()


def threads(target: Callable[..., None], calls: Iterable[tuple[Any, ...]]) -> list[threading.Thread]:
    started = [threading.Thread(target=target, args=call, daemon=True) for call in calls]
    for thread in started:
        thread.start()
    return started


def load(run: Run, games: list[tuple[int, str]]) -> float:
    """The referees' games with the readers polling meanwhile; the seconds it took."""
    rng = random.Random(run.args.seed)
    run.referees = [Referee(game_id, Http(run.port, token), random.Random(rng.random())) for game_id, token in games]
    stop = threading.Event()
    paths = [f"/events/{SLUG}/standings/?part=table", f"/api/v1/events/{SLUG}/standings/"]
    began = time.monotonic()
    run.deadline = began + run.args.max_load_seconds
    readers = threads(reader, ((run, paths[n % 2], stop) for n in range(run.args.readers)))
    referees = threads(referee, ((run, ref) for ref in run.referees))
    if run.args.round_end_seconds:
        end_round(run)
    for thread in referees:
        thread.join()
    seconds = time.monotonic() - began
    stop.set()
    for thread in readers:
        thread.join()
    return seconds


# --- what the server kept ----------------------------------------------------------------------------


def same_hand(stored: dict[str, Any], meant: dict[str, Any]) -> bool:
    """Whether the stored record says what was sent (players lists in any order; fields it adds aside)."""

    def plain(value: Any) -> Any:
        return sorted(value) if isinstance(value, list) else value

    return all(plain(stored.get(key)) == plain(value) for key, value in meant.items())


def check_hands(run: Run) -> dict[str, int]:
    """Every game's stored hands against the hands its referee was told were kept (after its corrections)."""
    from scoring.models import Hand
    from tournament.models import Game

    stored: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for game_id, record in Hand.objects.order_by("game_id", "index").values_list("game_id", "record"):
        stored[game_id].append(record)
    found = Counter[str]()
    for ref in run.referees:
        kept = stored.get(ref.game_id, [])
        for index, meant in enumerate(ref.intended):
            if index >= len(kept) or not same_hand(kept[index], meant):
                found["lost"] += 1
                if found["lost"] <= 3:
                    run.stats.note(
                        f"game {ref.game_id} hand {index}: meant {meant}, stored "
                        f"{kept[index] if index < len(kept) else None}"
                    )
        found["duplicated"] += max(0, len(kept) - len(ref.intended))
        found["stored"] += len(kept)
    finished = set(Game.objects.filter(status=Game.Status.FINISHED).values_list("pk", flat=True))
    found["ended but not finished"] = sum(1 for ref in run.referees if ref.ended and ref.game_id not in finished)
    return dict(found)


def standings_rows(http: Http) -> tuple[bool, list[dict[str, Any]]]:
    """Every line of the standings through the API (all pages), and whether they are being updated."""
    path: str | None = f"/api/v1/events/{SLUG}/standings/"
    rows: list[dict[str, Any]] = []
    updating = False
    while path:
        answer = http.send("GET", path)
        if answer.status != 200:
            raise RuntimeError(f"GET {path}: {answer.status} {answer.body[:200]!r}")
        page = answer.json()
        updating = updating or page["updating"]
        rows += page["results"]
        nxt = urllib.parse.urlsplit(page["next"]) if page["next"] else None
        path = f"{nxt.path}?{nxt.query}" if nxt else None
    return updating, rows


def check_standings(run: Run) -> tuple[float, int, bool]:
    """Wait (bounded) for the worker to be done, then compare each player's games with the games they finished:
    the seconds it took to settle, the players whose count differs, and whether it settled at all."""
    http, began = Http(run.port), time.monotonic()
    while True:
        updating, rows = standings_rows(http)
        if not updating or time.monotonic() - began > run.args.settle_seconds:
            break
        time.sleep(0.25)
    settled = time.monotonic() - began
    expected = Counter(player for ref in run.referees if ref.ended for player in ref.seats)
    got = {row["player"]["id"]: row["games"] for row in rows}
    wrong = [p for p in set(expected) | set(got) if got.get(p, 0) != expected.get(p, 0)]
    if wrong:
        run.stats.note(
            f"standings: player {wrong[0]} has {got.get(wrong[0], 0)} games, played {expected.get(wrong[0], 0)}"
        )
    http.close()
    return settled, len(wrong), not updating


def throughput(
    port: int, path: str, seconds: float, clients: int, samples: list[float] | None = None
) -> tuple[float, int]:
    """Requests per second answered 200 by ``clients`` threads asking ``path`` back to back; and the non-200s.
    ``samples`` receives each 200's milliseconds."""
    done: list[Counter[str]] = [Counter() for _ in range(clients)]
    deadline = time.monotonic() + seconds

    def client(tally: Counter[str]) -> None:
        http = Http(port)
        while time.monotonic() < deadline:
            try:
                answer = http.send("GET", path)
            except FAILURES:
                tally["other"] += 1
                continue
            tally["ok" if answer.status == 200 else "other"] += 1
            if samples is not None and answer.status == 200:
                samples.append(answer.ms)  # list.append: one step, safe across the threads
        http.close()

    began = time.monotonic()
    for thread in threads(client, ((tally,) for tally in done)):
        thread.join()
    elapsed = time.monotonic() - began
    return sum(t["ok"] for t in done) / elapsed, sum(t["other"] for t in done)


@dataclass
class Locks:
    """PostgreSQL sessions of the benchmark's database waiting on a lock, sampled while the load runs."""

    samples: int = 0
    waiting_samples: int = 0
    most_waiting: int = 0
    most_sessions: int = 0
    # What the waits were for: a table (a row of it, a "tuple" lock) or "transactionid" (the row's holder).
    on: Counter[str] = field(default_factory=Counter)


def sample_locks(database: str, stop: threading.Event, locks: Locks) -> None:
    import psycopg

    sessions_query = "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()"
    waits_query = (
        "SELECT coalesce(l.relation::regclass::text, l.locktype) FROM pg_locks l "
        "JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.datname = %s"
    )
    with psycopg.connect(f"postgresql://postgres@{HOST}:5432/{database}", autocommit=True) as conn:
        while not stop.wait(0.2):
            row = conn.execute(sessions_query, (database,)).fetchone()
            waits = [on for (on,) in conn.execute(waits_query, (database,)).fetchall()]
            locks.samples += 1
            locks.waiting_samples += bool(waits)
            locks.most_waiting = max(locks.most_waiting, len(waits))
            locks.most_sessions = max(locks.most_sessions, row[0] if row else 0)
            locks.on.update(waits)


# --- the servers' logs -------------------------------------------------------------------------------

REQUEST_LINE = re.compile(r"config\.request \[([^\]]+)\] (\S+) (\S+) (\d{3}) (\d+)ms")


@dataclass(frozen=True)
class Logged:
    method: str
    path: str
    status: int
    ms: float


def request_log(path: Path) -> dict[str, Logged]:
    """The server's request lines (config.middleware), by request id."""
    lines: dict[str, Logged] = {}
    with path.open(encoding="utf-8", errors="replace") as log:
        for line in log:
            if found := REQUEST_LINE.search(line):
                rid, method, where, code, ms = found.groups()
                lines[rid] = Logged(method, where, int(code), float(ms))
    return lines


def log_problems(path: Path) -> Counter[str]:
    """Lines of a server's log that speak of trouble."""
    found = Counter[str]()
    with path.open(encoding="utf-8", errors="replace") as log:
        for line in log:
            for word in (" ERROR ", "Traceback", "CRITICAL", "WORKER TIMEOUT", " WARNING "):
                found[word.strip()] += word in line
    return found


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))] if ordered else float("nan")


def write_latency(run: Run, logged: dict[str, Logged]) -> tuple[str, list[float], list[float]]:
    """Where the server-side write latency comes from, its samples, and the client-side samples."""
    client = [ms for _, ms, _ in run.stats.writes]
    timed = [timing for _, _, timing in run.stats.writes if timing is not None]
    if timed:
        return "Server-Timing header", timed, client
    from_log = [logged[rid].ms for rid, _, _ in run.stats.writes if rid in logged]
    if from_log:
        return "server request log, matched by X-Request-ID (no Server-Timing header)", from_log, client
    return "CLIENT-SIDE (no Server-Timing header, no request log lines): includes queueing", client, client


def endpoint_lines(logged: dict[str, Logged]) -> list[str]:
    """Server-side time per endpoint (from the request log), slowest p99 first."""
    groups: dict[str, list[float]] = defaultdict(list)
    for line in logged.values():
        where = re.sub(r"(?<=/)\d+(?=/|$)|(?<==)\d+", "N", line.path)
        groups[f"{line.method} {where}"].append(line.ms)
    rows = sorted(groups.items(), key=lambda item: -percentile(item[1], 99))
    return [
        f"    {name:<48} {len(ms):6d}  p50 {percentile(ms, 50):5.0f}  p99 {percentile(ms, 99):6.0f}  "
        f"max {max(ms):6.0f} ms"
        for name, ms in rows
    ]


# --- the run -----------------------------------------------------------------------------------------


@dataclass
class Figures:
    probe: str = ""
    load_seconds: float = 0.0
    hands: dict[str, int] = field(default_factory=dict)
    settle_seconds: float = 0.0
    standings_wrong: int = 0
    settled: bool = False
    page_rps: float = 0.0
    trivial_rps: float = 0.0
    throughput_errors: int = 0
    locks: Locks = field(default_factory=Locks)


def measure(run: Run, games: list[tuple[int, str]], processes: list[subprocess.Popen[bytes]]) -> Figures:
    """With the servers up: the load, then the checks, then the throughput of the page against a trivial one."""
    figures = Figures(probe=wait_ready(run.port, processes))
    print(
        f"servers up (ready on {figures.probe}); {len(games)} referees and {run.args.readers} readers start", flush=True
    )
    stop = threading.Event()
    if not run.args.embedded:
        threads(sample_locks, [(run.args.database, stop, figures.locks)])
    figures.load_seconds = load(run, games)
    stop.set()
    print(f"games entered in {figures.load_seconds:.1f} s; checking", flush=True)
    figures.hands = check_hands(run)
    figures.settle_seconds, figures.standings_wrong, figures.settled = check_standings(run)
    page = f"/events/{SLUG}/standings/"
    warm = Http(run.port)
    for path in (page, TRIVIAL):
        warm.send("GET", path)
    warm.close()
    seconds, clients = run.args.throughput_seconds, run.args.throughput_clients
    figures.page_rps, page_errors = throughput(run.port, page, seconds, clients)
    figures.trivial_rps, trivial_errors = throughput(run.port, TRIVIAL, seconds, clients)
    figures.throughput_errors = page_errors + trivial_errors
    return figures


def failed(run: Run, figures: Figures) -> list[str]:
    """What makes the run a failure (exit status 1)."""
    counts = run.stats.counts
    reasons = {
        "hands lost": figures.hands.get("lost", 0),
        "hands duplicated": figures.hands.get("duplicated", 0),
        "5xx": counts["5xx"] + counts["reader 5xx"],
        "dropped connections": counts["connection errors"] + counts["reader connection errors"],
        "players whose standings games are wrong": figures.standings_wrong,
        "referee threads crashed": counts["referees crashed"],
    }
    return [f"{n} {name}" for name, n in reasons.items() if n]


def correctness_lines(run: Run, figures: Figures) -> list[str]:
    counts, hands, args = run.stats.counts, figures.hands, run.args
    refused = {k: n for k, n in counts.items() if k.isdigit() and k != "409"}
    return [
        f"hands written (2xx):   {counts['hands written']:6d}  ({hands.get('stored', 0)} stored; "
        f"{counts['corrections']} corrected, {counts['resent']} sent again as if the answer was lost, "
        f"{counts['give-ups']} given up after {args.give_up_ms:g} ms and sent again"
        + (
            f"; {counts['hands skipped']} NOT PLAYED: the load ran past --max-load-seconds)"
            if counts["hands skipped"]
            else ")"
        ),
        f"hands lost:            {hands.get('lost', 0):6d}  (target 0)",
        f"hands duplicated:      {hands.get('duplicated', 0):6d}  (target 0)",
        f"5xx:                   {counts['5xx'] + counts['reader 5xx']:6d}  (target 0; "
        f"{counts['reader 5xx']} of them to readers)",
        f"409 conflicts:         {counts['409']:6d}  (one referee per game: expected 0)",
        f"other refusals:        {sum(refused.values()):6d}  {refused or ''}",
        f"dropped connections:   {counts['connection errors']:6d}  writers, {counts['reader connection errors']} "
        "readers (the deliberate give-ups aside)",
        f"sent again:            {counts['resend answered differently']:6d}  answered differently from the first "
        f"time; {counts['replayed']} give-ups found their first try written",
        f"games ended:           {counts['games ended']:6d}  of {len(run.referees)}; ended but not finished in "
        f"the database: {hands.get('ended but not finished', 0)}",
        f"standings:             {'settled' if figures.settled else 'STILL UPDATING'} "
        f"{figures.settle_seconds:.1f} s after the last game ended; {figures.standings_wrong} players with a "
        "wrong game count",
    ]


def speed_lines(run: Run, figures: Figures, logged: dict[str, Logged], wall: float) -> list[str]:
    counts, locks = run.stats.counts, figures.locks
    source, server, client = write_latency(run, logged)
    ratio = figures.page_rps / figures.trivial_rps if figures.trivial_rps else float("nan")
    errors = f"; {figures.throughput_errors} not 200" if figures.throughput_errors else ""

    def spread(ms: list[float]) -> str:
        return f"p50 {percentile(ms, 50):.0f}  p95 {percentile(ms, 95):.0f}  p99 {percentile(ms, 99):.0f} ms"

    return [
        f"write latency:         {spread(server)} over {len(server)} writes (target p99 <= {TARGET_P99_MS}) [{source}]",
        f"  seen by the clients: {spread(client)} (with the server's queue)",
        f"reads:                 {counts['reads'] / figures.load_seconds:6.1f}/s  ({counts['reads']} in "
        f"{figures.load_seconds:.1f} s, {counts['reads 304']} answered 304)",
        f"throughput:            standings page {figures.page_rps:.1f}/s, trivial endpoint "
        f"{figures.trivial_rps:.1f}/s, ratio {ratio:.3f} (target >= {TARGET_RATIO}){errors}",
        f"lock waits (PG):       {locks.waiting_samples} of {locks.samples} samples had a session waiting on a "
        f"lock (at most {locks.most_waiting} at once; {locks.most_sessions} sessions at most); waits were for "
        f"{', '.join(f'{on} ({n})' for on, n in locks.on.most_common(3)) or 'nothing'}"
        if not run.args.embedded
        else "lock waits:            not sampled (SQLite)",
        f"wall time:             {wall:.1f} s (target < 180 s)",
    ]


def round_end_lines(run: Run, figures: Figures) -> list[str]:
    """The end of the round: how fast every game ended, and the standings page through it."""
    stage = run.round_end
    if not run.args.round_end_seconds:
        return []
    last = max((after for after, _ in stage.ended), default=float("nan"))
    patch = [ms for _, ms in stage.ended]
    ratio = stage.page_rps / figures.trivial_rps if figures.trivial_rps else float("nan")
    errors = f"; {stage.page_errors} not 200" if stage.page_errors else ""
    return [
        f"round end:             {len(stage.ended)} games ended {last:.1f} s after the release (PATCH p50 "
        f"{percentile(patch, 50):.0f}  p99 {percentile(patch, 99):.0f} ms)",
        f"  standings page:      {stage.page_rps:.1f}/s through it ({stage.seconds:.1f} s from the release; "
        f"p50 {percentile(stage.page_ms, 50):.0f}  p99 {percentile(stage.page_ms, 99):.0f} ms{errors}), "
        f"ratio {ratio:.3f} to the trivial endpoint's {figures.trivial_rps:.1f}/s after it (target >= {TARGET_RATIO})",
    ]


def report(run: Run, figures: Figures, logs: Path, wall: float) -> None:
    web = "server" if run.args.embedded else "gunicorn"
    logged = request_log(logs / f"{web}.log")
    lines = [*correctness_lines(run, figures), *speed_lines(run, figures, logged, wall), *round_end_lines(run, figures)]
    print("", *lines, sep="\n")
    print("server time per endpoint (request log):", *endpoint_lines(logged), sep="\n")
    for name in (web,) if run.args.embedded else (web, "celery"):
        problems = {k: n for k, n in log_problems(logs / f"{name}.log").items() if n}
        print(f"{name} log: {problems or 'no errors or warnings'} ({logs / f'{name}.log'})")
    for note in run.stats.notes:
        print("  note:", note.rstrip())


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    began = time.monotonic()
    port = free_port()
    logs = Path(tempfile.mkdtemp(prefix="mahjong-load-"))
    env = environment(args, port, logs)
    os.environ.update(env)
    where = "the embedded default (SQLite, tasks in process)" if args.embedded else repr(args.database)
    print(f"Building {args.players} players in a fresh database {where} ...", flush=True)
    if not args.embedded:
        fresh_database(args.database)
        flush_redis(args.broker, args.cache)
    django.setup()
    games = build(args.players)
    serving = " ".join(server_commands(args, port)["server"]) if args.embedded else "gunicorn and Celery"
    print(f"{len(games)} tables seated in {time.monotonic() - began:.1f} s; starting {serving}", flush=True)
    run, processes = Run(args, port), []
    try:
        processes = start_servers(args, env, port, logs)
        figures = measure(run, games, processes)
    finally:
        stop_servers(processes)
    report(run, figures, logs, time.monotonic() - began)
    if reasons := failed(run, figures):
        print("FAILED:", ", ".join(reasons))
        return 1
    return 0


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=400, help="registered players; a table (and a referee) per 4")
    parser.add_argument("--hands", type=int, default=12, help="hands per game")
    parser.add_argument("--think", type=float, default=1.5, help="mean seconds between a referee's hands")
    parser.add_argument("--readers", type=int, default=20, help="threads polling the standings")
    parser.add_argument("--reader-pause", type=float, default=0.5, help="seconds between a reader's polls")
    parser.add_argument("--corrections", type=float, default=0.03, help="share of hands followed by a correction")
    parser.add_argument("--retries", type=float, default=0.03, help="share of hands sent again with the same key")
    parser.add_argument("--give-ups", type=float, default=0.02, help="share of hands given up and sent again")
    parser.add_argument("--give-up-ms", type=float, default=5, help="how long a giving-up client waits")
    parser.add_argument("--throughput-seconds", type=float, default=5, help="per endpoint")
    parser.add_argument("--throughput-clients", type=int, default=4)
    parser.add_argument(
        "--max-load-seconds",
        type=float,
        default=110,
        help="after this, referees end their games without their remaining hands",
    )
    parser.add_argument("--settle-seconds", type=float, default=30, help="how long to wait for the standings")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument(
        "--embedded",
        action="store_true",
        help="the embedded default instead: an SQLite file, no broker, no Redis, served as `make run` serves",
    )
    parser.add_argument(
        "--server",
        default="",
        help="with --embedded, another server command ({host} and {port} filled in), e.g. "
        "'.venv/bin/python manage.py runserver {host}:{port} --noreload' for the server `make run` had before",
    )
    parser.add_argument(
        "--round-end-seconds",
        type=float,
        default=10,
        help="the round ends at once (every game ended within a second) and the standings page is read back to "
        "back for this long; 0: each game ends when its hands are in",
    )
    parser.add_argument("--database", default="mahjong_load", help="dropped and created again on each run")
    parser.add_argument("--broker", default=f"redis://{HOST}:6379/15", help="flushed at start")
    parser.add_argument("--cache", default=f"redis://{HOST}:6379/14", help="flushed at start")
    parser.add_argument("--seed", type=int, default=1)
    return parser


if __name__ == "__main__":
    sys.exit(main())
