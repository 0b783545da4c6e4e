"""The solo race to tenpai through the API: an event of one-player games, attempts as hands, standings by draws.

Seed 001 line 614: "텐파이까지 몇 순 걸렸는지를 겨룬다. 같은 순수라면 점수가 높은 쪽이 위가 된다" — the draws to
tenpai decide, then the higher score. Values: the dealer's (6 × base, rounded up to 100): 1 han 30 fu 1500,
2 han 30 fu 2900, 3 han 40 fu 7700.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.conftest import client_for, rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def solo_event(organiser: User) -> dict[str, Any]:
    """A solo event made through the API, three players registered."""
    client = client_for(organiser)
    response = client.post(
        "/api/v1/events/", {"name": "Solo Cup", "ruleset": "solo", "overrides": {}, "public": True}, format="json"
    )
    assert response.status_code == 201, response.json()
    slug = response.json()["slug"]
    players = [
        client.post(f"/api/v1/events/{slug}/players/", {"name": name}, format="json").json()["id"]
        for name in ("Ann", "Bo", "Cy")
    ]
    return {"slug": slug, "players": players}


def open_game(organiser: User, event: dict[str, Any], player: int) -> dict[str, Any]:
    response = client_for(organiser).post(
        "/api/v1/games/", {"event": event["slug"], "players": [player]}, format="json"
    )
    assert response.status_code == 201, response.json()
    game: dict[str, Any] = response.json()
    return game


def attempt(organiser: User, game: dict[str, Any], record: dict[str, Any]) -> Any:
    return client_for(organiser).post(f"/api/v1/games/{game['id']}/hands/", record, format="json")


def test_attempts_through_the_api_and_the_standings(
    organiser: User, solo_event: dict[str, Any], django_capture_on_commit_callbacks: Any
):
    ann, bo, cy = solo_event["players"]
    games = {player: open_game(organiser, solo_event, player) for player in (ann, bo, cy)}
    assert attempt(organiser, games[ann], {"draws": 6, "han": 2, "fu": 30}).status_code == 201  # no result: tenpai
    answer = attempt(organiser, games[ann], {"result": "tenpai", "draws": 9, "han": 1, "fu": 30})
    assert answer.status_code == 201, answer.json()
    result = answer.json()["result"]
    assert [(h["attempt"], h["draws"], h["value"], h["attempt_rank"]) for h in result["hands"]] == [
        (1, 6, 2900, 1),
        (2, 9, 1500, 2),
    ]
    assert (result["final"][0]["player"], result["final"][0]["draws"], result["final"][0]["value"]) == ("Ann", 6, 2900)
    # The record is kept with its result, as a score sheet writes it.
    stored = client_for(None).get(f"/api/v1/games/{games[ann]['id']}/hands/0/").json()
    assert stored == {"index": 0, "result": "tenpai", "draws": 6, "han": 2, "fu": 30}
    with django_capture_on_commit_callbacks(execute=True):  # the standings are recomputed after each commit
        assert attempt(organiser, games[bo], {"draws": 6, "han": 3, "fu": 40}).status_code == 201
        assert attempt(organiser, games[cy], {"result": "noten"}).status_code == 201
    standings = rows(client_for(None).get(f"/api/v1/events/{solo_event['slug']}/standings/"))
    # Bo and Ann both took 6 draws; Bo's 7700 is worth more than Ann's 2900. Cy never reached tenpai (19).
    assert [(s["rank"], s["player"]["name"], s["draws"], s["value"], s["games"]) for s in standings] == [
        (1, "Bo", 6, 7700, 1),
        (2, "Ann", 6, 2900, 1),
        (3, "Cy", 19, 0, 1),
    ]


@pytest.mark.parametrize(
    ("record", "errors"),
    [
        (
            {"draws": 19, "han": 2, "fu": 30},
            [("draws", "must be 0 to 18: the 34 tiles less the 14 dealt and the dead wall of 2", "solo_draws")],
        ),
        ({"draws": -2, "han": 2, "fu": 30}, [("draws", "must be at least 0", "at_least")]),
        ({"draws": "six", "han": 2, "fu": 30}, [("draws", "must be a whole number", "a_whole_number")]),
        ({"han": 2, "fu": 30}, [("draws", "is required for a tenpai", "required_for")]),
        (
            {"draws": 4},
            [("han", "a tenpai needs the hand's value: han and fu, yakuman, or its tiles", "tenpai_needs_value")],
        ),
        (
            {"draws": 4, "tiles": {"concealed": "123m456m789p5z", "win": "5z", "melds": ["chi 678s"]}},
            [
                (
                    "tiles.melds",
                    "the solo game has no calls: one player, nobody discards a tile to call",
                    "solo_no_calls",
                )
            ],
        ),
        (
            {"result": "ron", "han": 2, "fu": 30},
            [
                ("loser", "is required for a ron", "required_for"),
                ("winner", "is required for a ron (or give a list of wins)", "winner_required_ron"),
            ],
        ),
    ],
)
def test_refused_attempts_name_the_field(organiser: User, solo_event: dict[str, Any], record, errors):
    game = open_game(organiser, solo_event, solo_event["players"][0])
    response = attempt(organiser, game, record)
    assert response.status_code == 400
    assert [(e["field"], e["message"], e["code"]) for e in response.json()["errors"]] == errors
    assert client_for(None).get(f"/api/v1/games/{game['id']}/").json()["hands_entered"] == 0


def test_a_solo_game_is_one_player(organiser: User, solo_event: dict[str, Any]):
    response = client_for(organiser).post(
        "/api/v1/games/", {"event": solo_event["slug"], "players": solo_event["players"][:2]}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"] == "this event's ruleset is for 1 players; 2 given"


def test_the_sum_over_fixed_attempts_and_the_sheet(organiser: User, django_capture_on_commit_callbacks: Any):
    client = client_for(organiser)
    event = client.post(
        "/api/v1/events/",
        {
            "name": "Solo Sum",
            "ruleset": "solo",
            "public": True,
            "overrides": {"solo_ranking": "sum_of_attempts", "solo_attempts": 2},
        },
        format="json",
    ).json()
    ann = client.post(f"/api/v1/events/{event['slug']}/players/", {"name": "Ann"}, format="json").json()["id"]
    game = open_game(organiser, {"slug": event["slug"]}, ann)
    sheet = client.get(f"/api/v1/games/{game['id']}/sheet").json()
    sheet["hands"] = [{"draws": 5, "han": 1, "fu": 30}, {"result": "noten"}]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.put(
            f"/api/v1/games/{game['id']}/sheet", sheet, format="json", HTTP_IF_MATCH=f'"{game["version"]}"'
        )
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "finished"
    # 5 + 19 draws, 1500 + 0.
    final = response.json()["result"]["final"][0]
    assert (final["draws"], final["value"]) == (24, 1500)
    refused = attempt(organiser, game, {"draws": 1, "han": 1, "fu": 30})
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["message"] == (
        "the game has already ended (end of the game); no more hands can be added"
    )
    line = rows(client_for(None).get(f"/api/v1/events/{event['slug']}/standings/"))[0]
    assert (line["rank"], line["draws"], line["value"], line["points"]) == (1, 24, 1500, 0.0)


def test_the_solo_preset_is_listed():
    parameters = client_for(None).get("/api/v1/rulesets/solo/").json()["parameters"]
    assert (parameters["players"], parameters["scoring"], parameters["solo_ranking"]) == (1, "solo", "best_attempt")
