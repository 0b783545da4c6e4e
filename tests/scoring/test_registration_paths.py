"""A player registered after games were played is in the stored standings, and the event's watchers hear of it,
whichever door registered him: the console's pasted list, the new-event form's list, the API, an online log
import, a sheets import. Every one goes through ``tournament.services.roster.registration_add``; the last
test keeps it the only code that creates a registration."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from scoring.models import Standing
from scoring.selectors import standings_state
from scoring.services.events import event_start
from scoring.services.live import live_version
from scoring.services.online import Outcome, log_import
from scoring.services.standings import standings_recompute
from scoring.services.transfer import NamedSheet, sheets_import
from tests.conftest import client_for
from tests.factories import EventFactory, played, registered
from tournament.models import Event

ONLINE = Path(__file__).parents[1] / "fixtures" / "online"
GAME = ONLINE / "tenhou" / "mjx-2010081709gm-00a9-0000-fe3371ad.xml"
FIRST_FOUR = {"Ann", "Bo", "Cy", "Di"}
pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organiser: User) -> Event:
    """Four players who finished a game, and standings that are current."""
    event = EventFactory.create(slug="open", organisers=[organiser])
    players = registered(event, *sorted(FIRST_FOUR))
    played(
        event,
        players,
        [{"result": "ron", "winner": players[0].pk, "loser": players[1].pk, "han": 1, "fu": 30}],
        end=True,
    )
    standings_recompute(event)
    return event


def standing_names(event: Event) -> set[str]:
    return set(Standing.objects.filter(event=event).values_list("player__name", flat=True))


@contextmanager
def followed(event: Event, capture: Any) -> Iterator[None]:
    """The block's writes, committed: the standings are recomputed (not left stale) and the live version moves."""
    before = live_version(event.pk)
    with capture(execute=True):
        yield
    assert standings_state(event).updating is False
    assert live_version(event.pk) > before


def test_a_list_pasted_in_the_console(organiser: User, event: Event, django_capture_on_commit_callbacks: Any):
    client = Client()
    client.force_login(organiser)
    with followed(event, django_capture_on_commit_callbacks):
        answer = client.post("/events/open/manage/players/", {"text": "Eve\nFay", "action": "register"})
    assert answer.status_code == 302
    assert standing_names(event) == FIRST_FOUR | {"Eve", "Fay"}


def test_the_api(organiser: User, event: Event, django_capture_on_commit_callbacks: Any):
    with followed(event, django_capture_on_commit_callbacks):
        answer = client_for(organiser).post(
            "/api/v1/events/open/players/", {"name": "Eve", "team": "Reds"}, format="json"
        )
    assert answer.status_code == 201, answer.content
    assert standing_names(event) == FIRST_FOUR | {"Eve"}
    assert event.registrations.get(player__name="Eve").team is not None


def test_an_online_log_import_that_creates_its_players(event: Event, django_capture_on_commit_callbacks: Any):
    with followed(event, django_capture_on_commit_callbacks):
        imported = log_import(event=event, source=GAME.name, data=GAME.read_bytes(), create_players=True)
    assert imported.outcome == Outcome.IMPORTED, imported.problems
    assert len(standing_names(event) - FIRST_FOUR) == 4  # the log's four players, by their online names
    assert event.registrations.count() == 8


def test_a_sheets_import_that_registers_its_players(event: Event, django_capture_on_commit_callbacks: Any):
    sheet = {
        "ruleset": "wrc-2025",
        "players": ["Eve", "Fay", "Gil", "Hal"],
        "end": "time",
        "hands": [{"result": "draw", "tenpai": ["Fay"]}],
    }
    with followed(event, django_capture_on_commit_callbacks):
        sheets_import(event=event, sheets=[NamedSheet("late.json", sheet)], create_players=True)
    assert standing_names(event) == FIRST_FOUR | {"Eve", "Fay", "Gil", "Hal"}


def test_the_new_event_forms_list(organiser: User, django_capture_on_commit_callbacks: Any):
    with django_capture_on_commit_callbacks(execute=True):
        event = event_start(organiser=organiser, players="Ann\nBo\nCy\nDi", name="Spring league")
    assert standing_names(event) == FIRST_FOUR
    assert standings_state(event).updating is False


# What creates a Registration row: the model's manager or queryset (create, bulk_create, get_or_create...), a
# related manager's create, or the model built by hand and saved.
_CREATES = re.compile(
    r"Registration\.objects\.(?:create|bulk_create|get_or_create|update_or_create)\b"
    r"|registrations\.(?:create|bulk_create|get_or_create|update_or_create)\("
    r"|(?<!class )\bRegistration\("
)
_THE_ONE = Path("tournament/services/roster.py")


def test_no_code_but_the_one_function_creates_a_registration():
    root = Path(settings.BASE_DIR)
    offenders = []
    for package in ("api", "web", "scoring", "tournament", "config"):
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts or path.relative_to(root) == _THE_ONE:
                continue
            offenders += [
                f"{path.relative_to(root)}:{n}"
                for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                if _CREATES.search(line) and not line.lstrip().startswith("#")
            ]
    assert offenders == [], "register through tournament.services.roster.registration_add"
    assert _CREATES.search((root / _THE_ONE).read_text(encoding="utf-8"))  # the pattern finds what it looks for
