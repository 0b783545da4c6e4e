"""Every registration write is followed by the stored standings, whichever door it came through: the API, the
console, the admin's inline (added, changed, deleted), a withdrawal. Before, only the console's writes asked for a
recompute, so a player registered through the API or the admin was missing from the stored standings."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.models import Standing, StandingsState
from scoring.services import live
from tests.conftest import client_for
from tests.factories import EventFactory, PlayerFactory, registered
from tournament.models import Event, Registration

# The shared event's stored standings are current: four players, one finished game.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("standings")]


def standing_names(event: Event) -> set[str]:
    return set(Standing.objects.filter(event=event).values_list("player__name", flat=True))


def recomputes(event: Event) -> int:
    return StandingsState.objects.get(event=event).recomputes


def test_a_player_registered_through_the_api_is_in_the_stored_standings(
    organiser: User, event: Event, django_capture_on_commit_callbacks: Any
):
    with django_capture_on_commit_callbacks(execute=True):
        answer = client_for(organiser).post("/api/v1/events/spring/players/", {"name": "Eve"}, format="json")
    assert answer.status_code == 201
    assert standing_names(event) == {"Ann", "Bo", "Cy", "Di", "Eve"}
    eve = Standing.objects.get(event=event, player__name="Eve")
    assert (eve.points, eve.games) == (Decimal(0), 0)


def change_form(client: Client, event: Event) -> dict[str, Any]:
    """The event's admin change form as the browser sends it back unchanged."""
    page = client.get(f"/admin/tournament/event/{event.pk}/change/")
    assert page.status_code == 200
    forms = [page.context["adminform"].form]
    for inline in page.context["inline_admin_formsets"]:
        forms += [inline.formset.management_form, *inline.formset.forms]
    data: dict[str, Any] = {}
    for form in forms:
        for field in form:
            value = field.value()
            if value is None or value is False:
                continue
            data[field.html_name] = "on" if value is True else value
    return data


def test_a_player_added_in_the_admins_inline_is_in_the_stored_standings(
    admin_client: Client, event: Event, django_capture_on_commit_callbacks: Any
):
    eve, fay = PlayerFactory.create(name="Eve"), PlayerFactory.create(name="Fay")
    data = change_form(admin_client, event)
    total = int(data["registrations-TOTAL_FORMS"])
    data["registrations-TOTAL_FORMS"] = total + 2
    for n, player in enumerate((eve, fay), start=total):
        data[f"registrations-{n}-player"] = player.pk
        data[f"registrations-{n}-event"] = event.pk
    before = recomputes(event)
    with django_capture_on_commit_callbacks(execute=True):
        answer = admin_client.post(f"/admin/tournament/event/{event.pk}/change/", data)
    assert answer.status_code == 302, answer.context["errors"] if answer.context else answer
    assert standing_names(event) == {"Ann", "Bo", "Cy", "Di", "Eve", "Fay"}
    assert recomputes(event) == before + 1  # one recompute for the form, not one per row


def test_a_registration_deleted_or_made_a_substitute_in_the_admin_leaves_the_standings(
    admin_client: Client, organiser: User, django_capture_on_commit_callbacks: Any
):
    event = EventFactory.create(slug="late", organisers=[organiser])
    registered(event, "Ann", "Bo", "Cy")
    from scoring.services.standings import standings_recompute

    standings_recompute(event)
    data = change_form(admin_client, event)
    rows = {Registration.objects.get(pk=data[f"registrations-{n}-id"]).player.name: n for n in range(3)}
    data[f"registrations-{rows['Ann']}-DELETE"] = "on"
    data[f"registrations-{rows['Bo']}-substitute"] = "on"
    with django_capture_on_commit_callbacks(execute=True):
        answer = admin_client.post(f"/admin/tournament/event/{event.pk}/change/", data)
    assert answer.status_code == 302
    assert standing_names(event) == {"Cy"}


def test_a_list_pasted_in_the_console_is_one_recompute(
    organiser: User, event: Event, django_capture_on_commit_callbacks: Any
):
    client = Client()
    client.force_login(organiser)
    before = recomputes(event)
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/events/spring/manage/players/", {"text": "Eve\nFay\nGil", "action": "register"})
    assert standing_names(event) == {"Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gil"}
    assert recomputes(event) == before + 1


def test_deleting_an_event_with_players_asks_for_no_recompute(event: Event, django_capture_on_commit_callbacks: Any):
    with django_capture_on_commit_callbacks(execute=True) as queued:
        event.delete()
    assert [c for c in queued if not live.is_live_callback(c)] == []  # a watcher's bump is no recompute
    assert not Event.objects.exists()


def test_sheets_that_register_their_players_are_one_recompute(organiser: User, django_capture_on_commit_callbacks: Any):
    from scoring.services.transfer import NamedSheet, sheets_import

    event = EventFactory.create(slug="imported", organisers=[organiser])
    sheet = {
        "ruleset": "wrc-2025",
        "players": ["Ann", "Bo", "Cy", "Di"],
        "end": "time",
        "hands": [{"result": "draw", "tenpai": ["Bo"]}],
    }
    with django_capture_on_commit_callbacks(execute=True):
        sheets_import(
            event=event, sheets=[NamedSheet("1.json", sheet), NamedSheet("2.json", sheet)], create_players=True
        )
    assert standing_names(event) == {"Ann", "Bo", "Cy", "Di"}
    assert recomputes(event) == 1
