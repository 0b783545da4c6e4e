"""Signing in and out from any page, and landing somewhere that exists (issue 13's dead end)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import EventFactory, played, registered
from tournament.models import Event

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    assert response.status_code == 200
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def draft_event() -> Event:
    return EventFactory.create(slug="spring", name="Spring Open", public=True, status=Event.Status.DRAFT)


def test_every_page_offers_to_sign_in_and_back_where_one_was(draft_event: Event):
    page = Client().get("/events/spring/standings/").content.decode()
    assert 'href="/accounts/login/?next=/events/spring/standings/"' in page
    User.objects.create_user("ref", password="a long passphrase")
    client = Client()
    answer = client.post(
        "/accounts/login/", {"username": "ref", "password": "a long passphrase", "next": "/events/spring/standings/"}
    )
    assert answer.status_code == 302
    assert answer["Location"] == "/events/spring/standings/"


def test_signing_in_without_a_next_page_lands_on_my_events_and_signing_out_is_offered(draft_event: Event):
    User.objects.create_user("ref", password="a long passphrase")
    client = Client()
    answer = client.post("/accounts/login/", {"username": "ref", "password": "a long passphrase"})
    assert answer["Location"] == "/me/"  # not Django's /accounts/profile/, which does not exist
    assert "My events and tables" in text(client.get("/me/"))
    home = client.get("/").content.decode()
    assert "ref" in text(client.get("/"))
    assert 'action="/accounts/logout/"' in home
    assert client.post("/accounts/logout/")["Location"] == "/"
    assert "Sign in" in text(client.get("/"))


def test_a_referee_who_is_not_signed_in_finds_the_way_to_the_entry_page(draft_event: Event):
    game = played(draft_event, registered(draft_event, "Ann", "Bo", "Cy", "Di"))
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert f'href="/accounts/login/?next=/games/{game.pk}/entry/"' in page


def test_a_public_event_not_yet_started_does_not_read_draft(draft_event: Event):
    assert "Spring Open" in text(Client().get("/"))
    assert "draft" not in text(Client().get("/"))
    assert "draft" not in text(Client().get("/events/spring/"))
