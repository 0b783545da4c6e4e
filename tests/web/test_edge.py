"""Writes from outside through the edge (scoring.edge): the same write sent again through any door (the API, the
entry page, its offline queue, a table's code) answers as the first time and adds no hand; the same key with
another body is refused; and a hand saved through the page costs no more statements than through the API."""

from __future__ import annotations

import re
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from scoring.services.table_codes import round_codes_issue, table_code
from tests.factories import EventFactory, RoundFactory, TableFactory, played, registered
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db

REUSED = "was already used for another request"


@dataclass(frozen=True, slots=True)
class Answer:
    """What a door answered, in the terms every door shares."""

    status: int
    hand: int | None = None  # the hand the answer says is stored
    version: int | None = None  # the game's version it says (the page does not say it)
    again: bool = False  # said to come from the key: nothing written
    refused: str = ""  # the words of a refusal


def table() -> Game:
    """Round 1, table 1 of a running wrc-2025 event, with a table code: Ann, Bo, Cy, Di, no hands yet."""
    event = EventFactory.create(slug=f"edge-{uuid.uuid4().hex[:8]}", status=Event.Status.RUNNING)
    players = registered(event, "Ann", "Bo", "Cy", "Di")
    game = played(event, players, table=TableFactory.create(round=RoundFactory.create(event=event), number=1))
    assert game.table is not None
    round_codes_issue(round_=game.table.round)
    return game


@pytest.fixture
def referee() -> User:
    return User.objects.create_user("ref")


def ron(game: Game, han: int = 3) -> dict[str, Any]:
    ids = {s.player.name: s.player_id for s in game.seats.select_related("player")}
    return {"result": "ron", "winner": ids["Bo"], "loser": ids["Cy"], "han": han, "fu": 40}


def signed_in(referee: User, game: Game) -> Client:
    game.event.referees.add(referee)
    client = Client()
    client.force_login(referee)
    return client


def with_code(game: Game) -> Client:
    """The players at the table, their browser opened with its code (no account)."""
    game.refresh_from_db()
    assert game.table is not None
    players = Client()
    assert players.post(f"/games/{game.pk}/code/", {"code": table_code(game.table)}).status_code == 302
    return players


def by_api(client: Any, game: Game, key: str, record: dict[str, Any]) -> Answer:
    response = client.post(f"/api/v1/games/{game.pk}/hands/", record, format="json", headers={"Idempotency-Key": key})
    body = response.json()
    if response.status_code != 201:
        return Answer(response.status_code, refused=" ".join(e["message"] for e in body["errors"]))
    return Answer(
        201, hand=body["hands_entered"], version=body["version"], again=response.get("Idempotent-Replayed") == "true"
    )


def by_page(client: Client, game: Game, key: str, record: dict[str, Any]) -> Answer:
    form = {"action": "save", "version": game.version, "key": key, **record}
    response = client.post(f"/games/{game.pk}/entry/", form)
    if response.status_code != 302:
        return Answer(response.status_code, refused=REUSED if REUSED in response.content.decode() else "")
    said = [str(m) for m in get_messages(response.wsgi_request)]  # the earlier sends' too: none was shown yet
    number = re.match(r"Hand (\d+) (added|was already saved)", said[-1])
    assert number is not None, said
    return Answer(302, hand=int(number.group(1)), again=number.group(2) == "was already saved")


def by_queue(client: Client, game: Game, key: str, record: dict[str, Any]) -> Answer:
    form = {"action": "save", "version": game.version, "key": key, **record}
    response = client.post(f"/games/{game.pk}/entry/", form, headers={"X-Offline-Queue": "1"})
    body = response.json()
    if not body["stored"]:
        return Answer(response.status_code, refused=" ".join(body.get("problems", [])))
    return Answer(response.status_code, hand=body["hand"], version=body["version"], again=body["again"])


def api_client(referee: User, game: Game) -> APIClient:
    game.event.referees.add(referee)
    client = APIClient()
    client.force_authenticate(referee)
    return client


# door: (the client for a game, how it sends a hand, the status of a refused key)
Door = tuple[Callable[[User, Game], Any], Callable[[Any, Game, str, dict[str, Any]], Answer], int]
DOORS: dict[str, Door] = {
    "api": (api_client, by_api, 422),
    "entry page": (signed_in, by_page, 400),
    "offline queue": (signed_in, by_queue, 400),
    "table code": (lambda _referee, game: with_code(game), by_page, 400),
    "table code, offline queue": (lambda _referee, game: with_code(game), by_queue, 400),
}


@pytest.mark.parametrize("door", list(DOORS))
def test_the_same_write_sent_again_answers_the_same_and_another_body_is_refused(referee: User, door: str):
    client_of, send, refused_status = DOORS[door]
    game = table()
    client = client_of(referee, game)
    key, hand = uuid.uuid4().hex, ron(game)
    first = send(client, game, key, hand)
    assert (first.hand, first.again, first.refused) == (1, False, "")
    written = Game.objects.get(pk=game.pk).version
    assert first.version in (None, written)  # the page does not say it
    again = send(client, game, key, hand)  # the same request again, as it was first sent (the version it read)
    assert (again.status, again.hand, again.version, again.again) == (
        200 if door.endswith("offline queue") else first.status,
        1,
        first.version,
        True,
    )
    other = send(client, game, key, ron(game, han=4))
    assert (other.status, other.hand) == (refused_status, None)
    assert REUSED in other.refused
    game.refresh_from_db()
    assert (game.hands.count(), game.version) == (1, written)  # neither the replay nor the refusal wrote


def test_a_key_belongs_to_the_door_it_was_first_sent_through(referee: User):
    """The page's key sent to the API (or the API's to the page) asks for another request: refused, no hand."""
    game = table()
    page, api = signed_in(referee, game), api_client(referee, game)
    assert by_page(page, game, "page-key", ron(game)).hand == 1
    assert by_api(api, game, "api-key", ron(game)).hand == 2
    assert by_api(api, game, "page-key", ron(game)).status == 422
    assert by_page(page, game, "api-key", ron(game)).refused == REUSED
    assert game.hands.count() == 2


def statements(send: Callable[[], Any]) -> int:
    with CaptureQueriesContext(connection) as captured:
        send()
    return len(captured)


@pytest.mark.parametrize("door", ["entry page", "offline queue", "table code"])
def test_a_hand_saved_through_the_page_costs_no_more_statements_than_through_the_api(referee: User, door: str):
    """Both signed in the same way (the browser's session, which the API takes too): the count is of the write,
    not of how the writer signed in. Each door adds the first hand to a game of its own, with a key."""
    through_api, through_page = table(), table()
    api = APIClient()
    api.force_login(referee)
    through_api.event.referees.add(referee)
    client_of, send, _refused = DOORS[door]
    client = client_of(referee, through_page)
    by_api_record, record = ron(through_api), ron(through_page)
    api_count = statements(lambda: by_api(api, through_api, uuid.uuid4().hex, by_api_record))
    page_count = statements(lambda: send(client, through_page, uuid.uuid4().hex, record))
    assert through_page.hands.count() == through_api.hands.count() == 1
    assert page_count <= api_count, f"{door}: {page_count} statements, the API's {api_count}"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="overlapping requests need PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("door", ["entry page", "offline queue", "table code"])
def test_two_copies_of_one_form_at_once_store_one_hand(referee: User, door: str):
    """A signed-in writer's key waits on its unique row, a table code's on the game's row: either way the copy
    that comes second gets the first one's answer."""
    client_of, send, _refused = DOORS[door]
    game = table()
    client = client_of(referee, game)
    key, hand = uuid.uuid4().hex, ron(game)
    answers: list[Answer] = []
    barrier = threading.Barrier(3)

    def copy() -> None:
        try:
            barrier.wait()
            answers.append(send(client, game, key, hand))
        finally:
            connection.close()

    threads = [threading.Thread(target=copy) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted((a.hand, a.again) for a in answers) == [(1, False), (1, True), (1, True)]
    assert game.hands.count() == 1
