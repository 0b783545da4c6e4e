"""Benchmark: importing a folder of real online game logs, with the real services and database.

Run it from the project root (SQLite by default; set DATABASE_URL for PostgreSQL)::

    .venv/bin/python benchmarks/import_logs.py [--logs 100]

It takes the first ``--logs`` standard-lobby logs of tests/fixtures/online (mjlog and tenhou.net/6, cycling
through them with a fresh log id when it needs more than there are), copies them into a temporary folder and
runs ``manage.py import_log`` on it against a fresh test database, the standings recomputed in process once
at the end (as the command does). It prints the games imported, matched and refused, the wall time, logs
per second, the database queries per game (the standings' recompute at the end included), and the time to
read and check the logs alone (no database).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "1")

import argparse
import contextlib
import functools
import io
import json
import tempfile
import time

import django

ONLINE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "online"


def logs(count: int) -> list[tuple[str, bytes]]:
    """``count`` (name, bytes) pairs: real logs, repeated under new names (hence new log ids) if need be."""
    index = json.loads((ONLINE / "index.json").read_text(encoding="utf-8"))
    files = [ONLINE / e["file"] for e in index if not any(f.startswith("special_rule") for f in e["features"])]
    out = []
    for i in range(count):
        path = files[i % len(files)]
        name = path.name if i < len(files) else f"copy{i // len(files)}-{path.name}".replace("gm-", "xx-")
        out.append((name, path.read_bytes()))
    return out


def _count(queries: list[int], execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    queries[0] += 1
    return execute(sql, params, many, context)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=100)
    args = parser.parse_args(argv)
    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import setup_test_environment

    from scoring.logs.check import check_game
    from scoring.logs.read import read_log
    from tournament.models import Event, Game

    batch = logs(args.logs)
    started = time.perf_counter()
    checked = [check_game(read_log(data, name=name)).matches for name, data in batch]
    read_seconds = time.perf_counter() - started

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        Event.objects.create(slug="online", name="Online league", ruleset_key="tenhou")
        with tempfile.TemporaryDirectory() as folder:
            for name, data in batch:
                Path(folder, name).write_bytes(data)
            out, err = io.StringIO(), io.StringIO()
            queries = [0]
            started, cpu = time.perf_counter(), time.process_time()
            with (
                connection.execute_wrapper(functools.partial(_count, queries)),
                contextlib.suppress(SystemExit),  # exit 1 or 2: what was stored is reported below
            ):
                call_command("import_log", "online", folder, "--create-players", stdout=out, stderr=err)
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        stored = Game.objects.count()
        matched = Game.objects.filter(log_check=Game.LogCheck.MATCHES).count()
        print(f"database: {connection.vendor}")
        print(
            f"logs {len(batch)} · read and checked alone {read_seconds:.2f} s "
            f"({len(batch) / read_seconds:.0f} logs/s, {sum(checked)} match)"
        )
        print(f"imported {stored} · matched {matched} · refused {len(batch) - stored}")
        print(
            f"import wall time {seconds:.2f} s · {len(batch) / seconds:.1f} logs/s · {stored / seconds:.1f} games/s · "
            f"{queries[0] / max(stored, 1):.1f} queries/game "
            f"(players created, hands written with their history, standings once at the end)"
        )
        # On a shared machine the wall time waits for the others; this process's own CPU time does not.
        print(f"import CPU time of this process {cpu:.2f} s · {len(batch) / cpu:.1f} logs per CPU second")
        for line in err.getvalue().splitlines()[:5]:
            print("  stderr:", line)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
