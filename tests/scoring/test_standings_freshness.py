"""Standings after a write: recomputed once per event at a time, never failing the write, marked while stale."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.db import DatabaseError, connection
from django.test import Client

from scoring.models import Hand, Standing
from scoring.selectors import standings_state
from scoring.services import live
from scoring.services.hands import game_put_sheet
from scoring.services.standings import standings_recompute
from tests.conftest import client_for, rows
from tests.factories import EventFactory, played, registered
from tournament.models import Event, Game

ROOT = Path(settings.BASE_DIR)


def lines(event: Event) -> list[tuple[Any, ...]]:
    return list(
        Standing.objects.filter(event=event).order_by("player_id").values_list("player_id", "rank", "points", "games")
    )


@pytest.fixture
def league() -> Event:
    """Forty players, ten finished games: enough rows for recomputes to overlap."""
    event = EventFactory.create(slug="league")
    players = registered(event, *(f"P{i:02d}" for i in range(40)))
    for k in range(0, 40, 4):
        played(
            event,
            players[k : k + 4],
            [{"result": "ron", "winner": players[k].pk, "loser": players[k + 1].pk, "han": 1 + k // 4, "fu": 30}],
            end=True,
        )
    return event


@pytest.mark.skipif(connection.vendor != "postgresql", reason="threads that overlap need PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
def test_concurrent_recomputes_all_succeed_and_leave_what_one_leaves(league: Event):
    standings_recompute(league)
    expected = lines(league)
    failures: list[BaseException] = []
    barrier = threading.Barrier(4)

    def recompute() -> None:
        try:
            barrier.wait()
            standings_recompute(Event.objects.get(pk=league.pk))
        except BaseException as exc:
            failures.append(exc)
        finally:
            connection.close()

    for _ in range(5):  # without the lock, about half of these failed on one_standing_per_player
        threads = [threading.Thread(target=recompute) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert failures == []
    assert lines(league) == expected
    assert standings_state(league).updating is False


@pytest.mark.django_db
def test_a_failed_recompute_never_fails_the_write_and_leaves_the_standings_marked(
    league: Event,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    django_capture_on_commit_callbacks: Any,
):
    referee = User.objects.create_user("ref")
    league.referees.add(referee)
    standings_recompute(league)
    before = lines(league)

    def broken(event: Event) -> int:
        raise DatabaseError("the database went away")

    monkeypatch.setattr("scoring.tasks.standings_catch_up", broken)
    game = Game.objects.filter(event=league).earliest("pk")
    with django_capture_on_commit_callbacks(execute=True) as after_commit:
        # A correction of the game's only hand (a game ended by time keeps at least one).
        response = client_for(referee).patch(
            f"/api/v1/games/{game.pk}/hands/0/", {"han": 4}, format="json", headers={"If-Match": f'"{game.version}"'}
        )
    # The recompute asked for once the correction was committed (besides the live pages' version, bumped then).
    assert len([c for c in after_commit if not live.is_live_callback(c)]) == 1
    assert response.status_code == 200, response.content  # the correction is committed and says so
    assert Hand.objects.get(game=game).record["han"] == 4
    assert "not recomputed" in caplog.text
    assert lines(league) == before  # stale ...
    assert standings_state(league).updating is True  # ... and marked so, on the API and the page
    body = client_for(None).get("/api/v1/events/league/standings/").json()
    assert (body["updating"], len(rows(client_for(None).get("/api/v1/events/league/standings/")))) == (True, 40)
    assert "Updating the standings" in Client().get("/events/league/standings/").content.decode()

    monkeypatch.undo()
    call_command("recompute_standings", "league")
    assert standings_state(league).updating is False
    assert lines(league) != before


@pytest.mark.django_db
def test_the_polled_standings_table_costs_a_304_when_nothing_changed(league: Event):
    standings_recompute(league)
    url = "/events/league/standings/?part=table"
    first = Client().get(url)
    assert first.status_code == 200
    assert (first["Cache-Control"], first["ETag"].startswith('"')) == ("public, no-cache", True)
    assert Client().get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304
    game = Game.objects.filter(event=league).earliest("pk")
    game_put_sheet(game_id=game.pk, hands=[{"result": "draw"}], user=None, version=None, ended_by_time=True)
    standings_recompute(league)
    changed = Client().get(url, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200
    assert changed["ETag"] != first["ETag"]


@pytest.mark.django_db
def test_the_full_standings_page_costs_a_304_and_a_proxy_may_share_it_for_seconds(league: Event, settings):
    settings.PAGE_MICROCACHE_SECONDS = 0  # the shared entry's ETag, not this process's second of memory
    standings_recompute(league)
    url = "/events/league/standings/"
    first = Client().get(url)
    assert first.status_code == 200
    assert first["Cache-Control"] == "public, max-age=5"
    assert {"Cookie", "Accept-Language"} <= {v.strip() for v in first["Vary"].split(",")}  # per language and cookie
    again = Client().get(url, headers={"If-None-Match": first["ETag"]})
    assert (again.status_code, again["ETag"]) == (304, first["ETag"])
    assert Client().get(url, headers={"If-None-Match": '"other"'}).status_code == 200
    referee = User.objects.create_user("ref")
    league.referees.add(referee)
    signed_in = Client()
    signed_in.force_login(referee)
    own = signed_in.get(url, headers={"If-None-Match": first["ETag"]})
    assert (own.status_code, own["Cache-Control"]) == (200, "private, no-cache")  # their own menu: not shared
    game = Game.objects.filter(event=league).earliest("pk")
    game_put_sheet(game_id=game.pk, hands=[{"result": "draw"}], user=None, version=None, ended_by_time=True)
    standings_recompute(league)
    changed = Client().get(url, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200
    assert changed["ETag"] != first["ETag"]


BROKER_DOWN = """
import django; django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from scoring.selectors import standings_state
from scoring.services.hands import game_change_hand
from tests.factories import EventFactory, played, registered
event = EventFactory.create(slug="league")
players = registered(event, "Ann", "Bo", "Cy", "Di")
game = played(event, players, [{"result": "ron", "winner": players[0].pk, "loser": players[1].pk, "han": 1,
                                "fu": 30}], end=True)
written = game_change_hand(game_id=game.pk, index=0, record={"result": "draw"}, user=None, version=game.version)
print("written", written.hands.get(index=0).record, "updating", standings_state(event).updating)
"""


def test_with_the_broker_down_a_write_is_committed_and_answered_and_the_standings_say_so(tmp_path: Path):
    """The real path, in a process of its own: a broker URL where nothing listens, tasks not run in process."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "CELERY_BROKER_URL": "redis://127.0.0.1:9/0",
    }
    done = subprocess.run(
        [sys.executable, "-c", BROKER_DOWN], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "written {'result': 'draw'} updating True" in done.stdout
    assert "standings of event 1 not recomputed; they stay marked as being updated" in done.stdout + done.stderr


@pytest.mark.django_db
def test_a_cold_standings_read_through_the_api_takes_five_queries(league: Event, django_assert_max_num_queries: Any):
    standings_recompute(league)
    cache.clear()
    # The event with its standings' state, the count, the page of rows, the points per round, the teams.
    with django_assert_max_num_queries(5):
        response = Client().get("/api/v1/events/league/standings/")
    assert response.status_code == 200
    assert len(response.json()["results"]) == 40
