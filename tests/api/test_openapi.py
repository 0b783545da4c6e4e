"""Every answer of the API matches its OpenAPI schema (drf-spectacular): each endpoint, success and errors.

The schema is generated once; ``check(response, method, path_template)`` finds the operation's response for the
status code and validates the body with jsonschema (OpenAPI 3.0's ``nullable`` translated to JSON Schema).
Every status code each operation declares is exercised here, so the schema promises nothing untested.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from jsonschema import Draft202012Validator, FormatChecker

from scoring.models import Penalty
from scoring.services.confirmations import player_code
from scoring.services.standings import standings_recompute
from scoring.sheet.record import hand_fields, win_fields
from tests.conftest import client_for
from tests.factories import EventFactory, RoundFactory, TableFactory, played, registered
from tournament.models import Event, Player, Registration, Team

pytestmark = pytest.mark.django_db

Check = Callable[..., Any]
API = "/api/v1/"

# --- the schema and the check ------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def openapi() -> dict[str, Any]:
    """The generated OpenAPI document, as JSON (what /api/schema/ serves)."""
    schema = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    document: dict[str, Any] = json.loads(OpenApiJsonRenderer().render(schema))
    return document


def json_schema(schema: Any) -> Any:
    """An OpenAPI 3.0 schema object as JSON Schema: ``nullable: true`` becomes a null type (or a null branch)."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "properties":
            out[key] = {name: json_schema(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties", "not"):
            out[key] = json_schema(value)
        elif key in ("allOf", "anyOf", "oneOf"):
            out[key] = [json_schema(sub) for sub in value]
        elif key not in ("nullable", "discriminator"):
            out[key] = value
    if not schema.get("nullable"):
        return out
    if isinstance(out.get("type"), str):
        out["type"] = [out["type"], "null"]
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return out
    if "type" in out or any(key in out for key in ("$ref", "allOf", "anyOf", "oneOf")):
        return {"anyOf": [out, {"type": "null"}]}
    return out  # no type: anything goes, null included


def response_schema(openapi: dict[str, Any], method: str, path: str, status: int) -> dict[str, Any] | None:
    """The JSON schema of one declared response, or None for a response without a body; fails if undeclared."""
    operation = openapi["paths"].get(path, {}).get(method.lower())
    assert operation is not None, f"{method.upper()} {path} is not in the schema"
    declared = operation["responses"]
    assert str(status) in declared, f"{method.upper()} {path} answered {status}; the schema declares {sorted(declared)}"
    content = declared[str(status)].get("content")
    if content is None:
        return None
    schema: dict[str, Any] = content["application/json"]["schema"]
    return schema


def schema_errors(openapi: dict[str, Any], schema: dict[str, Any], body: Any) -> list[str]:
    """What is wrong with ``body`` under ``schema`` (whose $refs point into the document's components)."""
    components = {name: json_schema(sub) for name, sub in openapi["components"]["schemas"].items()}
    root = {**json_schema(schema), "components": {"schemas": components}}
    validator = Draft202012Validator(root, format_checker=FormatChecker())
    return [f"{'/'.join(map(str, e.absolute_path)) or '(body)'}: {e.message}" for e in validator.iter_errors(body)]


@pytest.fixture(scope="session")
def exercised() -> set[tuple[str, str, int]]:
    """(method, path, status) of every response checked in this module."""
    return set()


@pytest.fixture
def check(openapi: dict[str, Any], exercised: set[tuple[str, str, int]]) -> Check:
    """``check(response, method, path_template[, status])``: the response has that status (if given), the schema
    declares it for the operation, and the body (and headers) match; returns the body."""

    def assert_matches_schema(response: Any, method: str, path_template: str, status: int | None = None) -> Any:
        name = f"{method.upper()} {path_template} {response.status_code}"
        if status is not None:
            assert response.status_code == status, f"{name}, not {status}: {response.content[:300]!r}"
        schema = response_schema(openapi, method, path_template, response.status_code)
        exercised.add((method.lower(), path_template, response.status_code))
        if schema is None:
            assert not response.content, f"{name} declares no body but sent one"
            return None
        body = response.json()
        problems = schema_errors(openapi, schema, body)
        assert not problems, f"{name} does not match the schema:\n" + "\n".join(problems) + f"\nbody: {body!s:.800}"
        operation = openapi["paths"][path_template][method.lower()]
        for header in operation["responses"][str(response.status_code)].get("headers", {}):
            assert header in response.headers, f"{name}: the schema declares the header {header}"
        return body

    return assert_matches_schema


def fields(body: dict[str, Any]) -> list[str]:
    """The fields a refusal names, in order."""
    return [problem["field"] for problem in body["errors"]]


# --- the data --------------------------------------------------------------------------------------------------------


@pytest.fixture
def event(organiser: User, referee: User) -> dict[str, Any]:
    """A public riichi event with four players and a referee."""
    event = EventFactory.create(name="Spring Open", slug="spring-open", organisers=[organiser], referees=[referee])
    return {"slug": event.slug, "players": [p.pk for p in registered(event, "Ann", "Bo", "Cy", "Di")]}


@pytest.fixture
def game(event: dict[str, Any], referee: User) -> dict[str, Any]:
    response = client_for(referee).post(
        f"{API}games/", {"event": event["slug"], "players": event["players"]}, format="json"
    )
    assert response.status_code == 201, response.json()
    data: dict[str, Any] = response.json()
    return data


def if_match(version: Any) -> dict[str, str]:
    return {"If-Match": f'"{version}"'}


# --- events, players, rounds, rulesets ---------------------------------------------------------------------------


def test_events(check: Check, organiser: User, referee: User, settings: Any):
    path, detail = "/api/v1/events/", "/api/v1/events/{slug}/"
    org, ref, anonymous = client_for(organiser), client_for(referee), client_for(None)
    created = check(
        org.post(
            path,
            {
                "name": "League",
                "kind": "league",
                "starts_on": "2025-04-01",
                "substitute_points": "-1.5",
                "tiebreaks": ["score"],
            },
            format="json",
        ),
        "post",
        path,
        201,
    )
    slug = created["slug"]
    Event.objects.get(slug=slug).referees.add(referee)
    refused = check(org.post(path, {"name": "X", "overrides": {"uma": [1, 2]}}, format="json"), "post", path, 400)
    assert refused == {
        "detail": "invalid input; nothing was saved",
        "errors": [
            {
                "field": "overrides.uma",
                "message": "needs 4 values, one per rank (or [] for none)",
                "code": "uma_per_rank",
            }
        ],
    }
    check(anonymous.post(path, {"name": "Y"}, format="json"), "post", path, 401)
    settings.EVENT_CREATORS = "organisers"  # only the users with tournament.add_event: these have it not
    check(org.post(path, {"name": "Y"}, format="json"), "post", path, 403)
    settings.EVENT_CREATORS = "anyone"
    assert check(anonymous.get(path), "get", path, 200)["results"] == []  # the event is private
    assert check(org.get(path), "get", path, 200)["results"][0]["substitute_points"] == "-1.50"

    url = f"{API}events/{slug}/"
    assert check(org.get(url), "get", detail, 200)["ruleset_parameters"]["players"] == 4
    check(anonymous.get(url), "get", detail, 404)
    patched = check(org.patch(url, {"public": True, "ends_on": None}, format="json"), "patch", detail, 200)
    assert (patched["public"], patched["ends_on"]) == (True, None)
    assert fields(check(org.patch(url, {"tiebreaks": ["luck"]}, format="json"), "patch", detail, 400)) == ["tiebreaks"]
    league = Event.objects.get(slug=slug)
    played(league, registered(league, "Ann", "Bo", "Cy", "Di"))
    locked = check(org.patch(url, {"ruleset": "sanma"}, format="json"), "patch", detail, 409)
    assert fields(locked) == ["ruleset"]
    check(anonymous.patch(url, {"name": "Z"}, format="json"), "patch", detail, 401)
    check(ref.patch(url, {"name": "Z"}, format="json"), "patch", detail, 403)
    check(org.patch(f"{API}events/nope/", {"name": "Z"}, format="json"), "patch", detail, 404)

    check(anonymous.delete(url), "delete", detail, 401)
    check(ref.delete(url), "delete", detail, 403)
    check(org.delete(f"{API}events/nope/"), "delete", detail, 404)
    check(org.delete(url), "delete", detail, 204)


def test_players(check: Check, event: dict[str, Any], organiser: User, referee: User):
    path, url = "/api/v1/events/{slug}/players/", f"{API}events/{event['slug']}/players/"
    org = client_for(organiser)
    players = check(client_for(None).get(url), "get", path, 200)["results"]
    assert [p["name"] for p in players] == ["Ann", "Bo", "Cy", "Di"]
    check(client_for(None).get(f"{API}events/nope/players/"), "get", path, 404)
    added = check(
        org.post(url, {"name": "Ed", "country": "FR", "team": "Lyon", "substitute": True}, format="json"),
        "post",
        path,
        201,
    )
    assert (added["substitute"], "team" in added) == (True, False)
    assert fields(check(org.post(url, {"country": "FR"}, format="json"), "post", path, 400)) == ["name"]
    check(client_for(None).post(url, {"name": "Fay"}, format="json"), "post", path, 401)
    check(client_for(referee).post(url, {"name": "Fay"}, format="json"), "post", path, 403)
    check(org.post(f"{API}events/nope/players/", {"name": "Fay"}, format="json"), "post", path, 404)


def test_player_code(check: Check, event: dict[str, Any], organiser: User, referee: User):
    """An organiser reissues one player's confirmation code; the others' stay."""
    path = "/api/v1/events/{slug}/players/{player_id}/code"
    spring = Event.objects.get(slug=event["slug"])
    ann, bo = (Player.objects.get(name=name) for name in ("Ann", "Bo"))
    before = player_code(spring, ann), player_code(spring, bo)
    url = f"{API}events/{event['slug']}/players/{bo.pk}/code"
    body = check(client_for(organiser).post(url), "post", path, 200)
    assert body["code"] == player_code(spring, bo) != before[1]
    assert (body["player"], body["code_version"], body["reissued_by"]) == (bo.pk, 2, organiser.username)
    assert player_code(spring, ann) == before[0]
    check(client_for(None).post(url), "post", path, 401)
    check(client_for(referee).post(url), "post", path, 403)
    check(client_for(organiser).post(f"{API}events/{event['slug']}/players/999999/code"), "post", path, 404)
    assert Registration.objects.get(event=spring, player=bo).code_version == 2


def test_rounds(check: Check, event: dict[str, Any], organiser: User, referee: User):
    path, url = "/api/v1/events/{slug}/rounds/", f"{API}events/{event['slug']}/rounds/"
    org = client_for(organiser)
    first = check(
        org.post(url, {"starts_at": "2025-04-01T10:00:00Z", "time_limit_minutes": 90}, format="json"), "post", path, 201
    )
    assert (first["number"], first["ends_at"]) == (1, "2025-04-01T11:30:00Z")
    check(org.post(url, {}, format="json"), "post", path, 201)
    rounds = check(client_for(None).get(url), "get", path, 200)["results"]
    assert [r["ends_at"] for r in rounds] == ["2025-04-01T11:30:00Z", None]
    check(client_for(None).get(f"{API}events/nope/rounds/"), "get", path, 404)
    assert fields(check(org.post(url, {"time_limit_minutes": "long"}, format="json"), "post", path, 400)) == [
        "time_limit_minutes"
    ]
    check(client_for(None).post(url, {}, format="json"), "post", path, 401)
    check(client_for(referee).post(url, {}, format="json"), "post", path, 403)
    check(org.post(f"{API}events/nope/rounds/", {}, format="json"), "post", path, 404)


def test_rulesets(check: Check):
    client = client_for(None)
    presets = check(client.get(f"{API}rulesets/"), "get", "/api/v1/rulesets/", 200)["results"]
    assert {"wrc-2025", "mcr"} <= {p["key"] for p in presets}
    mcr = check(client.get(f"{API}rulesets/mcr/"), "get", "/api/v1/rulesets/{key}/", 200)
    assert mcr["parameters"]["scoring"] == "mcr"
    check(client.get(f"{API}rulesets/no-such-rules/"), "get", "/api/v1/rulesets/{key}/", 404)


# --- seating and schedules ---------------------------------------------------------------------------------------


@pytest.fixture
def seated_event(organiser: User, referee: User) -> dict[str, Any]:
    """A public event with eight players and two rounds, none seated."""
    event = EventFactory.create(name="Seated", slug="seated", organisers=[organiser], referees=[referee])
    ids = [p.pk for p in registered(event, *(f"P{i}" for i in range(8)))]
    for number in (1, 2):
        RoundFactory.create(event=event, number=number)
    return {"slug": event.slug, "players": ids}


def test_round_seating(check: Check, seated_event: dict[str, Any], organiser: User, referee: User):
    path, slug = "/api/v1/events/{slug}/rounds/{number}/seating", seated_event["slug"]
    org, anonymous = client_for(organiser), client_for(None)
    url = f"{API}events/{slug}/rounds/1/seating"
    seated = check(org.post(url, {"method": "random", "seed": 3}, format="json"), "post", path, 201)
    assert [len(t["seats"]) for t in seated["tables"]] == [4, 4]
    assert all(isinstance(t["game"], int) for t in seated["tables"])
    assert check(anonymous.get(url), "get", path, 200) == seated
    assert check(anonymous.get(f"{API}events/{slug}/rounds/2/seating"), "get", path, 200) == {"round": 2, "tables": []}
    check(anonymous.get(f"{API}events/{slug}/rounds/9/seating"), "get", path, 404)
    check(anonymous.get(f"{API}events/nope/rounds/1/seating"), "get", path, 404)
    # Both kinds of 400: the service's refusal, and DRF's for a field of the wrong value.
    again = check(org.post(url, {"method": "random"}, format="json"), "post", path, 400)
    assert again["errors"] == [{"field": "round", "message": "round 1 is already seated", "code": ""}]
    assert fields(check(org.post(url, {"method": "lottery"}, format="json"), "post", path, 400)) == ["method"]
    check(anonymous.post(url, {"method": "swiss"}, format="json"), "post", path, 401)
    check(client_for(referee).post(url, {"method": "swiss"}, format="json"), "post", path, 403)
    check(org.post(f"{API}events/nope/rounds/1/seating", {"method": "swiss"}, format="json"), "post", path, 404)


def test_round_seating_preview(check: Check, seated_event: dict[str, Any], organiser: User, referee: User):
    path, slug = "/api/v1/events/{slug}/rounds/{number}/seating/preview", seated_event["slug"]
    org, url = client_for(organiser), f"{API}events/{slug}/rounds/1/seating/preview"
    shown = check(org.get(url, {"method": "swiss", "seed": "2"}), "get", path, 200)
    assert (shown["round"], shown["spread"], [len(t["seats"]) for t in shown["tables"]]) == (1, 1, [4, 4])
    assert fields(check(org.get(url, {"method": "lottery"}), "get", path, 400)) == ["method"]
    check(client_for(None).get(url, {"method": "swiss"}), "get", path, 401)
    check(client_for(referee).get(url, {"method": "swiss"}), "get", path, 403)
    check(org.get(f"{API}events/nope/rounds/1/seating/preview", {"method": "swiss"}), "get", path, 404)


def test_schedule(check: Check, seated_event: dict[str, Any], organiser: User, referee: User):
    path, url = "/api/v1/events/{slug}/schedule", f"{API}events/{seated_event['slug']}/schedule"
    a, b, c, d, e, f, g, h = seated_event["players"]
    csv = (
        f"round,table,east,south,west,north\n1,1,{a},{b},{c},{d}\n1,2,{e},{f},{g},{h}\n"
        f"2,1,{a},{e},{b},{f}\n2,2,{c},{g},{d},{h}\n"
    )
    org = client_for(organiser)
    rounds = check(org.post(url, {"csv": csv}, format="json"), "post", path, 201)
    assert [(r["round"], len(r["tables"])) for r in rounds] == [(1, 2), (2, 2)]
    again = check(org.post(url, {"csv": csv}, format="json"), "post", path, 400)
    assert {p["field"] for p in again["errors"]} == {"schedule"}
    assert fields(check(org.post(url, {}, format="json"), "post", path, 400)) == ["csv"]
    check(client_for(None).post(url, {"csv": csv}, format="json"), "post", path, 401)
    check(client_for(referee).post(url, {"csv": csv}, format="json"), "post", path, 403)
    check(org.post(f"{API}events/nope/schedule", {"csv": csv}, format="json"), "post", path, 404)


# --- games ---------------------------------------------------------------------------------------------------------


def test_games(check: Check, event: dict[str, Any], game: dict[str, Any], referee: User, stranger: User):
    path, ref = "/api/v1/games/", client_for(referee)
    games = check(client_for(None).get(path, {"event": event["slug"]}), "get", path, 200)["results"]
    assert [g["id"] for g in games] == [game["id"]]
    assert (games[0]["table"], games[0]["end"], games[0]["status"]) == (None, None, "playing")
    assert fields(check(client_for(None).get(path, {"event": "a\x00"}), "get", path, 400)) == ["event"]
    check(client_for(None).get(path, {"page": 9}), "get", path, 404)
    players = event["players"]
    created = check(
        ref.post(
            path,
            {"event": event["slug"], "players": players[::-1], "substitutes": [players[0]], "played_on": "2025-04-02"},
            format="json",
        ),
        "post",
        path,
        201,
    )
    assert [p["substitute"] for p in created["players"]] == [False, False, False, True]
    refused = check(ref.post(path, {"event": event["slug"], "players": players[:3]}, format="json"), "post", path, 400)
    assert refused["errors"] == [
        {"field": "players", "message": "this event's ruleset is for 4 players; 3 given", "code": ""}
    ]
    assert check(ref.post(path, {"event": event["slug"], "players": ["Ann"]}, format="json"), "post", path, 400)[
        "errors"
    ] == [{"field": "players[0]", "message": "A valid integer is required.", "code": "invalid"}]
    check(client_for(None).post(path, {"event": event["slug"], "players": players}, format="json"), "post", path, 401)
    check(
        client_for(stranger).post(path, {"event": event["slug"], "players": players}, format="json"), "post", path, 403
    )
    check(ref.post(path, {"event": "nope", "players": players}, format="json"), "post", path, 404)


def test_game(check: Check, event: dict[str, Any], game: dict[str, Any], referee: User, stranger: User):
    path, url, ref = "/api/v1/games/{game_id}/", f"{API}games/{game['id']}/", client_for(referee)
    assert check(client_for(None).get(url), "get", path, 200) == game
    check(client_for(None).get(f"{API}games/999999/"), "get", path, 404)
    not_started = check(
        ref.patch(url, {"end": "time"}, format="json", headers=if_match(game["version"])), "patch", path, 409
    )
    assert (fields(not_started), not_started["version"]) == (["end"], game["version"])
    played = ref.post(f"{url}hands/", {"result": "draw", "tenpai": []}, format="json").json()["version"]
    ended = check(
        ref.patch(url, {"end": "time", "substitutes": [event["players"][1]]}, format="json", headers=if_match(played)),
        "patch",
        path,
        200,
    )
    assert (ended["end"], ended["status"], ended["players"][1]["substitute"]) == ("time", "finished", True)
    version = ended["version"]
    assert check(ref.patch(url, {"end": "time"}, format="json", headers=if_match("three")), "patch", path, 400) == {
        "detail": 'If-Match must be the game\'s version, e.g. "3"',
        "errors": [],
    }
    assert fields(
        check(ref.patch(url, {"end": "clock"}, format="json", headers=if_match(version)), "patch", path, 400)
    ) == ["end"]
    refused = check(
        ref.patch(url, {"substitutes": [999999]}, format="json", headers=if_match(version)), "patch", path, 400
    )
    assert [p["field"] for p in refused["errors"]] == ["substitutes"]
    conflict = check(
        ref.patch(url, {"end": None}, format="json", headers=if_match(game["version"])), "patch", path, 409
    )
    assert conflict["version"] == version
    check(ref.patch(url, {"end": None}, format="json"), "patch", path, 428)
    check(client_for(None).patch(url, {"end": None}, format="json"), "patch", path, 401)
    check(client_for(stranger).patch(url, {"end": None}, format="json", headers=if_match(version)), "patch", path, 403)
    check(ref.patch(f"{API}games/999999/", {"end": None}, format="json", headers=if_match(1)), "patch", path, 404)


def test_hands(check: Check, event: dict[str, Any], game: dict[str, Any], referee: User, stranger: User):
    path, url, ref = "/api/v1/games/{game_id}/hands/", f"{API}games/{game['id']}/hands/", client_for(referee)
    ann, bo, cy, _di = event["players"]
    added = check(
        ref.post(
            url, {"result": "ron", "winner": ann, "loser": cy, "han": 3, "fu": 40, "riichi": [ann]}, format="json"
        ),
        "post",
        path,
        201,
    )
    assert added["hands_entered"] == 1
    added = check(
        ref.post(
            url, {"index": 5, "result": "draw", "tenpai": [bo]}, format="json", headers=if_match(added["version"])
        ),
        "post",
        path,
        201,
    )
    hands = check(client_for(None).get(url), "get", path, 200)["results"]
    assert hands == [
        {"index": 0, "result": "ron", "winner": ann, "loser": cy, "han": 3, "fu": 40, "riichi": [ann]},
        {"index": 1, "result": "draw", "tenpai": [bo]},
    ]
    check(client_for(None).get(f"{API}games/999999/hands/"), "get", path, 404)
    refused = check(
        ref.post(url, {"result": "ron", "winner": ann, "loser": bo, "han": 1, "fu": 20}, format="json"),
        "post",
        path,
        400,
    )
    assert refused["errors"] == [
        {
            "field": "fu",
            "message": "20 fu is only possible with 2 han or more (pinfu and menzen tsumo)",
            "code": "fu_20_needs_2_han",
        }
    ]
    assert check(ref.post(url, [1, 2], format="json"), "post", path, 400)["errors"] == [
        {"field": "", "message": "a hand is a JSON object", "code": ""}
    ]
    assert (
        check(ref.post(url, {"result": "draw"}, format="json", headers={"If-Match": "x"}), "post", path, 400)["errors"]
        == []
    )
    check(ref.post(url, {"result": "draw"}, format="json", headers=if_match(game["version"])), "post", path, 409)
    check(client_for(None).post(url, {"result": "draw"}, format="json"), "post", path, 401)
    check(client_for(stranger).post(url, {"result": "draw"}, format="json"), "post", path, 403)
    check(ref.post(f"{API}games/999999/hands/", {"result": "draw"}, format="json"), "post", path, 404)


def test_hand(check: Check, event: dict[str, Any], game: dict[str, Any], referee: User, stranger: User):
    path, ref, anonymous = "/api/v1/games/{game_id}/hands/{index}/", client_for(referee), client_for(None)
    url, missing_game, missing_hand = (
        f"{API}games/{game['id']}/hands/0/",
        f"{API}games/999999/hands/0/",
        f"{API}games/{game['id']}/hands/7/",
    )
    ann, bo, cy, di = event["players"]
    for record in (
        {"result": "tsumo", "winner": bo, "han": 1, "fu": 30},
        {"result": "draw", "tenpai": [ann]},
        {"result": "chombo", "player": di},
    ):
        version = ref.post(f"{API}games/{game['id']}/hands/", record, format="json").json()["version"]
    assert check(anonymous.get(url), "get", path, 200) == {
        "index": 0,
        "result": "tsumo",
        "winner": bo,
        "han": 1,
        "fu": 30,
    }
    check(anonymous.get(missing_hand), "get", path, 404)

    # PUT replaces (the GET's index may come back), PATCH merges (null drops a field): both answer with the game.
    changed = check(
        ref.put(
            url,
            {"index": 0, "result": "tsumo", "winner": cy, "han": 2, "fu": 30},
            format="json",
            headers=if_match(version),
        ),
        "put",
        path,
        200,
    )
    changed = check(
        ref.patch(url, {"han": 5, "fu": None}, format="json", headers=if_match(changed["version"])), "patch", path, 200
    )
    assert ref.get(url).json() == {"index": 0, "result": "tsumo", "winner": cy, "han": 5}
    version = changed["version"]
    for method in ("put", "patch"):
        send = getattr(ref, method)
        refused = check(
            send(
                url,
                {"result": "ron", "winner": ann, "loser": ann, "han": 1, "fu": 30},
                format="json",
                headers=if_match(version),
            ),
            method,
            path,
            400,
        )
        assert refused["errors"]
        check(send(url, {"result": "draw"}, format="json", headers={"If-Match": "W/"}), method, path, 400)
        check(send(url, {"result": "draw"}, format="json", headers=if_match(version - 1)), method, path, 409)
        check(send(url, {"result": "draw"}, format="json"), method, path, 428)
        check(getattr(anonymous, method)(url, {"result": "draw"}, format="json"), method, path, 401)
        check(
            getattr(client_for(stranger), method)(url, {"result": "draw"}, format="json", headers=if_match(version)),
            method,
            path,
            403,
        )
        check(send(missing_game, {"result": "draw"}, format="json", headers=if_match(1)), method, path, 404)
    out_of_range = check(
        ref.put(missing_hand, {"result": "draw"}, format="json", headers=if_match(version)), "put", path, 400
    )
    assert out_of_range["errors"] == [{"field": "index", "message": "this game has hands 0 to 2", "code": ""}]
    check(ref.patch(missing_hand, {"result": "draw"}, format="json", headers=if_match(version)), "patch", path, 404)

    out_of_range = check(ref.delete(missing_hand, headers=if_match(version)), "delete", path, 400)
    assert out_of_range["errors"] == [{"field": "index", "message": "this game has hands 0 to 2", "code": ""}]
    check(ref.delete(url, headers=if_match(version - 1)), "delete", path, 409)
    check(ref.delete(url), "delete", path, 428)
    check(anonymous.delete(url), "delete", path, 401)
    check(client_for(stranger).delete(url, headers=if_match(version)), "delete", path, 403)
    check(ref.delete(missing_game, headers=if_match(1)), "delete", path, 404)
    assert check(ref.delete(url, headers=if_match(version)), "delete", path, 200)["hands_entered"] == 2


def test_sheet_and_standings(
    check: Check,
    event: dict[str, Any],
    game: dict[str, Any],
    referee: User,
    stranger: User,
    django_capture_on_commit_callbacks: Any,
):
    path, url, ref = "/api/v1/games/{game_id}/sheet", f"{API}games/{game['id']}/sheet", client_for(referee)
    _ann, _bo, cy, di = event["players"]
    sheet = check(client_for(None).get(url), "get", path, 200)
    assert (sheet["players"], sheet["hands"], sheet["penalties"]) == (event["players"], [], [])
    assert {"end", "start"}.isdisjoint(sheet)  # a game from its start, not ended by the clock
    check(client_for(None).get(f"{API}games/999999/sheet"), "get", path, 404)
    sheet.update(
        hands=[{"result": "ron", "winner": cy, "loser": di, "han": 4, "fu": 30}],
        end="time",
        start={"round": "E1", "honba": 0, "deposits": 0, "scores": [30000, 30000, 30000, 30000]},
    )
    with django_capture_on_commit_callbacks(execute=True):
        finished = check(ref.put(url, sheet, format="json", headers=if_match(game["version"])), "put", path, 200)
    assert finished["status"] == "finished"
    assert check(client_for(None).get(url), "get", path, 200) == sheet
    refused = check(
        ref.put(url, {**sheet, "ruleset": "mcr", "extra": 1}, format="json", headers=if_match(finished["version"])),
        "put",
        path,
        400,
    )
    assert [p["field"] for p in refused["errors"]] == ["extra", "ruleset"]
    check(ref.put(url, sheet, format="json", headers=if_match(game["version"])), "put", path, 409)
    check(ref.put(url, sheet, format="json"), "put", path, 428)
    check(client_for(None).put(url, sheet, format="json"), "put", path, 401)
    check(client_for(stranger).put(url, sheet, format="json", headers=if_match(finished["version"])), "put", path, 403)
    check(ref.put(f"{API}games/999999/sheet", sheet, format="json", headers=if_match(1)), "put", path, 404)

    # The finished game counts in the standings: points are numbers (not decimal strings), unset values null.
    standings_path = "/api/v1/events/{slug}/standings/"
    standings = check(client_for(None).get(f"{API}events/{event['slug']}/standings/"), "get", standings_path, 200)[
        "results"
    ]
    assert [(s["rank"], s["player"]["name"], s["points"], s["games"]) for s in standings] == [
        (1, "Cy", 23.0, 1),
        (2, "Ann", 0.0, 1),
        (2, "Bo", 0.0, 1),
        (4, "Di", -23.0, 1),
    ]
    assert all(isinstance(s["points"], float) and s["table_points"] is None for s in standings)
    check(client_for(None).get(f"{API}events/nope/standings/"), "get", standings_path, 404)
    # Unchanged since the reader's copy: 304 and no body; a recompute makes a new version.
    first = client_for(None).get(f"{API}events/{event['slug']}/standings/")
    again = client_for(None).get(f"{API}events/{event['slug']}/standings/", headers={"If-None-Match": first["ETag"]})
    assert check(again, "get", standings_path, 304) is None
    assert first["Cache-Control"] == "public, no-cache"
    # A recompute that changes no line keeps the version; one that changes a line makes a new one.
    league = Event.objects.get(slug=event["slug"])
    standings_recompute(league)
    reread = client_for(None).get(f"{API}events/{event['slug']}/standings/", headers={"If-None-Match": first["ETag"]})
    assert reread.status_code == 304
    Penalty.objects.create(event=league, player=Player.objects.get(name="Ann"), points=Decimal("-5"), reason="late")
    standings_recompute(league)
    assert (
        client_for(None)
        .get(f"{API}events/{event['slug']}/standings/", headers={"If-None-Match": first["ETag"]})
        .status_code
        == 200
    )


def test_standings_with_movement_rounds_and_teams(check: Check, organiser: User):
    """Two rounds of one table (wrc-2025). Round 1: Ann (East) rons Cy 3 han 40 fu = 7700: Ann +22.7, Bo and Di 0,
    Cy −22.7. Round 2 (Bo East): Di rons Ann 3 han 40 fu = 5200: Di +20.2, Bo and Cy 0, Ann −20.2. Totals Di 20.2,
    Ann 2.5, Bo 0, Cy −22.7: ranks Di 1 (was =2: up 1), Ann 2 (was 1: down 1), Bo 3 (was =2: down 1), Cy 4 (0).
    Teams East (Ann, Bo) and West (Cy, Di), best 1 member: East 2.5 (Ann), West 20.2 (Di)."""
    event = EventFactory.create(slug="teams-open", organisers=[organiser])
    ann, bo, cy, di = registered(event, "Ann", "Bo", "Cy", "Di")
    Player.objects.filter(pk=di.pk).update(federation_id="04-000042", country="France")
    for number, seats, hand in (
        (1, [ann, bo, cy, di], {"winner": ann.pk, "loser": cy.pk}),
        (2, [bo, cy, di, ann], {"winner": di.pk, "loser": ann.pk}),
    ):
        table = TableFactory.create(round=RoundFactory.create(event=event, number=number), number=1)
        played(event, seats, [{"result": "ron", "han": 3, "fu": 40, **hand}], table=table, end=True)
    standings_recompute(event)
    east, west = (Team.objects.create(event=event, name=name) for name in ("East", "West"))
    Registration.objects.filter(player__in=[ann, bo]).update(team=east)
    Registration.objects.filter(player__in=[cy, di]).update(team=west)
    path, url = "/api/v1/events/{slug}/", f"{API}events/{event.slug}/"
    refused = check(client_for(organiser).patch(url, {"team_ranking": "best"}, format="json"), "patch", path, 400)
    assert [p["field"] for p in refused["errors"]] == ["team_best"]
    changed = check(
        client_for(organiser).patch(url, {"team_ranking": "best", "team_best": 1}, format="json"), "patch", path, 200
    )
    assert (changed["team_ranking"], changed["team_best"]) == ("best", 1)
    body = check(
        client_for(None).get(f"{API}events/{event.slug}/standings/"), "get", "/api/v1/events/{slug}/standings/", 200
    )
    lines = {s["player"]["name"]: s for s in body["results"]}
    assert [(n, lines[n]["rank"], lines[n]["movement"], lines[n]["new"]) for n in ("Di", "Ann", "Bo", "Cy")] == [
        ("Di", 1, 1, False),
        ("Ann", 2, -1, False),
        ("Bo", 3, -1, False),
        ("Cy", 4, 0, False),
    ]
    assert lines["Ann"]["rounds"] == [
        {"round": 1, "points": 22.7, "table_points": None},
        {"round": 2, "points": -20.2, "table_points": None},
    ]
    assert (lines["Di"]["federation_id"], lines["Di"]["country"], lines["Di"]["team"]) == (
        "04-000042",
        "France",
        "West",
    )
    assert [
        (t["rank"], t["team"], t["points"], [m["player"]["name"] for m in t["members"] if m["counted"]])
        for t in body["teams"]
    ] == [(1, "West", 20.2, ["Di"]), (2, "East", 2.5, ["Ann"])]


def test_history(check: Check, event: dict[str, Any], game: dict[str, Any], organiser: User, referee: User):
    path, ref = "/api/v1/games/{game_id}/history/", client_for(referee)
    url, hands = f"{API}games/{game['id']}/history/", f"{API}games/{game['id']}/hands/"
    ann, *_ = event["players"]
    version = ref.post(hands, {"result": "draw", "tenpai": [ann]}, format="json").json()["version"]
    version = ref.put(f"{hands}0/", {"result": "draw", "tenpai": []}, format="json", headers=if_match(version)).json()[
        "version"
    ]
    version = ref.post(hands, {"result": "draw", "tenpai": []}, format="json").json()["version"]
    version = ref.delete(f"{hands}1/", headers=if_match(version)).json()["version"]
    version = ref.patch(f"{API}games/{game['id']}/", {"end": "time"}, format="json", headers=if_match(version)).json()[
        "version"
    ]
    sheet = ref.get(f"{API}games/{game['id']}/sheet").json()
    response = ref.put(
        f"{API}games/{game['id']}/sheet", {**sheet, "end": None}, format="json", headers=if_match(version)
    )
    assert response.status_code == 200, response.json()
    history = check(client_for(organiser).get(url), "get", path, 200)["results"]
    assert [(c["action"], c["index"], c["user"]) for c in history] == [
        ("add", 0, "ref"),
        ("change", 0, "ref"),
        ("add", 1, "ref"),
        ("delete", 1, "ref"),
        ("game", None, "ref"),
        ("sheet", None, "ref"),
    ]
    assert (history[0]["before"], history[3]["after"]) == (None, None)
    assert [c["previous"] for c in history] == ["", *(c["hash"] for c in history[:-1])]  # a chain
    # Anyone may check a public event's game against the seal they kept; the history itself stays private.
    verified = check(client_for(None).get(url, {"verify": "1"}), "get", path, 200)
    assert (verified["intact"], verified["entries"], verified["head"], verified["problem"]) == (
        True,
        6,
        history[-1]["hash"],
        None,
    )
    check(client_for(None).get(url), "get", path, 401)
    check(ref.get(url), "get", path, 403)
    check(client_for(organiser).get(f"{API}games/999999/history/"), "get", path, 404)


# --- the API token --------------------------------------------------------------------------------------------------


def test_auth_token(check: Check, referee: User):
    path, client = "/api/v1/auth/token/", client_for(None)
    referee.set_password("referee-long-password")
    referee.save()
    token = check(
        client.post(path, {"username": "ref", "password": "referee-long-password"}, format="json"), "post", path, 200
    )["token"]
    # The same token each time, and it signs the API's writes in.
    assert (
        check(
            client.post(path, {"username": "ref", "password": "referee-long-password"}, format="json"),
            "post",
            path,
            200,
        )["token"]
        == token
    )
    created = client_for(None).post(
        f"{API}events/", {"name": "By token"}, format="json", headers={"Authorization": f"Token {token}"}
    )
    assert created.status_code == 201, created.content
    assert fields(check(client.post(path, {"username": "ref"}, format="json"), "post", path, 400)) == ["password"]
    wrong = check(client.post(path, {"username": "ref", "password": "guess"}, format="json"), "post", path, 400)
    assert wrong == {"detail": "wrong username or password (or the account is inactive)", "errors": []}
    for _ in range(8):  # failures 2 to 9 are refused as wrong; the tenth locks the username
        assert client.post(path, {"username": "ref", "password": "guess"}, format="json").status_code == 400
    check(client.post(path, {"username": "ref", "password": "guess"}, format="json"), "post", path, 429)
    locked = check(
        client.post(path, {"username": "ref", "password": "referee-long-password"}, format="json"), "post", path, 429
    )
    assert "too many failed sign-ins" in locked["detail"]


# --- the check can fail, and the schema says something ---------------------------------------------------------


class FakeResponse:
    def __init__(self, status_code: int, body: Any) -> None:
        self.status_code, self.body, self.content = status_code, body, json.dumps(body).encode()
        self.headers: dict[str, str] = {}

    def json(self) -> Any:
        return self.body


GAME = {
    "id": 1,
    "event": "spring-open",
    "table": None,
    "version": 1,
    "status": "playing",
    "end": None,
    "played_on": "2025-04-01",
    "players": [{"id": 7, "name": "Ann", "seat": 0, "substitute": False}],
    "hands_entered": 0,
    "result": {},
}


def test_the_check_refuses_a_body_that_does_not_match(openapi: dict[str, Any], check: Check):
    path = "/api/v1/games/{game_id}/"
    game_schema = response_schema(openapi, "get", path, 200)
    assert game_schema is not None
    assert schema_errors(openapi, game_schema, GAME) == []
    without_version = {k: v for k, v in GAME.items() if k != "version"}
    assert schema_errors(openapi, game_schema, without_version) == ["(body): 'version' is a required property"]
    assert schema_errors(openapi, game_schema, {**GAME, "version": "1"}) == ["version: '1' is not of type 'integer'"]
    assert schema_errors(openapi, game_schema, {**GAME, "hands_entered": None}) != []  # not nullable
    assert schema_errors(openapi, game_schema, {**GAME, "end": "clock"}) != []
    assert schema_errors(openapi, game_schema, {**GAME, "played_on": "April"}) != []  # format: date
    assert schema_errors(openapi, game_schema, {**GAME, "players": [{"id": 7}]}) != []
    with pytest.raises(AssertionError, match="does not match the schema"):
        check(FakeResponse(200, without_version), "get", path)
    with pytest.raises(AssertionError, match="the schema declares"):
        check(FakeResponse(418, GAME), "get", path)
    with pytest.raises(AssertionError, match="not 404"):
        check(FakeResponse(200, GAME), "get", path, 404)
    with pytest.raises(AssertionError, match="declares no body"):
        check(FakeResponse(204, GAME), "delete", "/api/v1/events/{slug}/")
    standings = response_schema(openapi, "get", "/api/v1/events/{slug}/standings/", 200)
    assert standings is not None
    line: dict[str, Any] = {
        "rank": None,
        "player": {"id": 1, "name": "Ann"},
        "points": 1.5,
        "carried": 0.0,
        "table_points": None,
        "carried_table_points": None,
        "stage": 1,
        "score": 0,
        "games": 0,
        "average_rank": None,
        "penalties": 0.0,
        "federation_id": "",
        "country": "",
        "team": None,
        "movement": None,
        "new": False,
        "rounds": [],
        "draws": None,
        "value": None,
    }
    page = {"count": 1, "next": None, "previous": None, "updating": False, "computed_at": None}
    assert schema_errors(openapi, standings, {**page, "results": [line]}) == []
    assert schema_errors(openapi, standings, {**page, "results": [{**line, "points": "1.50"}]}) != []  # a number
    conflict = response_schema(openapi, "put", "/api/v1/games/{game_id}/sheet", 409)
    assert conflict is not None
    assert schema_errors(openapi, conflict, {"detail": "stale", "errors": []}) == [
        "(body): 'version' is a required property"
    ]


def test_json_schema_translates_nullable():
    assert json_schema({"type": "integer", "nullable": True}) == {"type": ["integer", "null"]}
    assert json_schema({"allOf": [{"$ref": "#/x"}], "nullable": True}) == {
        "anyOf": [{"allOf": [{"$ref": "#/x"}]}, {"type": "null"}]
    }
    assert json_schema({"type": "object", "properties": {"nullable": {"type": "string", "nullable": True}}}) == {
        "type": "object",
        "properties": {"nullable": {"type": ["string", "null"]}},
    }


def resolve(openapi: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = openapi["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def untyped(openapi: dict[str, Any], schema: dict[str, Any] | None) -> bool:
    """Says nothing of the shape: no schema, or an object (or list of objects) without declared properties."""
    if schema is None:
        return True
    schema = resolve(openapi, schema)
    if schema.get("type") == "array":
        return untyped(openapi, schema.get("items"))
    if "oneOf" in schema:
        return any(untyped(openapi, branch) for branch in schema["oneOf"])
    if schema.get("type") == "object" and not schema.get("properties"):
        return not schema.get("additionalProperties")  # a map must say what its values are
    return "type" not in schema


def test_every_api_body_has_a_declared_shape(openapi: dict[str, Any]):
    vague = []
    for path, operations in openapi["paths"].items():
        if not path.startswith(API):
            continue
        for method, operation in operations.items():
            if method == "parameters":
                continue
            for status, response in operation["responses"].items():
                if status in ("204", "304"):
                    assert "content" not in response
                    continue
                schema = response.get("content", {}).get("application/json", {}).get("schema")
                if untyped(openapi, schema):
                    vague.append(f"{method.upper()} {path} {status}: {schema}")
            if "requestBody" in operation:
                schema = operation["requestBody"]["content"]["application/json"]["schema"]
                if untyped(openapi, schema):
                    vague.append(f"{method.upper()} {path} request: {schema}")
    assert vague == []
    # What `responses={200: dict}` used to give is caught.
    assert untyped(openapi, {"type": "object", "additionalProperties": {}})


def test_every_creating_post_takes_an_idempotency_key(check: Check, seated_event: dict[str, Any], organiser: User):
    """The first request creates; the same key with another body is refused (422) by every creating POST."""
    slug, ids = seated_event["slug"], seated_event["players"]
    org = client_for(organiser)
    game = org.post(f"{API}games/", {"event": slug, "players": ids[:4]}, format="json").json()
    schedule = (
        "round,table,east,south,west,north\n1,1,"
        + ",".join(map(str, ids[:4]))
        + "\n1,2,"
        + ",".join(map(str, ids[4:]))
        + "\n"
    )
    posts = [
        ("/api/v1/events/", f"{API}events/", {"name": "A"}, {"name": "B"}),
        ("/api/v1/events/{slug}/players/", f"{API}events/{slug}/players/", {"name": "Ed"}, {"name": "Fay"}),
        ("/api/v1/events/{slug}/rounds/", f"{API}events/{slug}/rounds/", {}, {"time_limit_minutes": 5}),
        ("/api/v1/games/", f"{API}games/", {"event": slug, "players": ids[4:]}, {"event": slug, "players": ids[:4]}),
        (
            "/api/v1/games/{game_id}/hands/",
            f"{API}games/{game['id']}/hands/",
            {"result": "draw"},
            {"result": "draw", "tenpai": [ids[0]]},
        ),
        (
            "/api/v1/events/{slug}/schedule",
            f"{API}events/{slug}/schedule",
            {"csv": schedule},
            {"csv": schedule.replace("\n1,2,", "\n1,3,")},
        ),
        # Round 3, added above: rounds 1 and 2 are there from the start, round 1 seated by the schedule.
        (
            "/api/v1/events/{slug}/rounds/{number}/seating",
            f"{API}events/{slug}/rounds/3/seating",
            {"method": "random"},
            {"method": "swiss"},
        ),
    ]
    for path, url, body, other in posts:
        key = {"Idempotency-Key": f"key for {path}"}
        first = org.post(url, body, format="json", headers=key)
        assert first.status_code == 201, (path, first.json())
        assert org.post(url, body, format="json", headers=key).json() == first.json()  # the retry: the first answer
        assert fields(check(org.post(url, other, format="json", headers=key), "post", path, 422)) == ["Idempotency-Key"]


def test_game_import(check: Check, organiser: User, referee: User, tmp_path: Any):
    online = Path(__file__).parents[1] / "fixtures" / "online"
    log = (online / "tenhou" / "mjx-2010081709gm-00a9-0000-fe3371ad.xml").read_bytes()
    sanma = (online / "tenhou6" / "sanmaengine-2024010120gm-00b9-0000-e324b88a.json").read_bytes()
    event = EventFactory.create(slug="online", organisers=[organiser], referees=[referee])
    path, url = "/api/v1/events/{slug}/games/import", f"{API}events/online/games/import"
    org = client_for(organiser)
    unknown = check(org.post(url, log, content_type="application/xml"), "post", path, 400)
    assert {e["field"] for e in unknown["errors"]} == {"body"}
    assert unknown["results"][0]["outcome"] == "unreadable"
    created = check(org.post(f"{url}?create_players=true", log, content_type="application/xml"), "post", path, 201)
    assert created["results"][0]["outcome"] == "imported"
    again = check(org.post(url, log, content_type="application/octet-stream"), "post", path, 200)
    assert again["results"][0]["game"] == created["results"][0]["game"]
    upload = check(
        org.post(f"{url}?create_players=1", {"file": [_named(sanma, "sanma.json")]}, format="multipart"),
        "post",
        path,
        201,
    )
    assert upload["results"][0]["source"] == "sanma.json"
    refused = check(org.post(url, _first_delta_changed(log), content_type="application/xml"), "post", path, 422)
    assert refused["results"][0]["outcome"] == "differs"
    assert "the log records" in refused["errors"][0]["message"]
    assert fields(check(org.post(f"{url}?ruleset=nope", log, content_type="application/xml"), "post", path, 400)) == [
        "ruleset"
    ]
    check(client_for(None).post(url, log, content_type="application/xml"), "post", path, 401)
    check(client_for(referee).post(url, log, content_type="application/xml"), "post", path, 403)
    check(org.post(f"{API}events/nope/games/import", log, content_type="application/xml"), "post", path, 404)
    assert event.games.count() == 2
    key = {"Idempotency-Key": "import once"}
    assert org.post(url, log, content_type="application/xml", headers=key).status_code == 200
    assert org.post(url, log, content_type="application/xml", headers=key)["Idempotent-Replayed"] == "true"
    assert fields(check(org.post(url, sanma, content_type="application/json", headers=key), "post", path, 422)) == [
        "Idempotency-Key"
    ]


def _named(data: bytes, name: str) -> Any:
    return SimpleUploadedFile(name, data)


def _first_delta_changed(log: bytes) -> bytes:
    """The log with its first win 100 higher for the first seat and 100 lower for the second, in ``sc``."""
    match = re.search(rb'<AGARI [^>]*?sc="([^"]*)"', log)
    assert match is not None
    values = [int(v) for v in match[1].split(b",")]
    values[1] += 1
    values[3] -= 1
    return log[: match.start(1)] + b",".join(str(v).encode() for v in values) + log[match.end(1) :]


def _finish(api: Any, game_id: int, scores: list[int]) -> None:
    version = api.get(f"{API}games/{game_id}/").json()["version"]
    done = api.put(
        f"{API}games/{game_id}/sheet",
        {"start": {"scores": scores}, "end": "time", "hands": []},
        format="json",
        headers=if_match(version),
    )
    assert done.status_code == 200, done.json()


def test_stages_and_the_cut(check: Check, organiser: User, referee: User):
    """Eight players, one round (WRC 2025: 30,000 returned, uma 15/5/-5/-15): table 1 ends 48,000 / 32,000 /
    25,000 / 15,000 (+33.0, +7.0, -10.0, -30.0), table 2 50,000 / 30,000 / 24,000 / 16,000 (+35.0, +5.0, -11.0,
    -29.0). The final takes the top 4 with half their points."""
    event = EventFactory.create(slug="cup", organisers=[organiser], referees=[referee])
    ids = [p.pk for p in registered(event, *[f"P{i}" for i in range(8)])]
    org, ref, anon = client_for(organiser), client_for(referee), client_for(None)
    org.post(f"{API}events/cup/rounds/", {}, format="json")
    tables = org.post(f"{API}events/cup/rounds/1/seating", {"method": "random", "seed": 1}, format="json").json()
    top = {}
    for table, scores in zip(
        tables["tables"], ([48000, 32000, 25000, 15000], [50000, 30000, 24000, 16000]), strict=True
    ):
        _finish(org, table["game"], scores)
        top[scores[0]] = table["seats"][0]["player"]["id"]
    path, url = "/api/v1/events/{slug}/stages/", f"{API}events/cup/stages/"
    assert [s["number"] for s in check(anon.get(url), "get", path, 200)] == [1]
    check(anon.get(f"{API}events/nope/stages/"), "get", path, 404)
    final = {"name": "Final", "entry": {"top": 4}, "carry": "half", "seating": "rank"}
    assert check(org.post(url, final, format="json"), "post", path, 201)["number"] == 2
    assert fields(check(org.post(url, {**final, "carry": "most"}, format="json"), "post", path, 400)) == ["carry"]
    check(anon.post(url, final, format="json"), "post", path, 401)
    check(ref.post(url, final, format="json"), "post", path, 403)
    check(org.post(f"{API}events/nope/stages/", final, format="json"), "post", path, 404)
    key = {"Idempotency-Key": "a stage"}
    org.post(url, {**final, "name": "Extra"}, format="json", headers=key)
    check(org.post(url, {**final, "name": "Other"}, format="json", headers=key), "post", path, 422)

    one, stage_3 = "/api/v1/events/{slug}/stages/{number}/", f"{API}events/cup/stages/3/"
    assert check(anon.get(f"{API}events/cup/stages/2/"), "get", one, 200)["entry"] == {"top": 4, "also": []}
    check(anon.get(f"{API}events/cup/stages/9/"), "get", one, 404)
    assert check(org.patch(stage_3, {"name": "Play-off"}, format="json"), "patch", one, 200)["name"] == "Play-off"
    assert fields(check(org.patch(stage_3, {"seating": "drawn"}, format="json"), "patch", one, 400)) == ["seating"]
    check(anon.patch(stage_3, {"name": "X"}, format="json"), "patch", one, 401)
    check(ref.patch(stage_3, {"name": "X"}, format="json"), "patch", one, 403)
    check(org.patch(f"{API}events/cup/stages/9/", {"name": "X"}, format="json"), "patch", one, 404)
    check(org.delete(f"{API}events/cup/stages/2/"), "delete", one, 409)  # not the last
    check(anon.delete(stage_3), "delete", one, 401)
    check(ref.delete(stage_3), "delete", one, 403)
    check(org.delete(f"{API}events/cup/stages/9/"), "delete", one, 404)
    check(org.delete(stage_3), "delete", one, 204)

    cut, cut_url = "/api/v1/events/{slug}/stages/{number}/cut", f"{API}events/cup/stages/2/cut"
    check(anon.get(f"{API}events/cup/stages/1/cut"), "get", cut, 409)
    check(anon.get(f"{API}events/cup/stages/9/cut"), "get", cut, 404)
    preview = check(anon.get(cut_url), "get", cut, 200)
    assert preview["through"][:2] == [top[50000], top[48000]]
    assert [p["carried"] for p in preview["players"]] == [17.5, 16.5, 3.5, 2.5]
    assert fields(check(org.post(cut_url, {"through": "all"}, format="json"), "post", cut, 400)) == ["through"]
    check(anon.post(cut_url, {}, format="json"), "post", cut, 401)
    check(ref.post(cut_url, {}, format="json"), "post", cut, 403)
    check(org.post(f"{API}events/cup/stages/9/cut", {}, format="json"), "post", cut, 404)
    check(org.post(f"{API}events/cup/stages/1/cut", {}, format="json"), "post", cut, 409)
    key = {"Idempotency-Key": "the cut"}
    assert check(org.post(cut_url, {}, format="json", headers=key), "post", cut, 201)["confirmed"] is True
    check(org.post(cut_url, {"through": ids}, format="json", headers=key), "post", cut, 422)
    check(org.patch(f"{API}events/cup/stages/2/", {"carry": "all"}, format="json"), "patch", one, 409)
    check(anon.delete(cut_url), "delete", cut, 401)
    check(ref.delete(cut_url), "delete", cut, 403)
    check(org.delete(f"{API}events/cup/stages/9/cut"), "delete", cut, 404)
    assert check(org.delete(cut_url), "delete", cut, 200)["confirmed"] is False
    check(org.delete(cut_url), "delete", cut, 409)  # not confirmed any more
    org.post(cut_url, {}, format="json")
    standings = "/api/v1/events/{slug}/standings/"
    standings_recompute(event)
    lines = check(anon.get(f"{API}events/cup/standings/?stage=2"), "get", standings, 200)["results"]
    assert [(line["player"]["id"], line["carried"], line["points"]) for line in lines][:2] == [
        (top[50000], 17.5, 17.5),
        (top[48000], 16.5, 16.5),
    ]
    assert fields(check(anon.get(f"{API}events/cup/standings/?stage=two"), "get", standings, 400)) == ["stage"]
    check(anon.get(f"{API}events/cup/standings/?stage=9"), "get", standings, 404)


def test_a_team_league(check: Check, organiser: User, referee: User):
    """Eight teams of two: round 1 seats teams; a lineup names who plays; the game opens once a table's four
    teams have named theirs."""
    event = EventFactory.create(
        slug="league", organisers=[organiser], referees=[referee], entrants="teams", team_ranking="sum"
    )
    teams = [Team.objects.create(event=event, name=f"Team {n}") for n in range(8)]
    for team in teams:
        for player in registered(event, f"{team.name} A", f"{team.name} B"):
            Registration.objects.filter(event=event, player=player).update(team=team)
    org, ref, anon = client_for(organiser), client_for(referee), client_for(None)
    org.post(f"{API}events/league/rounds/", {}, format="json")
    seated = org.post(f"{API}events/league/rounds/1/seating", {"method": "random", "seed": 2}, format="json").json()
    assert [len(t["teams"]) for t in seated["tables"]] == [4, 4]
    listed, team_path = "/api/v1/events/{slug}/teams/", "/api/v1/events/{slug}/teams/{team_id}/"
    assert len(check(anon.get(f"{API}events/league/teams/"), "get", listed, 200)) == 8
    check(anon.get(f"{API}events/nope/teams/"), "get", listed, 404)
    url = f"{API}events/league/teams/{teams[0].pk}/"
    assert [m["name"] for m in check(anon.get(url), "get", team_path, 200)["members"]] == ["Team 0 A", "Team 0 B"]
    check(anon.get(f"{API}events/league/teams/999999/"), "get", team_path, 404)
    assert check(org.patch(url, {"captain": "ref"}, format="json"), "patch", team_path, 200)["captain"] == "ref"
    assert fields(check(org.patch(url, {"captain": "nobody"}, format="json"), "patch", team_path, 400)) == ["captain"]
    check(anon.patch(url, {"captain": None}, format="json"), "patch", team_path, 401)
    check(ref.patch(url, {"captain": None}, format="json"), "patch", team_path, 403)
    check(org.patch(f"{API}events/league/teams/999999/", {"captain": None}, format="json"), "patch", team_path, 404)

    lineups, lineup_url = "/api/v1/events/{slug}/rounds/{number}/lineups", f"{API}events/league/rounds/1/lineups"
    check(anon.get(f"{API}events/league/rounds/9/lineups"), "get", lineups, 404)
    members = {t.pk: list(t.members.order_by("player_id").values_list("player_id", flat=True)) for t in teams}
    body = {}
    for team in teams:  # the referee names team 0's player as its captain, the organiser the others
        writer = ref if team == teams[0] else org
        body = check(
            writer.put(lineup_url, {"team": team.pk, "player": members[team.pk][0]}, format="json"), "put", lineups, 200
        )
    assert all(table["game"] for table in body["tables"])
    assert check(anon.get(lineup_url), "get", lineups, 200)["named"][str(teams[1].pk)]["name"] == "Team 1 A"
    other = {"team": teams[1].pk, "player": members[teams[0].pk][1]}
    assert fields(check(org.put(lineup_url, other, format="json"), "put", lineups, 400)) == ["player"]
    check(anon.put(lineup_url, other, format="json"), "put", lineups, 401)
    check(ref.put(lineup_url, other, format="json"), "put", lineups, 403)
    check(org.put(f"{API}events/league/rounds/9/lineups", other, format="json"), "put", lineups, 404)
    _finish(org, body["tables"][0]["game"], [40000, 30000, 20000, 10000])
    seat = body["tables"][0]["seats"][0]["team"]["id"]
    check(org.put(lineup_url, {"team": seat, "player": members[seat][1]}, format="json"), "put", lineups, 409)


def test_player_merge(check: Check, organiser: User, stranger: User):
    """Two records of one person in two events the organiser runs: merged, refused twice, undone."""
    spring, autumn = (EventFactory.create(organisers=[organiser]) for _ in range(2))
    ann, again = registered(spring, "Ann")[0], registered(autumn, "Ann L.")[0]
    path, url = "/api/v1/players/{player_id}/merge", f"{API}players/{again.pk}/merge"
    org = client_for(organiser)
    assert check(org.post(url, {"into": ann.pk}, format="json"), "post", path, 201)["records"] == [ann.pk, again.pk]
    check(org.post(url, {"into": ann.pk}, format="json"), "post", path, 409)
    assert fields(check(org.post(url, {"into": "Ann"}, format="json"), "post", path, 400)) == ["into"]
    check(client_for(None).post(url, {"into": ann.pk}, format="json"), "post", path, 401)
    check(client_for(stranger).post(url, {"into": ann.pk}, format="json"), "post", path, 403)
    check(org.post(f"{API}players/999999/merge", {"into": ann.pk}, format="json"), "post", path, 404)
    check(client_for(None).delete(url), "delete", path, 401)
    check(client_for(stranger).delete(url), "delete", path, 403)
    check(org.delete(f"{API}players/999999/merge"), "delete", path, 404)
    assert check(org.delete(url), "delete", path, 200)["undone_at"] is not None
    check(org.delete(url), "delete", path, 409)


RESULTS_CSV = (
    "event_id,event_name,date,days,players,countries,weight,federation_id,name,country,place\n"
    "E1,Open,2025-01-11,2,50,7,,01,Ann,DK,1\nE1,Open,2025-01-11,2,50,7,,02,Bo,NL,50\n"
    "E2,Cup,2025-01-18,1,20,2,2.5,01,Ann,DK,20\nE2,Cup,2025-01-18,1,20,2,2.5,02,Bo,NL,1\n"
)


def test_rankings(check: Check, organiser: User, django_capture_on_commit_callbacks: Any):
    """The EMA ranking from imported results, a private league's rating, and the refusals naming their field."""
    from scoring.services.ranking_import import results_import

    with django_capture_on_commit_callbacks(execute=True):
        results_import(RESULTS_CSV)
    league = EventFactory.create(
        slug="club-nights", kind="league", rating="tenhou", public=False, organisers=[organiser]
    )
    seats = [p.pk for p in registered(league, "A", "B", "C", "D")]
    anonymous, org = client_for(None), client_for(organiser)
    for scores in ([40000, 30000, 20000, 10000], [10000, 20000, 30000, 40000]):
        with django_capture_on_commit_callbacks(execute=True):  # the standings, then the rating, follow the game
            game = org.post(f"{API}games/", {"event": "club-nights", "players": seats}, format="json").json()
            _finish(org, game["id"], scores)
    listed, one = "/api/v1/rankings/", "/api/v1/rankings/{key}/"
    assert [r["key"] for r in check(anonymous.get(listed), "get", listed, 200)["results"]] == ["ema", "ema-mcr"]
    assert [r["key"] for r in check(org.get(listed), "get", listed, 200)["results"]] == [
        "ema",
        "ema-mcr",
        "club-nights",
    ]
    body = check(anonymous.get(f"{API}rankings/ema/?as_of=2025-01-22"), "get", one, 200)
    assert (body["week"], body["previous_week"], body["count"]) == ("2025-01-20", "2025-01-13", 2)
    ann = body["results"][0]
    assert (ann["player"], ann["score"], ann["previous_rank"]) == (
        {"id": None, "name": "Ann", "federation_id": "01", "country": "DK"},
        "376.47",
        None,
    )
    assert [(r["event"], r["weight"], r["time_factor"]) for r in ann["counted"]] == [
        ("import:E1", 3.0, 1.0),
        ("import:E2", 2.5, 1.0),
    ]
    assert [c["country"] for c in body["countries"]] == ["DK", "NL"]
    rated = check(org.get(f"{API}rankings/club-nights/"), "get", one, 200)
    assert [(r["games"], len(r["history"])) for r in rated["results"]] == [(2, 2)] * 4
    assert rated["results"][0]["counted"] == []
    for query in ("as_of=2025-1-22", "as_of=1999-01-01", "as_of=2999-01-01"):
        assert fields(check(anonymous.get(f"{API}rankings/ema/?{query}"), "get", one, 400)) == ["as_of"]
    assert fields(check(anonymous.get(f"{API}rankings/nope/"), "get", one, 404)) == ["key"]
    assert fields(check(anonymous.get(f"{API}rankings/club-nights/"), "get", one, 404)) == ["key"]


def test_statistics_and_leaderboards(check: Check, organiser: User):
    """A player's statistics (with a yakuman to link) and the event's leaderboards; a private event's player is
    not found by a stranger, and a filter or option that is not one is refused by name."""
    event = EventFactory.create(slug="stats-cup", organisers=[organiser])
    ann, bo, cy, di = registered(event, "Ann", "Bo", "Cy", "Di")
    played(
        event,
        [ann, bo, cy, di],
        [
            {"result": "tsumo", "winner": ann.pk, "yakuman": 1},
            {"result": "ron", "winner": bo.pk, "loser": cy.pk, "han": 2, "fu": 30},
        ],
        end=True,
    )
    hidden = EventFactory.create(slug="closed", public=False, organisers=[organiser])
    [loner] = registered(hidden, "Loner")
    anon, path = client_for(None), "/api/v1/players/{player_id}/stats/"
    body = check(anon.get(f"{API}players/{ann.pk}/stats/?event=stats-cup&ruleset=riichi"), "get", path, 200)
    assert (body["games"], body["hands"], body["wins"], body["yakuman_hands"][0]["hand"]) == (1, 2, 1, 1)
    assert body["yakuman_hands"][0]["url"].endswith("#hand-1")
    assert fields(check(anon.get(f"{API}players/{ann.pk}/stats/?from=yesterday&platform=moon"), "get", path, 400)) == [
        "from",
        "platform",
    ]
    check(anon.get(f"{API}players/{loner.pk}/stats/"), "get", path, 404)
    assert check(client_for(organiser).get(f"{API}players/{loner.pk}/stats/"), "get", path, 200)["games"] == 0

    boards = "/api/v1/events/{slug}/leaderboards/"
    body = check(anon.get(f"{API}events/stats-cup/leaderboards/?min_hands=2"), "get", boards, 200)
    assert [line["player"]["name"] for line in body["most_wins"]] == ["Ann", "Bo", "Cy", "Di"]
    assert fields(check(anon.get(f"{API}events/stats-cup/leaderboards/?limit=-1"), "get", boards, 400)) == ["limit"]
    check(anon.get(f"{API}events/closed/leaderboards/"), "get", boards, 404)


def test_every_declared_response_is_exercised(
    openapi: dict[str, Any], exercised: set[tuple[str, str, int]], request: pytest.FixtureRequest
):
    """Last in the module: every status every API operation declares was checked above."""
    module = sys.modules[__name__]
    defined = {name for name in dir(module) if name.startswith("test_")}
    ran = {item.name for item in request.session.items if item.module is module}  # type: ignore[attr-defined]
    if ran != defined or request.session.testsfailed:
        pytest.skip("needs every test of this module, passing")
    declared = {
        (method, path, int(status))
        for path, operations in openapi["paths"].items()
        if path.startswith(API)
        for method, operation in operations.items()
        if method != "parameters"
        for status in operation["responses"]
    }
    assert sorted(declared - exercised) == []


def test_the_hand_bodies_are_derived_from_the_hand_record(openapi: dict[str, Any]):
    schemas = openapi["components"]["schemas"]
    assert set(schemas["HandRecord"]["properties"]) == {f.name for f in hand_fields()}
    assert set(schemas["Hand"]["properties"]) == {"index"} | {f.name for f in hand_fields()}
    assert set(schemas["WinRecord"]["properties"]) == {f.name for f in win_fields()}
    assert schemas["HandRecord"]["properties"]["fu"]["maximum"] == 110
