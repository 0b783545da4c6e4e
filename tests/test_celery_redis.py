"""The real-worker path: a Celery worker on the machine's Redis runs a task the project sends it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from celery import Celery
from celery.result import allow_join_result

ROOT = Path(__file__).resolve().parents[1]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def _redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture
def worker() -> Iterator[Celery]:
    if not _redis_up():
        pytest.fail(
            "Redis is not running on 127.0.0.1:6379 (start it as the env skill says); "
            "this test proves the real worker path and must not be skipped"
        )
    env = {**os.environ, "CELERY_BROKER_URL": REDIS_URL, "CELERY_RESULT_BACKEND": REDIS_URL}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "--loglevel=WARNING",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    client = Celery("test-client", broker=REDIS_URL, backend=REDIS_URL)
    try:
        yield client
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stderr is not None:
            process.stderr.close()


def test_worker_scores_a_sheet_sent_through_redis(worker: Celery):
    sheet = {
        "ruleset": "wrc-2025",
        "players": ["Ann", "Bo", "Cy", "Di"],
        "hands": [{"result": "ron", "winner": "Ann", "loser": "Cy", "han": 3, "fu": 40}],
    }
    # Celery's "a task is running here" flag is one per process, not per thread: a page an earlier test opened
    # may still be served by the live server's thread, running a task eagerly, when this test waits. It is no task.
    with allow_join_result():
        answer = worker.send_task("scoring.score_sheet", args=[sheet]).get(timeout=60)
        bad = worker.send_task("scoring.score_sheet", args=[{**sheet, "players": ["Ann", "Bo"]}]).get(timeout=60)
    assert answer["result"]["hands"][0]["deltas"] == {"Ann": 7700, "Bo": 0, "Cy": -7700, "Di": 0}
    assert bad == {"problems": ["players: this ruleset is for 4 players; the sheet names 2"]}
