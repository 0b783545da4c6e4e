"""Issue 25, item 5: a private event's players and name stay inside it. Another organiser's roster, log import,
table-code page or referee link neither reveals nor borrows them; players of public events are found as before."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import client_for
from tests.factories import EventFactory, played, registered
from tournament.models import Event, Player
from tournament.services.invites import invite_renew

pytestmark = pytest.mark.django_db
LOG = Path(__file__).parents[1] / "fixtures" / "online" / "tenhou" / "mjx-2010081709gm-00a9-0000-fe3371ad.xml"


def text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


@pytest.fixture
def secret(organiser: User) -> Event:
    """A private event of another organiser, its players known by federation id (as 8 of 8 were guessed)."""
    event = EventFactory.create(name="Closed League", slug="closed", public=False, organisers=[organiser])
    for n, name in enumerate(("Hidden Han", "Hidden Kim", "Hidden Lee", "Hidden Park"), start=1):
        Player.objects.filter(pk=registered(event, name)[0].pk).update(federation_id=f"KR-{n:03}")
    return event


@pytest.fixture
def theirs(stranger: User) -> Event:
    return EventFactory.create(name="Open Cup", slug="open", public=True, organisers=[stranger])


def as_user(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_roster_preview_does_not_name_a_private_player_found_by_federation_id(
    secret: Event, theirs: Event, stranger: User
):
    page = text(as_user(stranger).post("/events/open/manage/players/", {"text": "Guess, KR-001\nGuess2, KR-002"}))
    assert "Hidden" not in page
    as_user(stranger).post("/events/open/manage/players/", {"text": "Guess, KR-001", "action": "register"})
    registered_there = theirs.registrations.get().player
    assert (registered_there.name, registered_there.federation_id) == ("Guess", "KR-001")
    hidden = Player.objects.get(name="Hidden Han")
    assert registered_there.pk != hidden.pk  # a new record: the private one is not borrowed
    assert list(hidden.registrations.values_list("event__slug", flat=True)) == ["closed"]


def test_a_player_of_a_public_event_is_still_found_by_federation_id(theirs: Event, stranger: User, organiser: User):
    public = EventFactory.create(slug="last-year", public=True, organisers=[organiser])
    known = registered(public, "Known Choi")[0]
    Player.objects.filter(pk=known.pk).update(federation_id="KR-900")
    assert "Known Choi" in text(as_user(stranger).post("/events/open/manage/players/", {"text": "Choi, KR-900"}))
    as_user(stranger).post("/events/open/manage/players/", {"text": "Choi, KR-900", "action": "register"})
    assert theirs.registrations.get().player_id == known.pk


def test_a_log_import_does_not_pull_in_a_private_player_by_online_name(organiser: User, stranger: User, theirs: Event):
    closed = EventFactory.create(slug="closed-online", public=False, organisers=[organiser])
    url = "/api/v1/events/{}/games/import?create_players=true"
    mine = client_for(organiser).post(url.format("closed-online"), LOG.read_bytes(), content_type="application/xml")
    assert mine.status_code == 201, mine.content[:300]
    private_ids = set(closed.registrations.values_list("player_id", flat=True))
    answer = client_for(stranger).post(url.format("open"), LOG.read_bytes(), content_type="application/xml")
    assert answer.status_code == 400
    assert "is the online name of a player of events you cannot see" in answer.content.decode()
    assert not theirs.registrations.exists()
    assert set(Player.objects.filter(registrations__event=closed).values_list("pk", flat=True)) == private_ids


def test_a_private_events_name_is_not_on_its_table_code_page(secret: Event, organiser: User):
    game = played(secret, list(Player.objects.filter(registrations__event=secret)))
    assert "Closed League" not in text(Client().get(f"/games/{game.pk}/code/"))
    assert "Closed League" in text(as_user(organiser).get(f"/games/{game.pk}/code/"))


@pytest.mark.parametrize("invite", ["made-up", "ㅁ"])
def test_a_made_up_referee_link_to_a_private_event_is_not_found(secret: Event, stranger: User, invite: str):
    invite_renew(event=secret, role="referee")
    # Signed out or in, a made-up link says it is not valid (no sign-up form), and not whose event it names.
    for client, method in (
        (Client(), "get"),
        (Client(), "post"),
        (as_user(stranger), "get"),
        (as_user(stranger), "post"),
    ):
        response = getattr(client, method)(f"/events/closed/referee/{invite}/")
        assert response.status_code == 404
        assert "Closed League" not in response.content.decode()
    secret.refresh_from_db()
    assert "Closed League" in text(as_user(stranger).get(f"/events/closed/referee/{secret.referee_invite}/"))
