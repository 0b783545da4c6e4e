"""The typed options: ruleset choices, hand outcomes, abort and payment reasons, limits as StrEnums.

Their values are the strings the JSON output and the callers outside rules/
use, so each table below pins them; a member compares equal to its string.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from enum import StrEnum
from typing import Any

import pytest

from rules import options
from rules.game import play_hand
from rules.hand_value import hand_value
from rules.hands import ABORT_REASONS, Abort, AbortReason, Draw, Limit, Outcome, PaymentReason, Ron, Tsumo, Win
from rules.parameters import ParamKind
from rules.presets import get_preset, preset_keys
from rules.ruleset import PARAMETERS, Ruleset
from rules.state import start_state

CHOICES: dict[str, tuple[type[StrEnum], tuple[str, ...]]] = {
    "scoring": (options.Scoring, ("riichi", "mcr", "solo")),
    "ties": (options.Ties, ("split", "seat_order")),
    "deposits_at_end": (options.DepositsAtEnd, ("first_place", "lost")),
    "multiple_ron": (
        options.MultipleRon,
        (
            "head_bump",
            "head_bump_yakuman_exception",
            "double_head_bump_triple_abort",
            "all",
            "double_only_triple_abort",
        ),
    ),
    "multiple_ron_honba": (options.MultipleRonHonba, ("each_winner", "first_winner")),
    "multiple_ron_deposits": (options.MultipleRonDeposits, ("own_back_rest_first", "first_winner")),
    "renchan": (options.Renchan, ("tenpai", "win", "none")),
    "dealer_multiple_ron_renchan": (options.DealerMultipleRonRenchan, ("always", "if_first", "never")),
    "extension": (options.Extension, ("none", "until_goal")),
    "abortive_draw_rules": (options.AbortiveDrawRules, ("usual", "rule_0")),
    "chombo_payment": (options.ChomboPayment, ("none", "reverse_mangan", "flat")),
    "tsumo_payment": (options.TsumoPayment, ("standard", "equal_shares", "five_player_rule_2")),
    "seat_rotation": (options.SeatRotation, ("none", "mcr")),
    "solo_ranking": (options.SoloRanking, ("best_attempt", "sum_of_attempts")),
    "final_rounding": (options.FinalRounding, ("exact", "nearest_thousand")),
    "pao_scope": (options.PaoScope, ("fed_yakuman", "whole_hand")),
}


def test_every_choice_parameter_has_an_enum():
    choices = {name for name, spec in PARAMETERS.items() if spec.kind == ParamKind.CHOICE}
    assert choices == set(CHOICES)


@pytest.mark.parametrize(("name", "enum", "values"), [(name, *entry) for name, entry in CHOICES.items()])
def test_choices_come_from_the_enum(name, enum, values):
    spec = PARAMETERS[name]
    assert spec.options is enum
    assert spec.choices == values
    assert spec.json_schema()["enum"] == list(values)
    default = Ruleset.__dataclass_fields__[name].default
    assert type(default) is enum


# What some choices need besides themselves to make a consistent ruleset.
NEEDS: dict[tuple[str, str], dict[str, Any]] = {
    ("tsumo_payment", "five_player_rule_2"): {"players": 5, "uma": []},
    ("seat_rotation", "mcr"): {"scoring": "mcr", "riichi_deposit": 0},
    ("chombo_payment", "flat"): {"chombo_flat_amount": 1000},
    ("scoring", "solo"): {"players": 1, "uma": [], "round_winds": 1},
    ("solo_ranking", "best_attempt"): {"scoring": "solo", "players": 1, "uma": [], "round_winds": 1},
    ("solo_ranking", "sum_of_attempts"): {
        "scoring": "solo",
        "players": 1,
        "uma": [],
        "round_winds": 1,
        "solo_attempts": 3,
    },
}


@pytest.mark.parametrize(
    ("name", "enum", "value"), [(name, enum, value) for name, (enum, values) in CHOICES.items() for value in values]
)
def test_an_override_string_parses_to_the_member(name, enum, value):
    ruleset = Ruleset.build(overrides={name: value, **NEEDS.get((name, value), {})})
    parsed = getattr(ruleset, name)
    assert parsed is enum(value)
    assert parsed == value
    assert ruleset.as_dict()[name] == value


@pytest.mark.parametrize("key", preset_keys())
def test_as_dict_holds_plain_strings(key):
    params = get_preset(key).as_dict()
    for name in CHOICES:
        assert type(params[name]) is str
    assert json.loads(json.dumps(params)) == params


def test_settlement_kinds_and_reasons_are_the_strings_callers_compare():
    ruleset = Ruleset.build(overrides={"abortive_draws": True})
    state = start_state(ruleset=ruleset, honba=1, deposits=1)
    ron = play_hand(
        ruleset=ruleset, state=state, result=Ron(loser=1, wins=(Win(winner=0, han=3, fu=30),), riichi=frozenset({2}))
    )
    assert ron.settlement.kind == "ron"
    assert type(ron.settlement.kind) is Outcome
    assert [p.reason for p in ron.settlement.payments] == ["riichi", "hand", "honba", "deposits"]
    assert all(type(p.reason) is PaymentReason for p in ron.settlement.payments)
    draw = play_hand(ruleset=ruleset, state=state, result=Draw(tenpai=frozenset({0})))
    assert (draw.settlement.kind, draw.settlement.payments[0].reason) == ("draw", "noten")
    abort = play_hand(ruleset=ruleset, state=state, result=Abort(reason="four_winds"))
    assert (abort.settlement.kind, abort.settlement.abortive) == ("abort", "four_winds")
    tsumo = play_hand(ruleset=ruleset, state=state, result=Tsumo(win=Win(winner=2, han=6)))
    assert (tsumo.settlement.kind, tsumo.settlement.wins[0].limit) == ("tsumo", "haneman")


def test_enum_values():
    assert [o.value for o in Outcome] == ["ron", "tsumo", "draw", "abort", "chombo", "tenpai", "noten"]
    assert ABORT_REASONS == ("nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron", "all_others_ron")
    assert tuple(AbortReason) == ABORT_REASONS
    assert all(type(reason) is str for reason in ABORT_REASONS)
    assert [r.value for r in PaymentReason] == [
        "hand",
        "honba",
        "pao",
        "riichi",
        "deposits",
        "noten",
        "nagashi",
        "chombo",
        "false_win",
    ]
    assert [limit.value for limit in Limit] == ["mangan", "haneman", "baiman", "sanbaiman", "yakuman", "kazoe yakuman"]


@pytest.mark.parametrize(
    ("han", "yakuman", "limit"),
    [
        (5, 0, "mangan"),
        (7, 0, "haneman"),
        (10, 0, "baiman"),
        (12, 0, "sanbaiman"),
        (13, 0, "kazoe yakuman"),
        (0, 1, "yakuman"),
        (0, 2, "2x yakuman"),
    ],
)
def test_limit_names(han, yakuman, limit):
    value = hand_value(ruleset=Ruleset(), han=han, yakuman=yakuman)
    assert value.limit == limit
    assert str(value.limit) == limit


def test_a_ruleset_is_still_equal_and_hashable():
    assert Ruleset.build(overrides={"ties": "seat_order"}) == dataclasses.replace(
        Ruleset(), ties=options.Ties.SEAT_ORDER
    )
    assert hash(Ruleset()) == hash(Ruleset.build())


# Every name code outside rules/ imports, from the module it imports it from.
PUBLIC = {
    "rules.ruleset": ("Ruleset", "PARAMETERS", "number_json", "UmaByPlusCount", "SEAT_WINDS", "WINDS"),
    "rules.settle": ("check_hand", "settle"),
    "rules.seating": (
        "Seating",
        "Table",
        "count_repeats",
        "random_seating",
        "swiss_seating",
        "schedule_from_csv",
        "wind_counts",
    ),
    "rules.hands": (
        "Abort",
        "Chombo",
        "Draw",
        "HandResult",
        "Ron",
        "Tsumo",
        "Win",
        "WinOutcome",
        "Settlement",
        "ABORT_REASONS",
    ),
    "rules.errors": ("Problem", "Refusal"),
    "rules.presets": ("build_ruleset", "get_preset", "preset_doc", "preset_keys"),
    "rules.final": ("FinalRow", "final_results"),
    "rules.game": ("GameRecord", "HandRecord", "ValueTiles", "play_game"),
    "rules.state": ("GameState", "start_state"),
}


@pytest.mark.parametrize(("module", "name"), [(module, name) for module, names in PUBLIC.items() for name in names])
def test_public_names_stay_where_callers_import_them(module, name):
    assert hasattr(importlib.import_module(module), name)
