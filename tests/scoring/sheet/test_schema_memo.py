"""The schema check that remembers the hand shapes it passed answers exactly as the whole check does."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from scoring.sheet import schema_memo
from scoring.sheet.schema import BY_ID, BY_NAME, schema_problems, score_sheet_schema
from scoring.sheet.schema_memo import sheet_problems

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
RON = {"result": "ron", "loser": "Bo", "winner": "Ann", "han": 3, "fu": 30, "riichi": ["Ann"]}
SHEET = {"ruleset": "tenhou", "players": PLAYERS, "hands": [RON, {"result": "draw", "tenpai": ["Cy", "Di"]}]}


def _renamed(sheet: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The same sheet with other names: the same hand shapes."""
    text = json.dumps(sheet)
    for old, new in zip(PLAYERS, names, strict=True):
        text = text.replace(json.dumps(old), json.dumps(new))
    renamed: dict[str, Any] = json.loads(text)
    return renamed


@pytest.fixture(autouse=True)
def _forget():
    schema_memo._passed.clear()
    yield
    schema_memo._passed.clear()


def test_a_shape_is_checked_once_whatever_the_players_names():
    assert sheet_problems(SHEET, players=BY_NAME) == []
    remembered = set(schema_memo._passed)
    assert len(remembered) == 2
    assert sheet_problems(_renamed(SHEET, ["Eve", "Fa", "Gu", "Ho"]), players=BY_NAME) == []
    assert schema_memo._passed == remembered


@pytest.mark.parametrize(
    "change",
    [
        lambda s: s["hands"][0].update(han=-1),  # a value the shape holds
        lambda s: s["hands"][0].update(riichi=["Ann", "Ann"]),  # the same player twice
        lambda s: s["hands"][1].update(tenpai=["#0", "Ann"]),  # a name that is a stand-in: checked whole, valid
        lambda s: s["hands"][1].update(tenpai=["#0", "#0"]),
        lambda s: s["hands"][0].update(winner=""),  # not a player: kept as it is
        lambda s: s["hands"][0].update(winner=1),
        lambda s: s["hands"][0].update(note="Ann" * 200),
        lambda s: s["players"].__setitem__(0, ""),  # a bad name, in the hands as a stand-in: the header refuses it
        lambda s: s["players"].__setitem__(1, "Ann"),
        lambda s: s["players"].__setitem__(2, "x" * 101),
        lambda s: s.update(hands=s["hands"] * 151),  # past the hands' maximum, each hand a remembered shape
        lambda s: s.update(hands=[*s["hands"], "ron"]),
        lambda s: s.update(hands=(RON,)),  # a tuple is not a JSON list
        lambda s: s["hands"].__setitem__(0, {**RON, "han": 3.0}),
        lambda s: s.update(end="clock"),
    ],
)
def test_a_changed_sheet_gets_the_whole_checks_answer(change):
    sheet_problems(SHEET, players=BY_NAME)  # every shape of the sheet remembered as passed
    changed = copy.deepcopy(SHEET)
    change(changed)
    assert sheet_problems(changed, players=BY_NAME) == schema_problems(changed, players=BY_NAME)


def test_sheets_by_id_are_checked_whole(monkeypatch):
    calls: list[str] = []

    def whole(data, *, players):
        calls.append(players)
        return []

    monkeypatch.setattr(schema_memo, "schema_problems", whole)
    sheet_problems({**SHEET, "players": [1, 2, 3, 4], "hands": []}, players=BY_ID)
    assert calls == [BY_ID]


def test_the_sheet_is_its_header_and_its_hands():
    """What makes checking the header without its hands, then each hand, the whole check: no keyword of the
    sheet's object relates one of its properties to another (a new one must be weighed in schema_memo)."""
    schema = score_sheet_schema(BY_NAME)
    kept = {"$schema", "$id", "title", "description", "type", "additionalProperties", "required", "properties"}
    assert set(schema) == kept | {"$defs"}
    assert schema["properties"]["hands"] == {"type": "array", "items": {"$ref": "#/$defs/hand"}, "maxItems": 300}
