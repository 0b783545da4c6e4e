"""Seating a round swiss while an earlier round still has tables playing: the standings it seats by are not final.
The API's preview and the console say so, naming the round and its tables; the console seats only once the
organiser ticks that they go on knowingly, and the API's seating goes ahead as it always did."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.services.hands import game_put_sheet
from tests.conftest import client_for
from tests.factories import RoundFactory, registered
from tournament.models import Event, Game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("table_two_unstarted")]
API = "/api/v1/events/spring"
STILL = "round 1 still has table 2 playing: the standings swiss seating goes by are not final"


def text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


@pytest.fixture
def table_two_unstarted(event: Event, organiser: User) -> None:
    """Eight players of the shared event at two tables in round 1; table 1 has finished, table 2 has not started;
    round 2 to seat."""
    ids = [p.pk for p in registered(event, *(f"P{i}" for i in range(8)))]
    RoundFactory.create(event=event, number=2)
    csv = "round,table,east,south,west,north\n" + "".join(
        f"1,{t + 1}," + ",".join(map(str, ids[4 * t : 4 * t + 4])) + "\n" for t in range(2)
    )
    assert client_for(organiser).post(f"{API}/schedule", {"csv": csv}, format="json").status_code == 201
    finish(event, 1)


def finish(event: Event, table: int) -> None:
    game = Game.objects.get(event=event, table__round__number=1, table__number=table)
    east, south = game.seats.order_by("position").values_list("player_id", flat=True)[:2]
    game_put_sheet(
        game_id=game.pk,
        hands=[{"result": "ron", "winner": east, "loser": south, "han": 1, "fu": 30}],
        user=None,
        version=None,
        ended_by_time=True,
    )


def warnings(organiser: User, method: str) -> list[dict[str, Any]]:
    response = client_for(organiser).get(f"{API}/rounds/2/seating/preview", {"method": method, "seed": "3"})
    assert response.status_code == 200, response.json()
    found: list[dict[str, Any]] = response.json()["warnings"]
    return found


def test_the_apis_swiss_preview_names_the_round_and_the_tables_still_playing(organiser: User, event: Event):
    assert warnings(organiser, "swiss") == [{"code": "round_not_finished", "round": 1, "tables": [2], "message": STILL}]
    assert warnings(organiser, "random") == []  # random tables do not go by the standings
    game_put_sheet(
        game_id=Game.objects.get(table__number=2).pk, hands=[{"result": "draw", "tenpai": []}], user=None, version=None
    )
    assert warnings(organiser, "swiss")[0]["tables"] == [2]  # playing, a hand in: still not final
    finish(event, 2)
    assert warnings(organiser, "swiss") == []


def test_the_warning_speaks_korean(organiser: User, event: Event):
    response = client_for(organiser).get(
        f"{API}/rounds/2/seating/preview", {"method": "swiss"}, HTTP_ACCEPT_LANGUAGE="ko"
    )
    assert response.json()["warnings"][0]["message"] == (
        "1회전의 2번 테이블이 아직 경기 중입니다: 스위스식 배정이 따르는 순위가 확정되지 않았습니다"
    )


def test_the_apis_seating_goes_ahead_as_before(organiser: User, event: Event):
    answer = client_for(organiser).post(f"{API}/rounds/2/seating", {"method": "swiss", "seed": 3}, format="json")
    assert answer.status_code == 201
    assert Game.objects.filter(table__round__number=2).count() == 2


def test_the_console_warns_and_seats_only_when_the_organiser_goes_on_knowingly(org: Client, event: Event):
    page = org.post("/events/spring/manage/rounds/2/", {"method": "swiss", "action": "preview"})
    assert STILL in text(page)
    seed = page.context["form"].initial["seed"]
    shown = page.context["preview"]["tables"]
    refused = org.post("/events/spring/manage/rounds/2/", {"method": "swiss", "seed": seed, "action": "seat"})
    assert refused.status_code == 200
    assert "Tick “Seat by these standings” to seat round 2 now" in text(refused)
    assert refused.context["preview"]["tables"] == shown  # the same tables, shown again
    assert Game.objects.filter(table__round__number=2).count() == 0
    done = org.post(
        "/events/spring/manage/rounds/2/", {"method": "swiss", "seed": seed, "action": "seat", "unsettled_ok": "on"}
    )
    assert done.status_code == 302
    seated = Game.objects.filter(table__round__number=2).order_by("table__number")
    assert [[s.player.name for s in g.seats.order_by("position")] for g in seated] == [
        [name for _wind, name in names] for _n, names in shown
    ]


def test_the_console_asks_nothing_once_the_round_is_over_or_for_random_tables(org: Client, event: Event):
    page = org.post("/events/spring/manage/rounds/2/", {"method": "random", "action": "seat"})
    assert page.status_code == 302
    org.post("/events/spring/manage/rounds/2/unseat/")
    finish(event, 2)
    page = org.post("/events/spring/manage/rounds/2/", {"method": "swiss", "action": "preview"})
    assert "still has" not in text(page)
    assert org.post("/events/spring/manage/rounds/2/", {"method": "swiss", "action": "seat"}).status_code == 302


def test_the_admins_swiss_action_seats_and_says_so(event: Event):
    client = Client()
    client.force_login(User.objects.create_superuser("boss", "boss@example.org", "pw"))
    round_2 = event.rounds.get(number=2)
    answer = client.post(
        "/admin/tournament/round/", {"action": "seat_swiss", "_selected_action": [round_2.pk]}, follow=True
    )
    shown = [str(m) for m in answer.context["messages"]]
    assert f"{round_2}: {STILL}" in shown
    assert f"{round_2}: 2 tables seated." in shown
