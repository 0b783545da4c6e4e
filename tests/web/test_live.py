"""The pages that keep up (issue 22): one small endpoint says what changed in an event. Its version is bumped
after the commit of every write a page shows; a watcher who has it gets a 304 that reads no database; a hidden
event is missing to strangers; the projector and the overlay show the round and a featured table."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.models import Penalty
from scoring.services.hands import game_change_hand, game_record_hand
from scoring.services.live import live_version
from scoring.services.penalties import penalty_save
from scoring.services.rounds import round_clock_start
from scoring.sheet.record import HandRecord
from tests.factories import EventFactory, RoundFactory, TableFactory, played, registered
from tests.markup import has
from tournament.models import Event, Game, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Game:
    event = EventFactory.create(slug="open", public=True, status=Event.Status.RUNNING)
    table = TableFactory.create(round=RoundFactory.create(event=event, number=1), number=1)
    return played(event, registered(event, "Ann", "Bo", "Cy", "Di"), table=table)


def ron(game: Game) -> HandRecord:
    first, _, third, _ = [seat.player_id for seat in game.seats.order_by("position")]
    return {"result": "ron", "han": 3, "fu": 40, "winner": first, "loser": third}


def etag_of(client: Client, slug: str = "open") -> str:
    response = client.get(f"/events/{slug}/live/")
    assert response.status_code == 200
    return str(response["ETag"])


def test_an_unchanged_event_answers_304_and_a_hand_changes_it(game: Game, django_capture_on_commit_callbacks: Any):
    client = Client()
    first = client.get("/events/open/live/")
    assert first["Cache-Control"] == "public, max-age=1"
    body = first.json()
    assert body["round"] == 1
    assert body["tables"] == [{"game": game.pk, "table": 1, "state": "waiting", "hands": 0, "version": game.version,
                               "scores": [30000, 30000, 30000, 30000]}]
    etag = str(first["ETag"])
    assert client.get("/events/open/live/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        game_record_hand(game_id=game.pk, record=ron(game), user=None, version=None)
    again = client.get("/events/open/live/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200
    assert again["ETag"] != etag
    table = again.json()["tables"][0]
    assert (table["state"], table["hands"]) == ("playing", 1)
    assert table["scores"][0] > 30000 > table["scores"][2]


def test_the_version_moves_only_after_the_commit(game: Game, django_capture_on_commit_callbacks: Any):
    before = live_version(game.event_id)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game_record_hand(game_id=game.pk, record=ron(game), user=None, version=None)
        assert live_version(game.event_id) == before  # a watcher must not read a write that is not there yet
    for callback in callbacks:
        callback()
    assert live_version(game.event_id) > before


@pytest.mark.parametrize("write", ["correction", "penalty", "clock"])
def test_a_correction_a_penalty_and_the_clock_bump_the_version(game: Game, write: str,
                                                                django_capture_on_commit_callbacks: Any):
    game_record_hand(game_id=game.pk, record=ron(game), user=None, version=None)
    before = live_version(game.event_id)
    with django_capture_on_commit_callbacks(execute=True):
        if write == "correction":
            game_change_hand(game_id=game.pk, index=0, record={**ron(game), "han": 4}, user=None, version=None)
        elif write == "penalty":
            penalty_save(penalty=Penalty(event=game.event, player_id=game.seats.get(position=0).player_id, points=-10,
                                         reason="late"), user=None)
        else:
            round_clock_start(round_=Round.objects.get(tables__game=game), minutes=90)
    assert live_version(game.event_id) > before


def test_a_version_lost_with_the_cache_comes_back_later_not_again(game: Game):
    from django.core.cache import cache

    before = live_version(game.event_id)
    cache.clear()
    assert live_version(game.event_id) >= before


def test_a_304_reads_no_database_for_an_anonymous_watcher(game: Game):
    client = Client()
    etag = etag_of(client)
    with CaptureQueriesContext(connection) as queries:
        for _ in range(20):
            assert client.get("/events/open/live/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert len(queries.captured_queries) == 0


def test_a_private_event_is_missing_to_strangers_and_not_shared(game: Game):
    Event.objects.filter(pk=game.event_id).update(public=False)
    game.event.refresh_from_db()
    game.event.save()  # hidden through a save: the cached public id is forgotten
    assert Client().get("/events/open/live/").status_code == 404
    assert Client().get("/events/missing/live/").status_code == 404
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger"))
    assert stranger.get("/events/open/live/").status_code == 404
    organiser = User.objects.create_user("org")
    game.event.organisers.add(organiser)
    client = Client()
    client.force_login(organiser)
    answer = client.get("/events/open/live/")
    assert answer.status_code == 200
    assert answer["Cache-Control"] == "private, no-cache"


def test_the_pages_carry_the_live_address_and_their_regions(game: Game):
    client = Client()
    for path in ["/events/open/rounds/1/", f"/games/{game.pk}/", "/events/open/standings/",
                 "/events/open/projector/", f"/games/{game.pk}/overlay/"]:
        html = client.get(path).content.decode()
        assert 'data-live="/events/open/live/"' in html, path
        assert "data-live-region" in html, path
        assert 'aria-live="polite"' in html, path
    assert f'data-live-game="{game.pk}"' in client.get(f"/games/{game.pk}/").content.decode()


def test_the_projector_and_the_overlay_show_the_round_and_the_table(game: Game):
    game_record_hand(game_id=game.pk, record=ron(game), user=None, version=None)
    projector = Client().get("/events/open/projector/").content.decode()
    assert "Table 1" in projector
    assert "Round 1" in projector
    assert 'name="viewport"' in projector
    overlay = Client().get(f"/games/{game.pk}/overlay/").content.decode()
    for name in ["Ann", "Bo", "Cy", "Di"]:
        assert f'<span class="ov-name">{name}</span>' in overlay
    assert has(overlay, "<strong>East 1</strong> · honba 1")  # the round as players say it (web.round_words)
    assert has(overlay, "Hand 1: ")
    assert Client().get("/events/open/projector/?round=9").status_code == 404
    assert Client().get("/events/open/projector/?round=x").status_code == 404
    assert f"/games/{game.pk}/overlay/" in Client().get(f"/games/{game.pk}/").content.decode()


def test_a_hidden_events_projector_and_overlay_are_missing(game: Game):
    Event.objects.filter(pk=game.event_id).update(public=False)
    assert Client().get("/events/open/projector/").status_code == 404
    assert Client().get(f"/games/{game.pk}/overlay/").status_code == 404
