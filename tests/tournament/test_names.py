"""One check of a player's name on every path that writes one (issue 25): the console's roster and rename, the
API, the admin, an imported log or sheet with new players, a restore. A name one path refuses, every path refuses,
so an event's exported sheets always read back."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from rules.errors import Refusal
from scoring.services.online import Outcome, log_import
from scoring.services.transfer import NamedSheet, event_export, sheets_import
from tests.conftest import client_for
from tests.factories import EventFactory, played, registered
from tournament.models import Event, Player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("roster")]
LOG = Path(__file__).parents[1] / "fixtures" / "online" / "tenhou" / "mjx-2010081709gm-00a9-0000-fe3371ad.xml"

REFUSED = [
    ("Ann\tLee", "printable"),
    ("Ann\nLee", "printable"),
    ("Ann\x1b[31m", "printable"),
    ("Ann\x85Lee", "printable"),  # a C1 control character (NEL)
    ("Ann\x00Lee", "Null characters are not allowed"),  # the forms' and DRF's own check, before ours
    ("x" * 101, "100"),
]


@pytest.fixture
def roster(event: Event) -> list[Player]:
    """Bo, Cy, Di and Ed registered in the shared event: no Ann, whose names the tests write."""
    return registered(event, "Bo", "Cy", "Di", "Ed")


def _console(organiser: User) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


# A roster line ends at a line break (NEL included: str.splitlines) and a tab separates its columns.
@pytest.mark.parametrize(("name", "words"), [row for row in REFUSED if not set(row[0]) & set("\t\n\x85")])
def test_the_console_roster_refuses_the_name(event: Event, organiser: User, name: str, words: str):
    response = _console(organiser).post("/events/spring/manage/players/", {"text": f"{name}\n", "action": "register"})
    assert response.status_code == 200
    assert words in response.content.decode()
    assert Player.objects.count() == 4


@pytest.mark.parametrize(("name", "words"), REFUSED)
def test_the_console_rename_refuses_the_name(event: Event, organiser: User, name: str, words: str):
    bo = Player.objects.get(name="Bo")
    response = _console(organiser).post(f"/events/spring/manage/players/{bo.pk}/", {"name": name})
    assert response.status_code == 200
    assert words in response.content.decode()
    assert Player.objects.get(pk=bo.pk).name == "Bo"


@pytest.mark.parametrize(("name", "words"), REFUSED)
def test_the_api_refuses_the_name(event: Event, organiser: User, name: str, words: str):
    response = client_for(organiser).post("/api/v1/events/spring/players/", {"name": name}, format="json")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["name"]
    assert Player.objects.count() == 4


@pytest.mark.parametrize(("name", "words"), REFUSED)
def test_the_admin_refuses_the_name(event: Event, name: str, words: str):
    client = Client()
    client.force_login(User.objects.create_superuser("boss", "boss@example.org", "pw"))
    bo = Player.objects.get(name="Bo")
    response = client.post(f"/admin/tournament/player/{bo.pk}/change/", {"name": name})
    assert response.status_code == 200
    assert words in response.content.decode()
    assert Player.objects.get(pk=bo.pk).name == "Bo"


@pytest.mark.parametrize(("name", "words"), [row for row in REFUSED if "\x00" not in row[0]])
def test_a_log_with_new_players_refuses_the_name(event: Event, name: str, words: str):
    quoted = "".join(f"%{ord(c):02X}" if ord(c) < 128 else c for c in name)
    data = LOG.read_bytes().replace(b'<UN n0="', f'<UN n0="{quoted}'.encode(), 1)
    result = log_import(event=event, source="upload", data=data, create_players=True)
    assert result.outcome == Outcome.UNREADABLE
    assert any(words in p.message for p in result.problems), result.problems
    assert Player.objects.count() == 4


def test_a_sheet_with_new_players_refuses_a_name_the_console_refuses(event: Event):
    sheet = {"ruleset": "wrc-2025", "players": [" Ann", "Bo", "Cy", "Di"], "hands": []}
    with pytest.raises(Refusal) as refused:
        sheets_import(event=event, sheets=[NamedSheet("a.json", sheet)], create_players=True)
    assert "must not begin or end with a space" in str(refused.value)
    assert Player.objects.count() == 4


def test_every_name_an_event_holds_reads_back_from_its_exported_sheets(event: Event, organiser: User):
    """The round trip the issue found broken: the console's names export and import again."""
    _console(organiser).post("/events/spring/manage/players/", {"text": "Ann Lee\n", "action": "register"})
    players = [Player.objects.get(name=n) for n in ("Ann Lee", "Bo", "Cy", "Di")]
    played(event, players, [{"result": "draw", "tenpai": [players[0].pk]}], end=True)
    sheets = event_export(event)["games"]
    other = EventFactory.create(slug="again")
    games = sheets_import(
        event=other, sheets=[NamedSheet(f"{i}.json", g["sheet"]) for i, g in enumerate(sheets)], create_players=True
    )
    assert len(games) == len(sheets) == 1
    assert sorted(other.registrations.values_list("player__name", flat=True)) == ["Ann Lee", "Bo", "Cy", "Di"]
