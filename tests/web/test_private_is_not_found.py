"""A private event's pages answer 404 to whoever may not see it, as if it did not exist (issue 25, item 11):
a 403 would tell a stranger that the slug or the game is there. A public event's console stays a 403."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import client_for
from tests.factories import EventFactory, RoundFactory, TableFactory, played, registered
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db

WEB = [
    ("get", "/events/{slug}/manage/"),
    ("get", "/events/{slug}/manage/settings/"),
    ("get", "/events/{slug}/manage/players/"),
    ("post", "/events/{slug}/manage/rounds/"),
    ("get", "/events/{slug}/manage/rounds/1/"),
    ("get", "/events/{slug}/manage/rounds/1/cards/"),
    ("post", "/events/{slug}/manage/publish/"),
    ("post", "/events/{slug}/manage/referees/"),
    ("get", "/events/{slug}/games/new/"),
    ("get", "/events/{slug}/codes/"),
    ("get", "/games/{game}/entry/"),
    ("post", "/games/{game}/entry/"),
    ("get", "/games/{game}/confirm/"),
]
API: list[tuple[str, str, Any]] = [
    ("patch", "/api/v1/events/{slug}/", {"name": "x"}),
    ("delete", "/api/v1/events/{slug}/", None),
    ("post", "/api/v1/events/{slug}/players/", {"name": "Zed"}),
    ("post", "/api/v1/events/{slug}/rounds/", {}),
    ("post", "/api/v1/events/{slug}/rounds/1/seating", {"method": "random"}),
    ("get", "/api/v1/events/{slug}/rounds/1/seating/preview", None),
    ("post", "/api/v1/events/{slug}/schedule", {"csv": ""}),
    ("post", "/api/v1/games/", {"event": "{slug}", "players": []}),
    ("post", "/api/v1/games/{game}/hands/", {"result": "draw"}),
    ("get", "/api/v1/games/{game}/history/", None),
]


def event_with_a_game(*, public: bool) -> tuple[Event, Game]:
    event = EventFactory.create(slug="public" if public else "private", public=public)
    table = TableFactory.create(round=RoundFactory.create(event=event, number=1), number=1)
    return event, played(event, registered(event, "Ann", "Bo", "Cy", "Di"), table=table)


def stranger() -> Client:
    client = Client()
    client.force_login(User.objects.create_user("stranger"))
    return client


@pytest.mark.parametrize(("method", "path"), WEB)
def test_a_private_events_pages_are_not_found_by_a_stranger(method: str, path: str):
    event, game = event_with_a_game(public=False)
    assert getattr(stranger(), method)(path.format(slug=event.slug, game=game.pk)).status_code == 404


@pytest.mark.parametrize(("method", "path", "body"), API)
def test_a_private_events_api_is_not_found_by_a_stranger(method: str, path: str, body: Any):
    event, game = event_with_a_game(public=False)
    if isinstance(body, dict):
        body = {k: v.format(slug=event.slug) if isinstance(v, str) else v for k, v in body.items()}
    response = getattr(client_for(User.objects.create_user("stranger")), method)(
        path.format(slug=event.slug, game=game.pk), body, format="json"
    )
    assert response.status_code == 404, response.content[:200]


def test_a_public_events_console_is_still_forbidden():
    event, game = event_with_a_game(public=True)
    client = stranger()
    assert client.get(f"/events/{event.slug}/manage/").status_code == 403
    assert client.get(f"/games/{game.pk}/entry/").status_code == 403
