"""A CSV line whose quotes do not pair up is refused, naming its line and why, by every reader of players, typed
tables and schedules: the csv module alone takes a quote left open as a value running to the end of the input
(a name with commas in it, a schedule's tables swallowed into one cell), with no word said."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from tests.conftest import client_for
from tests.factories import RoundFactory, registered
from tournament.models import Event, Game, Player, Registration
from tournament.services.roster import roster_read

pytestmark = pytest.mark.django_db
OPEN = 'a quote (") is left open: quotes go in pairs, around a whole value'
AFTER = 'a closing quote (") must be followed by the separator or the end of the line'
OPEN_KO = '따옴표(")가 닫히지 않았습니다: 따옴표는 값 전체를 감싸는 한 쌍이어야 합니다'


def text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ('"Gil Ko, 0413, Korea, Busan club', OPEN),  # the line: one name with commas, before
        ('Gil Ko, "0413, Korea', OPEN),  # a quote after a space is taken as a letter: an odd one is still open
        ('Gil Ko, 0413, Korea, Busan club"', OPEN),
        ('"Gil" Ko, 0413', AFTER),  # read as the name "Gil Ko", before
        ('Gil Ko;"0413', OPEN),
    ],
)
def test_a_roster_line_with_unpaired_quotes_is_refused_by_its_number(event: Event, line: str, why: str):
    lines = roster_read(event=event, text=f"Ann Lee, 0412\n{line}\nBo Kim, 0414", user=None)
    assert [(read.line, read.problems) for read in lines] == [(1, ()), (2, (why,)), (3, ())]
    assert lines[1].name == line  # the line as typed, so that the organiser finds it


@pytest.mark.parametrize("line", ['"Lee, Ann", 0413', 'Gil "Tiger" Ko, 0413', '"Say ""hi""", 1', "Gil Ko, 0413"])
def test_quotes_that_pair_up_are_read_as_before(event: Event, line: str):
    (read,) = roster_read(event=event, text=line, user=None)
    assert read.problems == ()
    assert read.federation_id == ("1" if "hi" in line else "0413")


def test_the_console_refuses_the_line_and_registers_nobody(organiser: User, event: Event):
    client = Client()
    client.force_login(organiser)
    bad = 'Ann Lee, 0412\n"Gil Ko, 0413, Korea, Busan club\n'
    page = text(client.post(f"/events/{event.slug}/manage/players/", {"text": bad, "action": "register"}))
    assert OPEN in page
    assert event.registrations.count() == 0
    assert not Player.objects.filter(name__contains="Busan").exists()
    client.cookies["django_language"] = "ko"
    page = text(client.post(f"/events/{event.slug}/manage/players/", {"text": bad, "action": "check"}))
    assert OPEN_KO in page


def test_the_roster_service_names_the_line(event: Event):
    from rules.errors import Refusal
    from tournament.services.roster import roster_register

    with translation.override("en"), pytest.raises(Refusal) as refused:
        roster_register(event=event, text='Ann\n\n"Gil Ko, 0413, Korea', user=None)
    assert [str(p) for p in refused.value.problems] == [f"players: line 3: {OPEN}"]
    assert Registration.objects.count() == 0


def test_typed_tables_with_an_open_quote_are_refused_by_line(organiser: User, event: Event):
    registered(event, "Ann", "Bo", "Cy", "Di", "Eve, Jr")
    RoundFactory.create(event=event, number=1)
    page = Client()
    page.force_login(organiser)
    shown = text(
        page.post(
            f"/events/{event.slug}/manage/rounds/1/",
            {"method": "named", "tables": 'Ann, Bo, Cy, "Eve, Jr\n', "action": "seat"},
        )
    )
    assert f"line 1: {OPEN}" in shown
    assert Game.objects.count() == 0


def schedule(players: list[int], seat: str) -> str:
    """Two rounds of two tables; the second line's last seat written as ``seat``."""
    p = players
    return (
        "round,table,east,south,west,north\n"
        f"1,1,{p[0]},{p[1]},{p[2]},{p[3]}\n1,2,{p[4]},{p[5]},{p[6]},{seat}\n"
        f"2,1,{p[0]},{p[4]},{p[1]},{p[5]}\n2,2,{p[2]},{p[6]},{p[3]},{p[7]}\n"
    )


@pytest.mark.parametrize(
    ("seat", "why"),
    [
        ('"{last}', OPEN),  # swallowed the next lines into one cell: "line 5: has 3 values", before
        ('{last}"', OPEN),
        ('"{last}" x', AFTER),
    ],
)
def test_a_schedule_line_with_unpaired_quotes_is_refused_by_its_number(
    organiser: User, event: Event, seat: str, why: str
):
    players = [p.pk for p in registered(event, *(f"P{i}" for i in range(8)))]
    answer = client_for(organiser).post(
        f"/api/v1/events/{event.slug}/schedule", {"csv": schedule(players, seat.format(last=players[7]))}, format="json"
    )
    assert answer.status_code == 400
    assert [(e["field"], e["message"]) for e in answer.json()["errors"]] == [("line 3", why)]
    assert Game.objects.count() == 0


def test_the_schedules_refusal_speaks_korean(organiser: User, event: Event):
    players = [p.pk for p in registered(event, *(f"P{i}" for i in range(8)))]
    answer = client_for(organiser).post(
        f"/api/v1/events/{event.slug}/schedule",
        {"csv": schedule(players, f'"{players[7]}')},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ko",
    )
    assert answer.json()["errors"][0]["message"] == OPEN_KO


def test_a_value_over_the_csv_modules_limit_is_refused_not_a_server_error(organiser: User, event: Event):
    client = Client()
    client.force_login(organiser)
    response = client.post(
        f"/events/{event.slug}/manage/players/", {"text": "Ann\n" + "x" * 200_000 + ",1", "action": "check"}
    )
    assert response.status_code == 200
    assert "a value is longer than a list can hold" in text(response)
