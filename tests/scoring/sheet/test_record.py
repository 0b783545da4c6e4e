"""The hand record is declared once (scoring.sheet.record); the schema, the reader, the form and the API follow it."""

from __future__ import annotations

import pytest

from rules.errors import Refusal
from rules.hands import Outcome
from rules.presets import get_preset
from scoring.sheet.reader import score_sheet
from scoring.sheet.record import HandRecord, Model, allowed_fields, hand_fields, map_players, win_fields
from scoring.sheet.schema import score_sheet_schema

HAND = {f.name for f in hand_fields()}
WIN = {f.name for f in win_fields()}


def test_the_schema_lists_exactly_the_records_fields():
    defs = score_sheet_schema()["$defs"]
    assert set(defs["hand"]["properties"]) == HAND
    assert set(defs["win"]["properties"]) == WIN
    required = {rule["if"]["properties"]["result"]["const"]: rule["then"]["required"] for rule in defs["hand"]["allOf"]}
    assert required == {"ron": ["loser"], "tsumo": ["winner"], "chombo": ["player"], "tenpai": ["draws"]}


def test_a_stored_game_names_players_by_id_in_the_same_schema():
    defs = score_sheet_schema("id")["$defs"]
    assert defs["hand"]["properties"]["winner"]["type"] == "integer"
    assert defs["hand"]["properties"]["riichi"]["items"]["type"] == "integer"
    assert set(defs["hand"]["properties"]) == HAND


@pytest.mark.parametrize(
    ("result", "allowed"),
    [
        (
            "ron",
            {
                "winner",
                "loser",
                "han",
                "fu",
                "yakuman",
                "fan",
                "flowers",
                "pao",
                "tiles",
                "wins",
                "riichi",
                "false_wins",
                "false_wins_live",
                "note",
                "result",
            },
        ),
        (
            "tsumo",
            {
                "winner",
                "han",
                "fu",
                "yakuman",
                "fan",
                "flowers",
                "pao",
                "tiles",
                "riichi",
                "false_wins",
                "false_wins_live",
                "note",
                "result",
            },
        ),
        ("draw", {"tenpai", "nagashi", "riichi", "false_wins", "note", "result"}),
        ("abort", {"reason", "riichi", "note", "result"}),
        ("chombo", {"player", "riichi", "note", "result"}),
    ],
)
def test_each_result_takes_its_fields(result: str, allowed: set[str]):
    assert allowed_fields()[Outcome(result)] == allowed


def test_the_reader_refuses_a_field_of_another_result_with_its_owners():
    sheet = {
        "ruleset": "wrc-2025",
        "players": ["A", "B", "C", "D"],
        "hands": [{"result": "draw", "tenpai": [], "loser": "B"}],
    }
    with pytest.raises(Refusal) as refused:
        score_sheet(sheet)
    assert [str(p) for p in refused.value.problems] == ["hands[0].loser: a draw has no loser (that belongs to a ron)"]


def test_every_field_has_a_model_and_the_models_split_the_value_fields():
    riichi = {f.name for f in hand_fields() if f.spec.model is Model.RIICHI}
    mcr = {f.name for f in hand_fields() if f.spec.model is Model.MCR}
    assert {"han", "fu", "yakuman", "pao", "riichi", "tenpai", "nagashi", "reason", "player"} == riichi
    assert {"fan", "flowers", "false_wins", "false_wins_live"} == mcr
    assert get_preset("mcr").is_mcr  # the entry form offers a game the fields of its model (tests/web)


def test_map_players_reaches_every_player_field():
    record: HandRecord = {
        "result": "ron",
        "loser": "B",
        "riichi": ["A", "C"],
        "wins": [{"winner": "A", "han": 1, "fu": 30}, {"winner": "C", "yakuman": 1, "pao": "D"}],
    }
    assert map_players(record, str.lower) == {
        "result": "ron",
        "loser": "b",
        "riichi": ["a", "c"],
        "wins": [{"winner": "a", "han": 1, "fu": 30}, {"winner": "c", "yakuman": 1, "pao": "d"}],
    }
