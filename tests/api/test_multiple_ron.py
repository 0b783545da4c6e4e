"""Two rons on one discard through the API: the record is kept as sent, and the game's result says who was paid;
under a head bump the declaration not paid says so (``stood: false``) and names who took the hand (``bumped_by``).
The same sheet scored on the command line says it in words."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from tests.conftest import client_for
from tests.factories import EventFactory, registered

pytestmark = pytest.mark.django_db


def game_of(ruleset: str, overrides: dict[str, Any], referee: User) -> tuple[int, dict[str, int]]:
    event = EventFactory.create(ruleset_key=ruleset, ruleset_overrides=overrides, referees=[referee])
    players = registered(event, "Ann", "Bo", "Cy", "Di")
    response = client_for(referee).post(
        "/api/v1/games/", {"event": event.slug, "players": [p.pk for p in players]}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"], {p.name: p.pk for p in players}


@pytest.mark.parametrize(
    ("ruleset", "overrides", "wins", "deltas"),
    [
        # Head bump: Cy, first after Bo, takes the hand; Ann's declaration is kept, not paid, bumped by Cy.
        ("wrc-2025", {}, [("Cy", True, None), ("Ann", False, "Cy")], [0, -5200, 5200, 0]),
        ("m-league", {}, [("Cy", True, None), ("Ann", False, "Cy")], [0, -5200, 5200, 0]),
        # Both paid: Ann is the dealer, 2 han 30 fu = 2900.
        ("ema-2016", {}, [("Cy", True, None), ("Ann", True, None)], [2900, -8100, 5200, 0]),
        ("tenhou", {}, [("Cy", True, None), ("Ann", True, None)], [2900, -8100, 5200, 0]),
        ("wrc-2025", {"multiple_ron": "all"}, [("Cy", True, None), ("Ann", True, None)], [2900, -8100, 5200, 0]),
    ],
)
def test_a_double_ron_says_who_is_paid(
    ruleset: str, overrides: dict[str, Any], wins: list[tuple[str, bool, str | None]], deltas: list[int], referee: User
):
    game_id, p = game_of(ruleset, overrides, referee)
    record = {
        "result": "ron",
        "loser": p["Bo"],
        "wins": [{"winner": p["Ann"], "han": 2, "fu": 30}, {"winner": p["Cy"], "han": 3, "fu": 40}],
    }
    response = client_for(referee).post(f"/api/v1/games/{game_id}/hands/", record, format="json")
    assert response.status_code == 201, response.json()
    hand = response.json()["result"]["hands"][0]
    assert [(w["winner"], w["stood"], w.get("bumped_by")) for w in hand["wins"]] == wins
    assert list(hand["deltas"].values()) == deltas
    # The record is kept as sent, and the public game shows the same result.
    assert client_for(None).get(f"/api/v1/games/{game_id}/hands/0/").json() == {"index": 0, **record}
    public = client_for(None).get(f"/api/v1/games/{game_id}/").json()["result"]["hands"][0]
    assert public["wins"] == hand["wins"]


def test_the_command_line_says_the_head_bump(tmp_path: Path):
    sheet = tmp_path / "sheet.json"
    sheet.write_text(
        json.dumps(
            {
                "ruleset": "wrc-2025",
                "players": ["Ann", "Bo", "Cy", "Di"],
                "hands": [
                    {
                        "result": "ron",
                        "loser": "Bo",
                        "wins": [{"winner": "Ann", "han": 2, "fu": 30}, {"winner": "Cy", "han": 3, "fu": 40}],
                    }
                ],
            }
        )
    )
    text, as_json = StringIO(), StringIO()
    call_command("score_sheet", str(sheet), stdout=text)
    call_command("score_sheet", str(sheet), "--format", "json", stdout=as_json)
    assert (
        "Ron on Bo: Cy 3 han 40 fu; head bump: Cy, first after the discarder; not paid: Ann 2 han 30 fu"
        in text.getvalue()
    )
    wins = json.loads(as_json.getvalue())["hands"][0]["wins"]
    assert [(w["winner"], w["stood"], w.get("bumped_by")) for w in wins] == [("Cy", True, None), ("Ann", False, "Cy")]
