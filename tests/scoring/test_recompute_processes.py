"""Recomputes of one event's standings in several processes at once, on the embedded SQLite file (the quick
start's database): each waits for the write lock instead of failing, and they all leave the same rows."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
BUILD = """
import django; django.setup()
from tests.factories import EventFactory, played, registered
event = EventFactory.create(slug="league")
players = registered(event, *(f"P{i:02d}" for i in range(40)))
for k in range(0, 40, 4):
    played(event, players[k:k + 4], [{"result": "ron", "winner": players[k].pk, "loser": players[k + 1].pk,
                                      "han": 1 + k // 4, "fu": 30}], end=True)
"""
ROWS = """
import django; django.setup()
from scoring.models import Standing
print(sorted(Standing.objects.values_list("player_id", "rank", "points", "games")))
"""


def run(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, *args], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


@pytest.mark.slow  # four processes, each setting up Django on its own
def test_four_processes_recomputing_at_once_all_succeed(tmp_path: Path):
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("CELERY_BROKER_URL", None)
    for args in (("manage.py", "migrate", "-v0"), ("-c", BUILD)):
        built = run(env, *args)
        _out, err = built.communicate(timeout=120)  # read to the end, so its pipes are closed
        assert built.returncode == 0, err
    once = run(env, "-c", ROWS)
    expected = once.communicate(timeout=60)[0]
    runs = [run(env, "manage.py", "recompute_standings", "league") for _ in range(4)]
    results = [(p.wait(120), p.communicate()) for p in runs]
    assert [(code, err.strip()) for code, (_out, err) in results] == [(0, "")] * 4
    assert run(env, "-c", ROWS).communicate(timeout=60)[0] == expected
    assert expected.count("), (") == 40 - 1  # forty players' lines
