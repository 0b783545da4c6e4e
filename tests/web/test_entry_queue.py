"""The entry page's answers to the browser's offline queue (offline.js sends ``X-Offline-Queue: 1``): JSON that says
whether the hand is stored, so that a hand leaves the queue only once the server has it, and says why when not."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.services.hands import game_record_hand
from scoring.services.table_codes import round_codes_issue, table_code, table_code_revoke
from tests.factories import EventFactory, RoundFactory, TableFactory, played, registered
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db

QUEUE = {"X-Offline-Queue": "1"}


@pytest.fixture
def game() -> Game:
    """Round 1, table 1 of a running wrc-2025 event; Ann, Bo, Cy, Di in seat order, no hands yet."""
    event = EventFactory.create(slug="queue-open", status=Event.Status.RUNNING)
    players = registered(event, "Ann", "Bo", "Cy", "Di")
    table = TableFactory.create(round=RoundFactory.create(event=event, number=1), number=1)
    return played(event, players, table=table)


@pytest.fixture
def referee(game: Game) -> Client:
    user = User.objects.create_user("ref", password="x")
    game.event.referees.add(user)
    client = Client()
    client.force_login(user)
    return client


def queued_hand(game: Game, *, winner: str = "Bo", loser: str = "Cy", han: Any = 2, key: str = "") -> dict[str, Any]:
    ids = {s.player.name: s.player_id for s in game.seats.select_related("player")}
    return {
        "action": "save",
        "version": game.version,
        "result": "ron",
        "winner": ids[winner],
        "loser": ids[loser],
        "han": han,
        "fu": 30,
        "key": key or uuid.uuid4().hex,
    }


def send(client: Client, game: Game, data: dict[str, Any], **headers: str) -> Any:
    return client.post(f"/games/{game.pk}/entry/", data, headers={**QUEUE, **headers})


def test_a_stored_hand_is_acknowledged_and_a_resend_is_answered_as_stored_without_a_second_hand(
    game: Game, referee: Client
):
    data = queued_hand(game)
    first = send(referee, game, data)
    game.refresh_from_db()
    assert (first.status_code, first.json()) == (
        201,
        {"stored": True, "hand": 1, "version": game.version, "again": False},
    )
    # The answer was lost on the way (a dropped connection): the queue sends the same hand with the same key.
    again = send(referee, game, data)
    assert (again.status_code, again.json()) == (
        200,
        {"stored": True, "hand": 1, "version": game.version, "again": True},
    )
    assert game.hands.count() == 1


@pytest.mark.parametrize(
    ("login", "status", "reason", "words"),
    [
        (False, 401, "signin", "Your sign-in has ended"),
        (True, 403, "forbidden", "Only the event's organisers and referees enter hands."),
    ],
)
def test_a_session_that_may_not_write_is_told_so_and_nothing_is_stored(
    game: Game, login: bool, status: int, reason: str, words: str
):
    client = Client()
    if login:
        client.force_login(User.objects.create_user("stranger", password="x"))
    response = send(client, game, queued_hand(game))
    assert response.status_code == status
    assert response.json()["stored"] is False
    assert response.json()["reason"] == reason
    assert words in response.json()["message"]
    assert not game.hands.exists()


def test_a_renewed_table_code_is_named_as_the_reason(game: Game):
    assert game.table is not None
    round_codes_issue(round_=game.table.round)
    game.table.refresh_from_db()
    players = Client()
    assert players.post(f"/games/{game.pk}/code/", {"code": table_code(game.table)}).status_code == 302
    table_code_revoke(table=game.table, renew=True)
    response = send(players, game, queued_hand(game))
    assert response.status_code == 403
    assert response.json()["reason"] == "code"
    assert "The table's code was changed" in response.json()["message"]
    assert not game.hands.exists()


def test_a_hand_the_server_refuses_comes_back_with_the_reasons_by_field(game: Game, referee: Client):
    response = send(referee, game, queued_hand(game, han=100))  # 13 or more is up to 99
    assert response.status_code == 400
    assert response.json()["stored"] is False
    assert response.json()["reason"] == "refused"
    assert any(line.startswith("han: ") for line in response.json()["problems"])
    same = send(referee, game, queued_hand(game, winner="Cy", loser="Cy"))
    assert same.status_code == 400
    assert same.json()["problems"]
    assert not game.hands.exists()


def test_a_hand_based_on_an_older_game_is_a_conflict(game: Game, referee: Client):
    data = queued_hand(game)
    ids = {s.player.name: s.player_id for s in game.seats.select_related("player")}
    game_record_hand(
        game_id=game.pk,
        record={"result": "ron", "winner": ids["Di"], "loser": ids["Ann"], "han": 1, "fu": 30},
        user=None,
        version=None,
    )
    response = send(referee, game, data)
    assert response.status_code == 409
    assert (response.json()["stored"], response.json()["reason"]) == (False, "conflict")
    assert game.hands.count() == 1


def test_the_reasons_are_in_the_readers_language(game: Game):
    response = send(Client(), game, queued_hand(game), **{"Accept-Language": "ko"})
    message = response.json()["message"]
    assert "Your sign-in" not in message
    assert any("\uac00" <= ch <= "\ud7a3" for ch in message)  # Hangul


def test_the_ordinary_form_still_redirects(game: Game):
    """Without the queue's header the page answers as before: a redirect to the login, a redirect after a save."""
    assert Client().post(f"/games/{game.pk}/entry/", queued_hand(game)).status_code == 302
    assert not game.hands.exists()


def test_a_stranger_sending_the_queues_header_to_a_private_game_gets_not_found(game: Game):
    """As the page answers a stranger of a private event: a 404, not a 403 that says the game is there."""
    Event.objects.filter(pk=game.event_id).update(public=False)
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger"))
    assert send(stranger, game, queued_hand(game)).status_code == 404
    assert not game.hands.exists()
