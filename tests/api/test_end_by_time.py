"""The API's end by time (issue 24): a game with no hand is not ended, a game ended by time refuses more hands with
409 naming why, and ``{"end": null}`` reopens it on the game's verified history."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.conftest import client_for, rows
from tests.factories import EventFactory, registered

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organiser: User, referee: User) -> dict[str, Any]:
    event = EventFactory.create(slug="spring", organisers=[organiser], referees=[referee])
    return {"slug": event.slug, "players": [p.pk for p in registered(event, "Ann", "Bo", "Cy", "Di")]}


@pytest.fixture
def game(event: dict[str, Any], referee: User) -> dict[str, Any]:
    data: dict[str, Any] = (
        client_for(referee)
        .post("/api/v1/games/", {"event": event["slug"], "players": event["players"]}, format="json")
        .json()
    )
    return data


def patch(game: dict[str, Any], user: User, body: dict[str, Any], version: int) -> Any:
    return client_for(user).patch(f"/api/v1/games/{game['id']}/", body, format="json", HTTP_IF_MATCH=f'"{version}"')


def refusal(response: Any) -> tuple[int, list[tuple[str, str]]]:
    body = response.json()
    return response.status_code, [(e["field"], e["message"]) for e in body["errors"]]


def test_a_game_with_no_hand_is_not_ended_by_time(game: dict[str, Any], referee: User):
    response = patch(game, referee, {"end": "time"}, game["version"])
    assert refusal(response) == (
        409,
        [("end", "no hand has been entered: a game that has not started cannot be ended by time")],
    )
    assert response.json()["version"] == game["version"]
    now = client_for(None).get(f"/api/v1/games/{game['id']}/").json()
    assert (now["status"], now["end"], now["version"]) == ("playing", None, game["version"])


def test_a_game_ended_by_time_refuses_hands_until_it_is_reopened(
    event: dict[str, Any], game: dict[str, Any], referee: User, organiser: User
):
    ann, bo, cy, di = event["players"]
    hands = f"/api/v1/games/{game['id']}/hands/"
    added = (
        client_for(referee)
        .post(hands, {"result": "ron", "winner": ann, "loser": cy, "han": 3, "fu": 40}, format="json")
        .json()
    )
    ended = patch(game, organiser, {"end": "time"}, added["version"]).json()
    assert (ended["status"], ended["end"], ended["hands_entered"]) == ("finished", "time", 1)
    more = client_for(referee).post(
        hands, {"result": "ron", "winner": bo, "loser": di, "han": 2, "fu": 30}, format="json"
    )
    assert refusal(more) == (
        409,
        [("end", "this game was ended by time after hand 1: no more hands can be added until an organiser reopens it")],
    )
    assert more.json()["version"] == ended["version"]
    only = client_for(referee).delete(f"{hands}0/", HTTP_IF_MATCH=f'"{ended["version"]}"')
    assert refusal(only) == (
        409,
        [("end", "this is the only hand of a game ended by time: reopen the game to delete it")],
    )
    corrected = client_for(referee).patch(
        f"{hands}0/", {"han": 4}, format="json", HTTP_IF_MATCH=f'"{ended["version"]}"'
    )
    assert corrected.status_code == 200
    assert (corrected.json()["status"], corrected.json()["result"]["final"][0]["score"]) == ("finished", 42000)
    reopened = patch(game, organiser, {"end": None}, corrected.json()["version"])
    assert (reopened.json()["status"], reopened.json()["end"]) == ("playing", None)
    assert (
        client_for(referee)
        .post(hands, {"result": "ron", "winner": bo, "loser": di, "han": 2, "fu": 30}, format="json")
        .status_code
        == 201
    )
    history = rows(client_for(organiser).get(f"/api/v1/games/{game['id']}/history/"))
    assert [(c["action"], c["after"].get("end") if c["action"] == "game" else c["index"]) for c in history] == [
        ("add", 0),
        ("game", "time"),
        ("change", 0),
        ("game", None),
        ("add", 1),
    ]
    verified = client_for(None).get(f"/api/v1/games/{game['id']}/history/?verify=1").json()
    assert (verified["intact"], verified["entries"]) == (True, 5)
