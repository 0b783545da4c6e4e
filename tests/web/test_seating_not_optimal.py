"""A round the seating could not prove optimal says so on the console, in the preview and once seated: plainly,
with its repeated pairs and at most how many of them a better seating could avoid."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from rules.seating import next_round
from tests.conftest import client_for
from tests.factories import EventFactory, registered
from tournament.models import Event

pytestmark = pytest.mark.django_db
PAGE = "/events/swiss/manage/rounds/2/"
NOT_PROVEN = "Not proven optimal: the search stopped before it could rule out a better seating."


def text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


@pytest.fixture
def event(organiser: User) -> Event:
    """Sixteen players seated by id in round 1; round 2 swiss by the same order (nobody has finished a game), so
    its rank tables are round 1's again."""
    event = EventFactory.create(slug="swiss", organisers=[organiser])
    ids = [p.pk for p in registered(event, *(f"P{i:02}" for i in range(16)))]
    event.rounds.create(number=2)
    csv = "round,table,east,south,west,north\n" + "".join(
        f"1,{t + 1}," + ",".join(map(str, ids[4 * t : 4 * t + 4])) + "\n" for t in range(4)
    )
    assert client_for(organiser).post("/api/v1/events/swiss/schedule", {"csv": csv}, format="json").status_code == 201
    return event


@pytest.fixture
def org(organiser: User) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


@pytest.fixture
def no_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(next_round, "time_limit_for", lambda players: 0.0)


@pytest.mark.usefixtures("no_time")
def test_the_preview_says_the_round_is_not_proven_optimal_with_its_repeats(org: Client, event: Event):
    response = org.post(PAGE, {"method": "swiss", "action": "preview"})
    assert response.status_code == 200
    assert not response.context["preview"]["plan"].optimal
    shown = text(response)
    assert NOT_PROVEN in shown
    assert "24 pairs meet again; at most 24 of them could have been avoided." in shown


@pytest.mark.usefixtures("no_time")
def test_seating_such_a_round_says_so_beside_the_seated_note(org: Client, event: Event):
    response = org.post(PAGE, {"method": "swiss", "action": "seat", "unsettled_ok": "on"}, follow=True)
    shown = text(response)
    assert "Round 2 is seated at 4 tables." in shown
    assert f"{NOT_PROVEN} 24 pairs meet again; at most 24 of them could have been avoided." in shown


@pytest.mark.usefixtures("no_time")
def test_the_notice_is_in_the_organisers_language(org: Client, event: Event):
    response = org.post(PAGE, {"method": "swiss", "action": "preview"}, HTTP_ACCEPT_LANGUAGE="ko")
    shown = text(response)
    assert "최적임이 증명되지 않았습니다" in shown
    assert "다시 만나는 조합이 24개이며, 그중 최대 24개는 피할 수 있었습니다." in shown


def test_a_round_proven_optimal_has_no_such_notice(org: Client, event: Event):
    response = org.post(PAGE, {"method": "swiss", "action": "preview"})
    assert response.context["preview"]["plan"].optimal
    assert response.context["preview"]["doubts"] == []
    assert NOT_PROVEN not in text(response)
    response = org.post(PAGE, {"method": "swiss", "action": "seat", "unsettled_ok": "on"}, follow=True)
    assert "Round 2 is seated at 4 tables." in text(response)
    assert NOT_PROVEN not in text(response)
