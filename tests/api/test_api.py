"""The REST API: events, players, games, hand entry with versions, corrections, history, standings, roles."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from scoring.models import HandChange
from scoring.services import live
from tests.conftest import client_for, rows
from tests.factories import EventFactory, RoundFactory, registered
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organiser: User, referee: User) -> dict[str, Any]:
    """A public wrc-2025 event run by ``organiser``, ``referee`` scoring, four players registered."""
    event = EventFactory.create(name="Spring Open", slug="spring-open", organisers=[organiser], referees=[referee])
    return {"slug": event.slug, "players": [p.pk for p in registered(event, "Ann", "Bo", "Cy", "Di")]}


@pytest.fixture
def game(event: dict[str, Any], referee: User) -> dict[str, Any]:
    response = client_for(referee).post(
        "/api/v1/games/", {"event": event["slug"], "players": event["players"]}, format="json"
    )
    assert response.status_code == 201, response.json()
    data: dict[str, Any] = response.json()
    return data


def test_event_creation_returns_slug_and_ruleset(organiser: User):
    client = client_for(organiser)
    response = client.post(
        "/api/v1/events/",
        {"name": "Spring Open", "kind": "tournament", "ruleset": "wrc-2025", "overrides": {}, "public": True},
        format="json",
    )
    assert response.status_code == 201, response.json()
    again = client.post("/api/v1/events/", {"name": "Spring Open", "public": True}, format="json").json()
    data = client_for(None).get(f"/api/v1/events/{response.json()['slug']}/").json()
    assert (data["slug"], again["slug"]) == ("spring-open", "spring-open-2")
    assert data["ruleset_parameters"]["uma"] == [15, 5, -5, -15]
    assert Event.objects.get(slug="spring-open").organisers.get() == organiser


def test_bad_overrides_name_the_parameter(organiser: User):
    response = client_for(organiser).post(
        "/api/v1/events/", {"name": "X", "ruleset": "wrc-2025", "overrides": {"uma": [1, 2]}}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "detail": "invalid input; nothing was saved",
        "errors": [
            {
                "field": "overrides.uma",
                "message": "needs 4 values, one per rank (or [] for none)",
                "code": "uma_per_rank",
            }
        ],
    }


def test_nothing_is_writable_anonymously(event: dict[str, Any], game: dict[str, Any]):
    anonymous = client_for(None)
    assert anonymous.post("/api/v1/events/", {"name": "Y"}, format="json").status_code in (401, 403)
    assert anonymous.post(f"/api/v1/games/{game['id']}/hands/", {"result": "draw"}, format="json").status_code in (
        401,
        403,
    )
    assert anonymous.get(f"/api/v1/games/{game['id']}/").status_code == 200  # the event is public


def test_referee_cannot_register_players_and_strangers_cannot_score(
    event: dict[str, Any], game: dict[str, Any], referee: User
):
    assert (
        client_for(referee).post(f"/api/v1/events/{event['slug']}/players/", {"name": "Zed"}, format="json").status_code
        == 403
    )
    stranger = User.objects.create_user("stranger")
    response = client_for(stranger).post(f"/api/v1/games/{game['id']}/hands/", {"result": "draw"}, format="json")
    assert response.status_code == 403


def hand(game: dict[str, Any], referee: User, record: dict[str, Any], version: int | None = None) -> Any:
    headers = {"If-Match": f'"{version}"'} if version is not None else {}
    return client_for(referee).post(f"/api/v1/games/{game['id']}/hands/", record, format="json", headers=headers)


def test_hand_entry_replays_the_game(event: dict[str, Any], game: dict[str, Any], referee: User):
    ann, _bo, cy, _di = event["players"]
    response = hand(game, referee, {"result": "ron", "winner": ann, "loser": cy, "han": 3, "fu": 40, "riichi": [ann]})
    assert response.status_code == 201, response.json()
    data = response.json()
    assert response["ETag"] == f'"{data["version"]}"'
    assert data["result"]["hands"][0]["deltas"] == {"Ann": 7700, "Bo": 0, "Cy": -7700, "Di": 0}
    assert data["result"]["next"]["dealer"] == "Ann"


def test_refused_hand_names_the_field_and_saves_nothing(event: dict[str, Any], game: dict[str, Any], referee: User):
    ann, bo, *_ = event["players"]
    response = hand(game, referee, {"result": "ron", "winner": ann, "loser": bo, "han": 1, "fu": 20})
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {
            "field": "fu",
            "message": "20 fu is only possible with 2 han or more (pinfu and menzen tsumo)",
            "code": "fu_20_needs_2_han",
        }
    ]
    stored = Game.objects.get(pk=game["id"])
    assert (stored.hands.count(), stored.version) == (0, game["version"])


def test_stale_version_is_refused_and_corrections_replay(
    event: dict[str, Any], game: dict[str, Any], referee: User, organiser: User
):
    ann, bo, cy, di = event["players"]
    v1 = hand(game, referee, {"result": "tsumo", "winner": bo, "han": 1, "fu": 30}).json()["version"]
    v2 = hand(game, referee, {"result": "draw", "tenpai": [ann]}, version=v1).json()["version"]
    url = f"/api/v1/games/{game['id']}/hands/0/"
    # Two referees both read version v2; the first correction wins, the second is told.
    first = client_for(referee).put(
        url, {"result": "tsumo", "winner": cy, "han": 2, "fu": 30}, format="json", HTTP_IF_MATCH=f'"{v2}"'
    )
    second = client_for(organiser).put(
        url, {"result": "tsumo", "winner": di, "han": 2, "fu": 30}, format="json", HTTP_IF_MATCH=f'"{v2}"'
    )
    assert first.status_code == 200, first.json()
    assert second.status_code == 409
    assert second.json()["version"] == first.json()["version"]
    missing = client_for(referee).put(url, {"result": "draw"}, format="json")
    assert missing.status_code == 428
    result = first.json()["result"]
    # The correction moved the dealer change: hand 1 is now at E2 (Bo deals), replayed downstream.
    assert [h["round"] for h in result["hands"]] == ["E1", "E2"]
    assert result["hands"][0]["deltas"] == {"Ann": -1000, "Bo": -500, "Cy": 2000, "Di": -500}
    history = rows(client_for(organiser).get(f"/api/v1/games/{game['id']}/history/"))
    assert [c["action"] for c in history] == ["add", "add", "change"]
    assert (history[2]["before"]["winner"], history[2]["after"]["winner"]) == (bo, cy)
    assert client_for(referee).get(f"/api/v1/games/{game['id']}/history/").status_code == 403


def test_delete_any_hand(event: dict[str, Any], game: dict[str, Any], referee: User):
    ann, bo, *_ = event["players"]
    hand(game, referee, {"result": "draw", "tenpai": [ann]})
    hand(game, referee, {"result": "draw", "tenpai": [bo]})
    version = hand(game, referee, {"result": "draw", "tenpai": []}).json()["version"]
    response = client_for(referee).delete(f"/api/v1/games/{game['id']}/hands/0/", HTTP_IF_MATCH=f'"{version}"')
    assert response.status_code == 200
    hands = rows(client_for(referee).get(f"/api/v1/games/{game['id']}/hands/"))
    assert [(h["index"], h.get("tenpai")) for h in hands] == [(0, [bo]), (1, [])]
    assert HandChange.objects.filter(game_id=game["id"], action="delete").count() == 1


def test_sheet_round_trip_and_standings(
    event: dict[str, Any], game: dict[str, Any], referee: User, django_capture_on_commit_callbacks: Any
):
    ann, bo, cy, di = event["players"]
    sheet = client_for(referee).get(f"/api/v1/games/{game['id']}/sheet").json()
    assert sheet["players"] == [ann, bo, cy, di]
    sheet["hands"] = [{"result": "ron", "winner": cy, "loser": di, "han": 4, "fu": 30}]
    sheet["end"] = "time"
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client_for(referee).put(
            f"/api/v1/games/{game['id']}/sheet", sheet, format="json", HTTP_IF_MATCH=f'"{game["version"]}"'
        )
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "finished"
    # The standings task, after the commit (besides the live pages' version, bumped then too).
    assert len([c for c in callbacks if not live.is_live_callback(c)]) == 1
    standings = rows(client_for(None).get(f"/api/v1/events/{event['slug']}/standings/"))
    # Kiriage: 4 han 30 fu is 8000. Cy 38000: +8 + 15 uma; Ann and Bo tie at 30000 and share 5 and −5.
    assert [(s["rank"], s["player"]["name"], s["points"], s["games"]) for s in standings] == [
        (1, "Cy", 23.0, 1),
        (2, "Ann", 0.0, 1),
        (2, "Bo", 0.0, 1),
        (4, "Di", -23.0, 1),
    ]


def test_game_needs_the_rulesets_player_count(event: dict[str, Any], referee: User):
    response = client_for(referee).post(
        "/api/v1/games/", {"event": event["slug"], "players": event["players"][:3]}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "players", "message": "this event's ruleset is for 4 players; 3 given", "code": ""}
    ]


def test_rulesets_and_schema():
    client = client_for(None)
    keys = [r["key"] for r in rows(client.get("/api/v1/rulesets/"))]
    assert {"wrc-2025", "mcr", "eight-player"} <= set(keys)
    assert client.get("/api/v1/rulesets/mcr/").json()["parameters"]["scoring"] == "mcr"
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    assert "/api/v1/games/{game_id}/hands/" in schema.json()["paths"]


def test_private_event_is_hidden(organiser: User):
    client = client_for(organiser)
    slug = EventFactory.create(name="Club night", public=False, organisers=[organiser]).slug
    assert client_for(None).get(f"/api/v1/events/{slug}/").status_code == 404
    assert client_for(None).get(f"/api/v1/events/{slug}/standings/").status_code == 404
    assert client.get(f"/api/v1/events/{slug}/").status_code == 200


def test_seating_rounds_opens_a_game_per_table(organiser: User):
    client = client_for(organiser)
    event = EventFactory.create(name="Seated", organisers=[organiser])
    slug, ids = event.slug, [p.pk for p in registered(event, *(f"P{i}" for i in range(9)))]
    for number in (1, 2):
        RoundFactory.create(event=event, number=number)
    first = client.post(f"/api/v1/events/{slug}/rounds/1/seating", {"method": "random", "seed": 1}, format="json")
    assert first.status_code == 201, first.json()
    tables = first.json()["tables"]
    seated = [seat["player"]["id"] for table in tables for seat in table["seats"]]
    # Nine players at tables of four: two tables, one bye.
    assert (len(tables), len(seated), len(set(seated))) == (2, 8, 8)
    assert set(seated) < set(ids)
    assert [seat["wind"] for seat in tables[0]["seats"]] == ["East", "South", "West", "North"]
    game = client_for(None).get(f"/api/v1/games/{tables[0]['game']}/").json()
    assert [p["id"] for p in game["players"]] == [seat["player"]["id"] for seat in tables[0]["seats"]]
    again = client.post(f"/api/v1/events/{slug}/rounds/1/seating", {"method": "random"}, format="json")
    assert again.status_code == 400
    assert again.json()["errors"] == [{"field": "round", "message": "round 1 is already seated", "code": ""}]
    second = client.post(f"/api/v1/events/{slug}/rounds/2/seating", {"method": "swiss"}, format="json").json()
    bye_1 = set(ids) - set(seated)
    seated_2 = {seat["player"]["id"] for table in second["tables"] for seat in table["seats"]}
    assert bye_1 <= seated_2  # the player who sat out plays next
    referee = User.objects.create_user("ref2")
    assert (
        client_for(referee)
        .post(f"/api/v1/events/{slug}/rounds/2/seating", {"method": "swiss"}, format="json")
        .status_code
        == 403
    )


def test_the_clock_ends_a_game_and_substitutes_are_marked(
    event: dict[str, Any], game: dict[str, Any], referee: User, organiser: User
):
    ann, _bo, cy, di = event["players"]
    version = hand(game, referee, {"result": "ron", "winner": ann, "loser": cy, "han": 3, "fu": 40}).json()["version"]
    url = f"/api/v1/games/{game['id']}/"
    assert client_for(referee).patch(url, {"end": "time"}, format="json").status_code == 428
    ended = client_for(referee).patch(
        url, {"end": "time", "substitutes": [di]}, format="json", HTTP_IF_MATCH=f'"{version}"'
    )
    assert ended.status_code == 200, ended.json()
    data = ended.json()
    assert (data["status"], data["end"]) == ("finished", "time")
    assert [p["substitute"] for p in data["players"]] == [False, False, False, True]
    # Ann's 7700 ron is the whole game: 37700 first.
    assert data["result"]["final"][0]["score"] == 37700
    stranger = client_for(referee).patch(
        url, {"substitutes": [999999]}, format="json", HTTP_IF_MATCH=f'"{data["version"]}"'
    )
    assert stranger.status_code == 400
    assert stranger.json()["errors"][0]["field"] == "substitutes"
    back = client_for(referee).patch(url, {"end": None}, format="json", HTTP_IF_MATCH=f'"{data["version"]}"')
    assert (back.json()["status"], back.json()["end"]) == ("playing", None)
    history = rows(client_for(organiser).get(f"/api/v1/games/{game['id']}/history/"))
    assert [(c["action"], c["after"]) for c in history[1:]] == [
        ("game", {"end": "time", "substitutes": [di]}),
        ("game", {"end": None, "substitutes": [di]}),
    ]


def test_a_predefined_schedule_seats_every_round_or_none(organiser: User):
    client = client_for(organiser)
    event = EventFactory.create(name="Scheduled", organisers=[organiser])
    slug, p = event.slug, [player.pk for player in registered(event, *(f"P{i}" for i in range(8)))]
    rows = [(1, 1, p[0:4]), (1, 2, p[4:8]), (2, 1, [p[0], p[4], p[1], p[5]]), (2, 2, [p[2], p[6], p[3], p[7]])]
    text = "round,table,east,south,west,north\n" + "".join(
        f"{r},{t},{','.join(map(str, seats))}\n" for r, t, seats in rows
    )
    bad = client.post(
        f"/api/v1/events/{slug}/schedule", {"csv": text.replace(f",{p[7]}\n", ",999999\n")}, format="json"
    )
    assert bad.status_code == 400
    unknown = "north: player 999999 is not in this tournament"  # p[7] sits North in rounds 1 and 2
    assert bad.json()["errors"] == [
        {"field": "line 3", "message": unknown, "code": ""},
        {"field": "line 5", "message": unknown, "code": ""},
    ]
    assert Event.objects.get(slug=slug).rounds.count() == 0
    done = client.post(f"/api/v1/events/{slug}/schedule", {"csv": text}, format="json")
    assert done.status_code == 201, done.json()
    assert [[[s["player"]["id"] for s in t["seats"]] for t in r["tables"]] for r in done.json()] == [
        [p[0:4], p[4:8]],
        [[p[0], p[4], p[1], p[5]], [p[2], p[6], p[3], p[7]]],
    ]
    assert Game.objects.filter(event__slug=slug).count() == 4
    again = client.post(f"/api/v1/events/{slug}/schedule", {"csv": text}, format="json")
    assert again.json()["errors"] == [
        {"field": "schedule", "message": "round 1 is already seated", "code": ""},
        {"field": "schedule", "message": "round 2 is already seated", "code": ""},
    ]
