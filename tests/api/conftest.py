"""The API fuzzing's fixtures (tests/api/fuzzing.py): the application as a WSGI server runs it, and an event."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from rest_framework.authtoken.models import Token

from tests.factories import EventFactory, RoundFactory, played, registered


@pytest.fixture
def wsgi_app(settings: Any) -> Iterator[WSGIHandler]:
    """The application as a WSGI server runs it, on the test's database connection (as Django's test client does)."""
    settings.ALLOWED_HOSTS = ["localhost"]  # the host schemathesis's WSGI client sends
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield WSGIHandler()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def fuzz_data() -> dict[str, Any]:
    """An organiser's event: eight players, round 1 to seat, a game of round 2 with three hands."""
    organiser = User.objects.create_user("fuzz-organiser")
    event = EventFactory.create(slug="fuzz", organisers=[organiser], referees=[organiser])
    players = registered(event, *(f"Player {i}" for i in range(8)))
    RoundFactory.create(event=event, number=1)
    RoundFactory.create(event=event, number=2)
    ids = [p.pk for p in players]
    game = played(
        event,
        players[:4],
        [
            {"result": "draw", "tenpai": [ids[0]]},
            {"result": "ron", "winner": ids[1], "loser": ids[2], "han": 2, "fu": 30},
            {"result": "tsumo", "winner": ids[3], "han": 1, "fu": 30},
        ],
    )
    return {"token": Token.objects.create(user=organiser).key, "game": game, "event": event, "ids": ids}
