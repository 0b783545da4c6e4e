"""Bad request bodies, one per row: each gets a 4xx in the common error shape naming the field, and writes nothing.

The rows are the inputs that once reached the database or the code as a 500 (issue 11) and the bounds of the
docs/bounds.md: JSON that nests too deep, lone surrogates and NUL characters, numbers JSON or the database
cannot hold, values beyond what a game reaches, names longer than their columns.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from api.serializers.games import HandRecordSerializer
from rules.presets import build_ruleset
from scoring.sheet.record import FAN_MAXIMUM, FLOWERS_MAXIMUM, HAN_MAXIMUM, NOTE_LENGTH, YAKUMAN_MAXIMUM
from scoring.sheet.schema import score_sheet_schema
from tests.conftest import client_for
from tests.factories import EventFactory, RoundFactory, played, registered
from tests.written import snapshot
from web.forms import HandForm

pytestmark = pytest.mark.django_db

HANDS, SHEET, MCR_HANDS = "/api/v1/games/{game}/hands/", "/api/v1/games/{game}/sheet", "/api/v1/games/{mcr}/hands/"
EVENTS, PLAYERS = "/api/v1/events/", "/api/v1/events/bad/players/"
WIN = '{"result": "tsumo", "winner": {a}, {value}}'  # a riichi tsumo by the game's first player
MCR_WIN = '{"result": "tsumo", "winner": {m}, {value}}'
SCHEDULE = "round,table,east,south,west,north\n"
WHOLE = None  # the body as a whole is refused: no field to name (errors is empty)


def body(value: Any) -> str:
    return json.dumps(value)


def win(value: str) -> str:
    return WIN.replace("{value}", value)


ROWS: list[tuple[str, str, str, str | bytes | None, int, list[str] | None]] = [
    # The JSON itself.
    ("nested 5000 levels", "POST", HANDS, "[" * 5000 + "]" * 5000, 400, WHOLE),
    ("nested 21 levels", "POST", HANDS, '{"result": "draw", "note": ' + "[" * 20 + "]" * 20 + "}", 400, WHOLE),
    ("a lone surrogate in a value", "POST", HANDS, '{"result": "draw", "note": "\\ud800"}', 400, ["note"]),
    (
        "a lone surrogate in a nested key",
        "POST",
        HANDS,
        '{"result": "ron", "loser": {b}, "wins": [{"\\udfff": 1}]}',
        400,
        ["wins[0]"],
    ),
    ("a lone surrogate in a key", "POST", HANDS, '{"result": "draw", "\\ud800": 1}', 400, WHOLE),
    ("a surrogate written as UTF-8 bytes", "POST", HANDS, b'{"result": "draw", "note": "\xed\xa0\x80"}', 400, WHOLE),
    ("not UTF-8", "POST", HANDS, b"\xff\xfe{}", 400, WHOLE),
    ("a NUL in a note", "POST", HANDS, '{"result": "draw", "note": "a\\u0000b"}', 400, ["note"]),
    ("NaN", "POST", HANDS, win('"han": NaN, "fu": 30'), 400, ["han"]),
    ("Infinity", "POST", HANDS, win('"han": 1, "fu": Infinity'), 400, ["fu"]),
    ("-Infinity", "PUT", SHEET, '{"start": {"scores": [-Infinity, 0, 0, 0]}}', 400, ["start.scores[0]"]),
    ("a float beyond a float", "POST", HANDS, win('"han": 1e400, "fu": 30'), 400, ["han"]),
    ("a 5,000-digit number", "POST", HANDS, win(f'"han": {"9" * 5000}, "fu": 30'), 400, ["han"]),
    ("an integer beyond 2**53", "POST", HANDS, win('"han": 100000000000000000000, "fu": 30'), 400, ["han"]),
    ("a body over 2 MB", "POST", HANDS, body({"result": "draw", "note": "x" * (2 * 1024 * 1024)}), 413, WHOLE),
    # The hand record's bounds (scoring.sheet.record).
    ("han 100", "POST", HANDS, win('"han": 100, "fu": 30'), 400, ["han"]),
    ("yakuman 7", "POST", HANDS, win('"yakuman": 7'), 400, ["yakuman"]),
    ("yakuman 10**9", "POST", HANDS, win('"yakuman": 1000000000'), 400, ["yakuman"]),
    ("MCR fan 1001", "POST", MCR_HANDS, MCR_WIN.replace("{value}", '"fan": 1001'), 400, ["fan"]),
    ("MCR flowers 9", "POST", MCR_HANDS, MCR_WIN.replace("{value}", '"fan": 8, "flowers": 9'), 400, ["flowers"]),
    (
        "MCR flowers 9 in tiles",
        "POST",
        MCR_HANDS,
        MCR_WIN.replace("{value}", '"tiles": {"concealed": "123m", "win": "1m", "flowers": 9}'),
        400,
        ["tiles.flowers"],
    ),
    ("a note of 501 characters", "POST", HANDS, body({"result": "draw", "note": "x" * 501}), 400, ["note"]),
    ("a note with a line break", "POST", HANDS, '{"result": "draw", "note": "a\\nb"}', 400, ["note"]),
    (
        "a tile string of 65 characters",
        "POST",
        HANDS,
        win(f'"tiles": {{"concealed": "{"1" * 64}m", "win": "1m"}}'),
        400,
        ["tiles.concealed"],
    ),
    # A whole sheet.
    ("a start that is no object", "PUT", SHEET, '{"start": 5}', 400, ["start"]),
    ("hands that are no objects", "PUT", SHEET, '{"hands": [5, "x"]}', 400, ["hands[0]", "hands[1]"]),
    ("a sheet that is no object", "PUT", SHEET, "[]", 400, [""]),
    (
        "a start score beyond 10,000,000",
        "PUT",
        SHEET,
        '{"start": {"scores": [10000001, 0, 0, 0]}}',
        400,
        ["start.scores[0]"],
    ),
    ("honba 101", "PUT", SHEET, '{"start": {"honba": 101}}', 400, ["start.honba"]),
    ("deposits 101", "PUT", SHEET, '{"start": {"deposits": 101}}', 400, ["start.deposits"]),
    ("301 hands", "PUT", SHEET, body({"hands": [{"result": "draw"}] * 301}), 400, ["hands"]),
    # Rulesets (rules.parameters).
    (
        "start_points 10**12",
        "POST",
        EVENTS,
        body({"name": "Big", "overrides": {"start_points": 10**12, "return_points": 10**12}}),
        400,
        ["overrides.start_points", "overrides.return_points"],
    ),
    (
        "a number written as text",
        "POST",
        EVENTS,
        body({"name": "Big", "overrides": {"chombo_penalty": "1e999999999"}}),
        400,
        ["overrides.chombo_penalty"],
    ),
    (
        "uma beyond 1000",
        "POST",
        EVENTS,
        body({"name": "Big", "overrides": {"uma": [10**6, 0, 0, -(10**6)]}}),
        400,
        ["overrides.uma"],
    ),
    (
        "honba_points 1001",
        "POST",
        EVENTS,
        body({"name": "Big", "overrides": {"honba_points": 1001}}),
        400,
        ["overrides.honba_points"],
    ),
    # Names and other writes.
    (
        "an event that ends before it starts",
        "PATCH",
        "/api/v1/events/bad/",
        body({"starts_on": "2025-05-02", "ends_on": "2025-05-01"}),
        400,
        ["ends_on"],
    ),
    ("a team name of 101 characters", "POST", PLAYERS, body({"name": "Ed", "team": "t" * 101}), 400, ["team"]),
    ("a player name with NUL", "POST", PLAYERS, '{"name": "E\\u0000d"}', 400, ["name"]),
    ("a player name of 101 characters", "POST", PLAYERS, body({"name": "E" * 101}), 400, ["name"]),
    ("a player name with an escape sequence", "POST", PLAYERS, '{"name": "\\u001b[31mEd"}', 400, ["name"]),
    (
        "a player id beyond any row",
        "POST",
        "/api/v1/games/",
        body({"event": "bad", "players": ["100000000000000000000", 1, 2, 3]}),
        400,
        ["players[0]"],
    ),
    (
        "a round time limit of years",
        "POST",
        "/api/v1/events/bad/rounds/",
        body({"time_limit_minutes": 10**6}),
        400,
        ["time_limit_minutes"],
    ),
    (
        "a round at the end of the calendar",
        "POST",
        "/api/v1/events/bad/rounds/",
        body({"starts_at": "9999-12-31T23:59:00Z", "time_limit_minutes": 60}),
        400,
        ["starts_at"],
    ),
    (
        "a CSV field over the csv module's limit",
        "POST",
        "/api/v1/events/bad/schedule",
        body({"csv": SCHEDULE + "1" * 200_000 + ",1,{a},{b},{c},{d}\n"}),
        400,
        ["line 2"],
    ),
    # Checking for missing tables 1 to 10**15 once filled the memory.
    (
        "a table number of 10**15",
        "POST",
        "/api/v1/events/bad/schedule",
        body({"csv": SCHEDULE + "1,1000000000000000,{a},{b},{c},{d}\n"}),
        400,
        ["line 2"],
    ),
    (
        "a schedule of 101 rounds",
        "POST",
        "/api/v1/events/bad/schedule",
        body({"csv": SCHEDULE + "101,1,{a},{b},{c},{d}\n"}),
        400,
        ["line 2"],
    ),
    ("an event slug with NUL", "GET", "/api/v1/games/?event=%00", None, 400, ["event"]),
]


@pytest.fixture
def setting(organiser: User) -> dict[str, Any]:
    """An organiser's riichi event with a game of one hand, and an MCR event with a game."""
    event = EventFactory.create(slug="bad", organisers=[organiser])
    players = registered(event, "Ann", "Bo", "Cy", "Di")
    RoundFactory.create(event=event, number=1)
    game = played(event, players, [{"result": "draw"}])
    mcr_event = EventFactory.create(slug="bad-mcr", ruleset_key="mcr", organisers=[organiser])
    mcr = played(mcr_event, registered(mcr_event, "Ed", "Flo", "Gus", "Hal"), [{"result": "draw"}])
    a, b, c, d = (p.pk for p in players)
    return {
        "game": game.pk,
        "mcr": mcr.pk,
        "a": a,
        "b": b,
        "c": c,
        "d": d,
        "m": mcr.seats.order_by("position")[0].player_id,
    }


def fill(text: str, values: dict[str, Any]) -> str:
    for key, value in values.items():
        text = text.replace(f"{{{key}}}", str(value))
    return text


@pytest.mark.parametrize(("what", "method", "path", "raw", "status", "fields"), ROWS, ids=[row[0] for row in ROWS])
def test_a_bad_body_is_refused_in_the_common_shape_and_writes_nothing(
    organiser: User,
    setting: dict[str, Any],
    what: str,
    method: str,
    path: str,
    raw: str | bytes | None,
    status: int,
    fields: list[str] | None,
):
    client: APIClient = client_for(organiser)
    before = snapshot()
    data = fill(raw, setting).encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    # Bytes as they are (some rows are no UTF-8); the stubs ask for text. Both games were written once: version 2.
    response = client.generic(
        method,
        fill(path, setting),
        data or b"",  # type: ignore[arg-type]
        content_type="application/json",
        headers={"If-Match": '"2"'},
    )
    answer = response.json()
    assert response.status_code == status, answer
    assert set(answer) == {"detail", "errors"}, answer
    assert isinstance(answer["detail"], str)
    assert answer["detail"]
    assert [e["field"] for e in answer["errors"]] == (fields if fields is not None else []), answer
    assert all(e["message"] for e in answer["errors"])
    assert snapshot() == before


def test_the_record_bounds_reach_the_schema_the_api_and_the_entry_form():
    """Declared once (scoring.sheet.record): the sheet's schema, the API's fields and the form's take them."""
    sheet = score_sheet_schema("id")["$defs"]["hand"]["properties"]
    api: dict[str, Any] = HandRecordSerializer().get_fields()
    riichi: dict[str, Any] = HandForm(seats=[], ruleset=build_ruleset(key="wrc-2025", overrides={})).fields
    mcr: dict[str, Any] = HandForm(seats=[], ruleset=build_ruleset(key="mcr", overrides={})).fields
    for name, value, form in (
        ("han", HAN_MAXIMUM, riichi),
        ("yakuman", YAKUMAN_MAXIMUM, riichi),
        ("fan", FAN_MAXIMUM, mcr),
        ("flowers", FLOWERS_MAXIMUM, mcr),
    ):
        assert (sheet[name]["maximum"], api[name].max_value, form[name].max_value) == (value, value, value), name
    assert (sheet["note"]["maxLength"], api["note"].max_length, riichi["note"].max_length) == (
        NOTE_LENGTH,
        NOTE_LENGTH,
        NOTE_LENGTH,
    )
