"""A new event in one form: its players pasted with it, and round 1 seated at once ("Create and seat round 1") or
from the console in one tap; all or nothing, a bad line named with nothing created."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.markup import has
from tests.web.test_console import text
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db
NAMES = "\n".join(
    [
        "Ann Lee",
        "Bo Kim",
        "Cy Park",
        "Dee Choi",
        "Eve Han",
        "Fay Jung",
        "Gus Yoon",
        "Hana Lim",
        "Ivy Seo",
        "Jun Oh",
        "Kai Moon",
        "Lee Shin",
    ]
)
FORM = {
    "name": "Thursday Cup",
    "kind": "tournament",
    "ruleset_key": "wrc-2025",
    "rounds": "4",
    "time_limit_minutes": "90",
    "break_minutes": "15",
}


def test_create_and_seat_round_1_registers_the_players_and_opens_the_tables(org: Client):
    response = org.post("/events/new/", {**FORM, "players": NAMES, "action": "seat"})
    event = Event.objects.get(name="Thursday Cup")
    assert response.status_code == 302
    assert response["Location"] == f"/events/{event.slug}/manage/rounds/1/"
    assert event.registrations.count() == 12
    games = Game.objects.filter(event=event, table__round__number=1)
    assert games.count() == 3
    page = text(org.get(response["Location"]))
    assert "Thursday Cup is ready: 12 players, round 1 seated." in page
    assert page.count("Enter hands") == 3


def test_created_with_its_players_the_console_seats_round_1_in_one_tap(org: Client):
    response = org.post("/events/new/", {**FORM, "players": NAMES, "action": "create"})
    event = Event.objects.get(name="Thursday Cup")
    assert response["Location"] == f"/events/{event.slug}/manage/"
    assert not event.rules_locked()
    home = org.get(response["Location"]).content.decode()
    assert f'action="/events/{event.slug}/manage/rounds/1/"' in home
    assert has(home, '<input type="hidden" name="method" value="random">')
    seated = org.post(f"/events/{event.slug}/manage/rounds/1/", {"method": "random", "action": "seat"})
    assert seated.status_code == 302
    assert Game.objects.filter(event=event, table__round__number=1).count() == 3


def test_without_players_the_event_asks_for_them_next(org: Client):
    response = org.post("/events/new/", FORM)
    event = Event.objects.get(name="Thursday Cup")
    assert response["Location"] == f"/events/{event.slug}/manage/players/"
    assert event.registrations.count() == 0


@pytest.mark.parametrize(
    ("players", "why"),
    [
        ("Ann Lee\nBo Kim\nAnn Lee", "line 1: Ann Lee is in the list twice"),
        ("", "paste the players to seat round 1"),
        ("Ann\nBo\nCy", "3 players cannot fill a table of 4"),
    ],
)
def test_a_refused_start_names_why_and_creates_nothing(org: Client, players: str, why: str):
    response = org.post("/events/new/", {**FORM, "players": players, "action": "seat"})
    assert response.status_code == 200
    assert why in text(response)
    assert not Event.objects.filter(name="Thursday Cup").exists()
