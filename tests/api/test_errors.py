"""Every refusal of the API has one shape: ``detail`` and ``errors: [{field, message}]``, DRF's own included."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.conftest import client_for
from tests.factories import EventFactory, played, registered
from tournament.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(referee: User) -> Game:
    event = EventFactory.create(slug="errors", referees=[referee])
    return played(event, registered(event, "Ann", "Bo", "Cy", "Di"))


def shape(response: Any) -> tuple[int, str, list[tuple[str, str]]]:
    body = response.json()
    assert set(body) - {"version"} == {"detail", "errors"}, body
    assert isinstance(body["detail"], str)
    assert body["detail"]
    return response.status_code, body["detail"], [(e["field"], e["message"]) for e in body["errors"]]


def test_drf_type_errors_name_the_field_inside_lists_and_objects(referee: User, game: Game):
    response = client_for(referee).post(
        "/api/v1/games/", {"event": "errors", "players": [1, "two", 3, None]}, format="json"
    )
    assert shape(response) == (
        400,
        "invalid input; nothing was saved",
        [("players[1]", "A valid integer is required."), ("players[3]", "This field may not be null.")],
    )
    response = client_for(referee).post("/api/v1/games/", {"players": []}, format="json")
    assert shape(response)[2] == [("event", "This field is required.")]


def test_the_services_refusals_and_conflicts_share_the_shape(referee: User, game: Game):
    ann, _bo, *_ = game.seats.order_by("position").values_list("player_id", flat=True)
    url = f"/api/v1/games/{game.pk}/hands/"
    refused = client_for(referee).post(
        url, {"result": "ron", "winner": ann, "loser": ann, "han": 1, "fu": 30}, format="json"
    )
    assert shape(refused) == (
        400,
        "invalid input; nothing was saved",
        [("winner", "Ann cannot win on their own discard (also the loser)")],
    )
    stale = client_for(referee).post(url, {"result": "draw"}, format="json", headers={"If-Match": '"99"'})
    status, detail, errors = shape(stale)
    assert (status, errors, stale.json()["version"]) == (409, [], game.version)
    assert "the game has changed" in detail


@pytest.mark.parametrize(
    ("method", "path", "body", "code"),
    [
        ("get", "/api/v1/games/999999/", None, 404),
        ("post", "/api/v1/games/{game}/hands/", {"result": "draw"}, 401),  # anonymous
        ("delete", "/api/v1/games/{game}/hands/0/", None, 401),
        ("get", "/api/v1/events/errors/schedule", None, 405),
        ("get", "/api/v1/games/?page=99", None, 404),
    ],
)
def test_drf_refusals_have_the_shape_too(game: Game, method: str, path: str, body: Any, code: int):
    response = getattr(client_for(None), method)(path.format(game=game.pk), body, format="json")
    assert shape(response)[0] == code


def test_a_body_that_is_not_json_is_refused_in_the_shape(referee: User, game: Game):
    response = client_for(referee).generic(
        "POST", f"/api/v1/games/{game.pk}/hands/", "{not json", content_type="application/json"
    )
    status, detail, errors = shape(response)
    assert (status, errors) == (400, [])
    assert detail.startswith("JSON parse error")


@pytest.mark.parametrize(
    "path", ["/api/v1/no-such-thing/", "/api/v1/events/errors/no-such/", "/api/nothing", "/api/v1/games/1/hands/x/"]
)
def test_an_address_the_api_does_not_have_is_a_json_404(path: str):
    response = client_for(None).get(path)
    assert response["Content-Type"] == "application/json"
    assert shape(response) == (404, "Not found.", [])


def test_an_unknown_page_outside_the_api_stays_html():
    response = client_for(None).get("/no-such-page/")
    assert (response.status_code, response["Content-Type"].split(";")[0]) == (404, "text/html")
