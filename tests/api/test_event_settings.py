"""An event's rules are fixed once play begins; settings the standings read recompute them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.models import Standing
from scoring.services.standings import standings_recompute
from tests.conftest import client_for
from tests.factories import RoundFactory, TableFactory, played, registered
from tournament.models import Event

pytestmark = pytest.mark.django_db


def patch(organiser: User, body: dict[str, object]) -> tuple[int, dict[str, object]]:
    response = client_for(organiser).patch("/api/v1/events/spring/", body, format="json")
    return response.status_code, response.json()


def test_before_any_table_the_rules_may_change_and_are_checked_like_a_sheets(organiser: User, event: Event):
    assert patch(organiser, {"ruleset": "sanma"})[0] == 200
    status, body = patch(organiser, {"overrides": {"start_points": "many"}})
    assert (status, body["errors"]) == (
        400,
        [{"field": "overrides.start_points", "message": "must be a whole number", "code": "a_whole_number"}],
    )


@pytest.mark.parametrize("seat", ["round", "game"])
def test_once_a_round_is_seated_or_a_game_opened_the_rules_are_fixed(organiser: User, event: Event, seat: str):
    players = registered(event, "Ann", "Bo", "Cy", "Di")
    table = TableFactory.create(round=RoundFactory.create(event=event, number=1), number=1) if seat == "round" else None
    played(event, players, table=table)
    status, body = patch(organiser, {"ruleset": "sanma", "name": "Renamed"})
    assert status == 409
    assert body["errors"] == [
        {
            "field": "ruleset",
            "message": "the rules are fixed once a round is seated or a game is "
            f"opened (this event has 1 game and {1 if table else 0} seated round"
            f"{'' if table else 's'})",
            "code": "",
        }
    ]
    event.refresh_from_db()
    assert (event.ruleset_key, event.name) == ("wrc-2025", event.name)  # nothing changed, the name neither
    assert patch(organiser, {"overrides": {"uma": [20, 10, -10, -20]}})[0] == 409
    assert patch(organiser, {"ruleset": "wrc-2025", "name": "Renamed"})[0] == 200  # the same rules: fine
    # The pages that read the rules keep working (a changed ruleset used to break them for good).
    assert Client().get("/events/spring/rounds/1/" if table else "/events/spring/").status_code == 200


def test_the_admin_refuses_the_change_too(organiser: User, event: Event):
    played(event, registered(event, "Ann", "Bo", "Cy", "Di"))
    event.ruleset_key = "sanma"
    with pytest.raises(Exception, match="the rules are fixed"):
        event.full_clean()


def test_a_setting_the_standings_read_recomputes_them(
    organiser: User, event: Event, django_capture_on_commit_callbacks: object
):
    ann, bo, cy, di = registered(event, "Ann", "Bo", "Cy", "Di")
    played(
        event, [ann, bo, cy, di], [{"result": "ron", "winner": ann.pk, "loser": bo.pk, "han": 1, "fu": 30}], end=True
    )
    standings_recompute(event)
    assert Standing.objects.get(event=event, player=ann).rank == 1
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        assert patch(organiser, {"min_games": 2})[0] == 200
    assert Standing.objects.get(event=event, player=ann).rank is None  # one game is not enough any more


def fields(body: dict[str, object]) -> list[str]:
    errors = body["errors"]
    assert isinstance(errors, list)
    return [error["field"] for error in errors]


def test_the_ranking_settings(organiser: User, event: Event):
    """An event counted for the EMA ranking (with the weight the EMA published) and rated: Tenhou's R rates
    tables of 3 or 4, Elo two players; the refusal names the field."""
    status, body = patch(organiser, {"mers": "championship", "mers_weight": "4.5", "rating": "tenhou"})
    assert (status, body["mers"], body["mers_weight"], body["rating"]) == (200, "championship", "4.50", "tenhou")
    status, body = patch(organiser, {"rating": "elo"})
    assert (status, fields(body)) == (400, ["rating"])
    assert patch(organiser, {"ruleset": "two-player", "rating": "elo"})[0] == 200
    status, body = patch(organiser, {"mers_weight": "0.2"})
    assert (status, fields(body)) == (400, ["mers_weight"])


def test_an_event_named_ema_gets_another_address(organiser: User):
    """A rated event's rating is listed under its slug: the EMA rankings' keys are never an event's."""
    created = client_for(organiser).post("/api/v1/events/", {"name": "EMA"}, format="json").json()
    assert created["slug"] == "ema-2"
