"""Issue 25, item 11: an event's name is printable text on every path, as players' and teams' are."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import client_for
from tournament.models import Event

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["Spring\x07Open", "Spring\nOpen", "Spring\x85Open"])
def test_an_events_name_with_a_control_character_is_refused_by_the_api_and_the_console(name: str):
    user = User.objects.create_user("org")
    answer = client_for(user).post(
        "/api/v1/events/", {"name": name, "kind": "tournament", "ruleset": "wrc-2025"}, format="json"
    )
    assert answer.status_code == 400
    assert [e["field"] for e in answer.json()["errors"]] == ["name"]
    console = Client()
    console.force_login(user)
    page = console.post("/events/new/", {"name": name, "kind": "tournament", "ruleset_key": "wrc-2025", "rounds": "0"})
    assert page.status_code == 200
    assert "must be printable text" in page.content.decode()
    assert not Event.objects.exists()
