"""The score sheet's JSON Schema is itself valid and agrees with the reader."""

from __future__ import annotations

from jsonschema import Draft202012Validator

from rules.ruleset import PARAMETERS
from scoring.sheet.schema import json_path, schema_problems, score_sheet_schema
from tests.scoring.sheet.test_score_sheet_command import EXAMPLE


def test_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(score_sheet_schema())


def test_example_sheet_is_valid():
    assert schema_problems(EXAMPLE) == []


def test_every_ruleset_parameter_can_be_overridden():
    assert set(score_sheet_schema()["properties"]["overrides"]["properties"]) == set(PARAMETERS)


def test_json_path():
    assert json_path(["hands", 3, "wins", 0, "fu"]) == "hands[3].wins[0].fu"
    assert json_path([]) == ""


def test_problems_are_in_document_order():
    sheet = {
        "ruleset": "wrc-2025",
        "players": ["A", "B", "C", "D"],
        "hands": [{"result": "tsumo"}] * 11 + [{"result": "x"}],
    }
    fields = [p.field for p in schema_problems(sheet)]
    assert fields[0] == "hands[0].winner"
    assert fields[-1] == "hands[11].result"
    assert fields.index("hands[2].winner") < fields.index("hands[10].winner")
