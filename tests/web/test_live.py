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
from tests.factories import played
from tests.markup import has
from tournament.models import Event, Game, Player, Round, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing_game(event: Event, players: list[Player], table: Table) -> Game:
    """Round 1, table 1 of the shared event opened for play: Ann, Bo, Cy, Di seated, no hand yet."""
    return played(event, players, table=table)


def ron(game: Game) -> HandRecord:
    first, _, third, _ = [seat.player_id for seat in game.seats.order_by("position")]
    return {"result": "ron", "han": 3, "fu": 40, "winner": first, "loser": third}


def etag_of(client: Client, slug: str = "spring") -> str:
    response = client.get(f"/events/{slug}/live/")
    assert response.status_code == 200
    return str(response["ETag"])


def test_an_unchanged_event_answers_304_and_a_hand_changes_it(
    playing_game: Game, django_capture_on_commit_callbacks: Any
):
    client = Client()
    first = client.get("/events/spring/live/")
    assert first["Cache-Control"] == "public, max-age=1"
    body = first.json()
    assert body["round"] == 1
    assert body["tables"] == [
        {
            "game": playing_game.pk,
            "table": 1,
            "state": "waiting",
            "hands": 0,
            "version": playing_game.version,
            "scores": [30000, 30000, 30000, 30000],
        }
    ]
    etag = str(first["ETag"])
    assert client.get("/events/spring/live/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        game_record_hand(game_id=playing_game.pk, record=ron(playing_game), user=None, version=None)
    again = client.get("/events/spring/live/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200
    assert again["ETag"] != etag
    table = again.json()["tables"][0]
    assert (table["state"], table["hands"]) == ("playing", 1)
    assert table["scores"][0] > 30000 > table["scores"][2]


def test_the_version_moves_only_after_the_commit(playing_game: Game, django_capture_on_commit_callbacks: Any):
    before = live_version(playing_game.event_id)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game_record_hand(game_id=playing_game.pk, record=ron(playing_game), user=None, version=None)
        assert live_version(playing_game.event_id) == before  # a watcher must not read a write that is not there yet
    for callback in callbacks:
        callback()
    assert live_version(playing_game.event_id) > before


@pytest.mark.parametrize("write", ["correction", "penalty", "clock"])
def test_a_correction_a_penalty_and_the_clock_bump_the_version(
    playing_game: Game, write: str, django_capture_on_commit_callbacks: Any
):
    game_record_hand(game_id=playing_game.pk, record=ron(playing_game), user=None, version=None)
    before = live_version(playing_game.event_id)
    with django_capture_on_commit_callbacks(execute=True):
        if write == "correction":
            game_change_hand(
                game_id=playing_game.pk, index=0, record={**ron(playing_game), "han": 4}, user=None, version=None
            )
        elif write == "penalty":
            east = playing_game.seats.get(position=0).player_id
            penalty_save(
                penalty=Penalty(event=playing_game.event, player_id=east, points=-10, reason="late"), user=None
            )
        else:
            round_clock_start(round_=Round.objects.get(tables__game=playing_game), minutes=90)
    assert live_version(playing_game.event_id) > before


def test_a_version_lost_with_the_cache_comes_back_later_not_again(playing_game: Game):
    from django.core.cache import cache

    before = live_version(playing_game.event_id)
    cache.clear()
    assert live_version(playing_game.event_id) >= before


def test_a_304_reads_no_database_for_an_anonymous_watcher(playing_game: Game):
    client = Client()
    etag = etag_of(client)
    with CaptureQueriesContext(connection) as queries:
        for _ in range(20):
            assert client.get("/events/spring/live/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert len(queries.captured_queries) == 0


def test_a_private_event_is_missing_to_strangers_and_not_shared(playing_game: Game, organiser: User):
    Event.objects.filter(pk=playing_game.event_id).update(public=False)
    playing_game.event.refresh_from_db()
    playing_game.event.save()  # hidden through a save: the cached public id is forgotten
    assert Client().get("/events/spring/live/").status_code == 404
    assert Client().get("/events/missing/live/").status_code == 404
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger"))
    assert stranger.get("/events/spring/live/").status_code == 404
    client = Client()  # the shared event's organiser
    client.force_login(organiser)
    answer = client.get("/events/spring/live/")
    assert answer.status_code == 200
    assert answer["Cache-Control"] == "private, no-cache"


def test_the_pages_carry_the_live_address_and_their_regions(playing_game: Game):
    client = Client()
    for path in [
        "/events/spring/rounds/1/",
        f"/games/{playing_game.pk}/",
        "/events/spring/standings/",
        "/events/spring/projector/",
        f"/games/{playing_game.pk}/overlay/",
    ]:
        html = client.get(path).content.decode()
        assert 'data-live="/events/spring/live/"' in html, path
        assert "data-live-region" in html, path
        assert 'aria-live="polite"' in html, path
    assert f'data-live-game="{playing_game.pk}"' in client.get(f"/games/{playing_game.pk}/").content.decode()


def test_the_projector_and_the_overlay_show_the_round_and_the_table(playing_game: Game):
    game_record_hand(game_id=playing_game.pk, record=ron(playing_game), user=None, version=None)
    projector = Client().get("/events/spring/projector/").content.decode()
    assert "Table 1" in projector
    assert "Round 1" in projector
    assert 'name="viewport"' in projector
    overlay = Client().get(f"/games/{playing_game.pk}/overlay/").content.decode()
    for name in ["Ann", "Bo", "Cy", "Di"]:
        assert f'<span class="ov-name">{name}</span>' in overlay
    assert has(overlay, "<strong>East 1</strong> · honba 1")  # the round as players say it (web.round_words)
    assert has(overlay, "Hand 1: ")
    assert Client().get("/events/spring/projector/?round=9").status_code == 404
    assert Client().get("/events/spring/projector/?round=x").status_code == 404
    assert f"/games/{playing_game.pk}/overlay/" in Client().get(f"/games/{playing_game.pk}/").content.decode()


def test_a_hidden_events_projector_and_overlay_are_missing(playing_game: Game):
    Event.objects.filter(pk=playing_game.event_id).update(public=False)
    assert Client().get("/events/spring/projector/").status_code == 404
    assert Client().get(f"/games/{playing_game.pk}/overlay/").status_code == 404
