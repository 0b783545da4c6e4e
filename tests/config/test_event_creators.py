"""EVENT_CREATORS (issue 25): who may create events, in the console and the API. "anyone" signed in (the
default, as before) or "organisers", the users with the permission tournament.add_event."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from config.env import env_choice
from tests.conftest import client_for
from tournament.models import Event

pytestmark = pytest.mark.django_db
NEW_EVENT = {"name": "Seoul Open", "kind": "tournament", "ruleset_key": "wrc-2025", "rounds": "0", "break_minutes": "0"}
REFUSAL = "Only organisers create events on this site"


def _organiser_by_group() -> User:
    group = Group.objects.create(name="organisers")
    group.permissions.add(Permission.objects.get(codename="add_event", content_type__app_label="tournament"))
    user = User.objects.create_user("allowed")
    user.groups.add(group)
    return user


def _console(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize(("creators", "allowed"), [("anyone", True), ("organisers", False)])
def test_a_plain_account_creates_events_unless_organisers_only(settings: Any, creators: str, allowed: bool):
    settings.EVENT_CREATORS = creators
    stranger = User.objects.create_user("stranger")
    api = client_for(stranger).post("/api/v1/events/", {"name": "Mine", "ruleset": "wrc-2025"}, format="json")
    console = _console(stranger)
    page = console.post("/events/new/", NEW_EVENT)
    mine = console.get("/me/").content.decode()
    if allowed:
        assert (api.status_code, page.status_code) == (201, 302)
        assert 'href="/events/new/"' in mine
        assert Event.objects.count() == 2
    else:
        assert (api.status_code, page.status_code) == (403, 403)
        assert REFUSAL in api.json()["detail"]
        assert REFUSAL in page.content.decode()  # the console's 403 page says why
        assert console.get("/events/new/").status_code == 403
        assert 'href="/events/new/"' not in mine  # the action is hidden from those who cannot use it
        assert not Event.objects.exists()


def test_organisers_only_lets_the_permission_through_a_group(settings: Any):
    settings.EVENT_CREATORS = "organisers"
    user = _organiser_by_group()
    assert (
        client_for(user).post("/api/v1/events/", {"name": "Ours", "ruleset": "wrc-2025"}, format="json").status_code
        == 201
    )
    console = _console(user)
    assert 'href="/events/new/"' in console.get("/me/").content.decode()
    assert console.post("/events/new/", NEW_EVENT).status_code == 302
    assert Event.objects.count() == 2


def test_the_refusal_is_in_korean_for_a_korean_reader(settings: Any):
    settings.EVENT_CREATORS = "organisers"
    response = client_for(User.objects.create_user("stranger")).post(
        "/api/v1/events/", {"name": "Mine", "ruleset": "wrc-2025"}, format="json", HTTP_ACCEPT_LANGUAGE="ko"
    )
    assert response.status_code == 403
    assert "주최자" in response.json()["detail"]


def test_event_creators_is_read_strictly(monkeypatch: Any):
    monkeypatch.setenv("EVENT_CREATORS", "Organisers")
    assert env_choice("EVENT_CREATORS", "anyone", ("anyone", "organisers")) == "organisers"
    monkeypatch.setenv("EVENT_CREATORS", "admins")
    with pytest.raises(ImproperlyConfigured, match="EVENT_CREATORS='admins': expected one of anyone, organisers"):
        env_choice("EVENT_CREATORS", "anyone", ("anyone", "organisers"))
