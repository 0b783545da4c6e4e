"""Ruleset parameters, their validation, and every preset's distinctive rules (docs/rules.md §8)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.errors import Refusal
from rules.presets import build_ruleset, get_preset, preset_doc, preset_keys
from rules.ruleset import PARAMETERS, Ruleset, UmaByPlusCount

RIICHI_PRESETS = (
    "wrc-2025",
    "ema-2016",
    "ema-2025",
    "jpml-a",
    "jpml-wrc",
    "saikouisen",
    "saikouisen-classic",
    "npm",
    "m-league",
    "tenhou",
    "mahjong-soul",
)


def test_every_riichi_preset_is_registered():
    assert set(RIICHI_PRESETS) <= set(preset_keys())


def test_every_dataclass_field_is_a_described_parameter():
    fields = set(Ruleset.__dataclass_fields__) - {"key"}
    assert fields == set(PARAMETERS)


@pytest.mark.parametrize("key", RIICHI_PRESETS)
def test_preset_docstring_names_its_source(key):
    doc = preset_doc(key)
    assert len(doc) > 40
    assert get_preset(key).as_dict()["key"] == key


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        (
            "wrc-2025",
            {
                "start_points": 30000,
                "return_points": 30000,
                "uma": [15, 5, -5, -15],
                "chombo_penalty": -30,
                "multiple_ron": "head_bump",
                "kiriage_mangan": True,
                "deposits_at_end": "first_place",
            },
        ),
        (
            "ema-2016",
            {
                "uma": [15, 5, -5, -15],
                "chombo_penalty": -20,
                "multiple_ron": "all",
                "multiple_ron_honba": "each_winner",
                "multiple_ron_deposits": "own_back_rest_first",
                "kiriage_mangan": False,
                "kazoe_yakuman": False,
                "deposits_at_end": "first_place",
            },
        ),
        ("ema-2025", {"multiple_ron": "all", "kiriage_mangan": True, "chombo_penalty": -20}),
        (
            "jpml-a",
            {
                "chombo_penalty": -20,
                "multiple_ron": "head_bump",
                "abortive_draws": True,
                "kiriage_mangan": False,
                "kazoe_yakuman": False,
                "multiple_yakuman": True,
                "deposits_at_end": "lost",
                "pao": True,
            },
        ),
        (
            "jpml-wrc",
            {
                "uma": [15, 5, -5, -15],
                "chombo_penalty": -30,
                "kiriage_mangan": True,
                "abortive_draws": True,
                "deposits_at_end": "lost",
            },
        ),
        (
            "saikouisen",
            {
                "uma": [30, 10, -10, -30],
                "kiriage_mangan": True,
                "multiple_yakuman": True,
                "kazoe_yakuman": False,
                "pao": False,
                "agari_yame": False,
                "abortive_draws": False,
            },
        ),
        (
            "saikouisen-classic",
            {
                "uma": [12, 4, -4, -12],
                "chombo_penalty": -16,
                "noten_payment_total": 0,
                "kiriage_mangan": False,
                "renchan": "win",
            },
        ),
        (
            "npm",
            {
                "start_points": 25000,
                "return_points": 30000,
                "uma": [30, 10, -10, -30],
                "chombo_penalty": -40,
                "chombo_payment": "none",
                "kiriage_mangan": True,
                "deposits_at_end": "lost",
                "pao": False,
            },
        ),
        (
            "m-league",
            {
                "start_points": 25000,
                "return_points": 30000,
                "uma": [30, 10, -10, -30],
                "kiriage_mangan": True,
                "pao": True,
            },
        ),
        (
            "tenhou",
            {
                "start_points": 25000,
                "return_points": 30000,
                "uma": [20, 10, -10, -20],
                "busting": True,
                "agari_yame": True,
                "extension": "until_goal",
                "goal_points": 30000,
                "kazoe_yakuman": True,
                "multiple_ron": "double_only_triple_abort",
                "multiple_ron_honba": "first_winner",
                "multiple_ron_deposits": "first_winner",
                "abortive_draws": True,
                "nagashi_mangan": True,
                "chombo_payment": "reverse_mangan",
                "chombo_penalty": 0,
                "ties": "seat_order",
                "final_rounding": "nearest_thousand",
            },
        ),
        (
            "mahjong-soul",
            {
                "start_points": 25000,
                "return_points": 25000,
                "uma": [15, 5, -5, -15],
                "busting": True,
                "agari_yame": True,
                "extension": "until_goal",
                "nagashi_mangan": True,
                "multiple_ron": "all",
                "ties": "seat_order",
                "chombo_payment": "reverse_mangan",
            },
        ),
    ],
)
def test_preset_values(key, expected):
    params = get_preset(key).as_dict()
    assert {name: params[name] for name in expected} == expected


@pytest.mark.parametrize("key", RIICHI_PRESETS)
def test_common_defaults(key):
    """docs/rules.md §8: honba 300, stick 1000, a hanchan, unless the row says otherwise."""
    params = get_preset(key).as_dict()
    assert (params["honba_points"], params["riichi_deposit"], params["round_winds"], params["players"]) == (
        300,
        1000,
        2,
        4,
    )


def test_jpml_uma_table():
    uma = get_preset("jpml-a").uma
    assert isinstance(uma, UmaByPlusCount)
    table = {count: [int(v) for v in uma.for_plus_count(count)] for count in range(5)}
    assert table == {1: [12, -1, -3, -8], 2: [8, 4, -4, -8], 3: [8, 3, 1, -12], 0: [8, 4, -4, -8], 4: [8, 4, -4, -8]}


def test_overrides_replace_preset_values():
    ruleset = build_ruleset(key="wrc-2025", overrides={"kiriage_mangan": False, "uma": [10, 5, -5, -10]})
    assert ruleset.kiriage_mangan is False
    assert ruleset.uma == tuple(Fraction(v) for v in (10, 5, -5, -10))
    assert ruleset.key == "wrc-2025"
    assert get_preset("wrc-2025").kiriage_mangan is True  # the preset itself is untouched


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"kiriage": True}, "kiriage", "unknown ruleset parameter"),
        ({"players": 13}, "players", "at most 12"),
        ({"players": "four"}, "players", "whole number"),
        ({"kiriage_mangan": "yes"}, "kiriage_mangan", "true or false"),
        ({"multiple_ron": "double"}, "multiple_ron", "must be one of"),
        ({"uma": [15, 5, -5]}, "uma", "needs 4 values"),
        ({"uma": {"by_plus_count": {"1": [1, 2, 3, 4]}}}, "uma", '"default"'),
        ({"uma": {"by_plus_count": {"x": [1, 2, 3, 4], "default": [0, 0, 0, 0]}}}, "uma", "not 'x'"),
        ({"chombo_penalty": 20}, "chombo_penalty", "negative"),
        ({"chombo_payment": "flat"}, "chombo_flat_amount", "above 0"),
        ({"dealer_bonus": False}, "tsumo_payment", "equal_shares"),
        ({"tsumo_payment": "five_player_rule_2"}, "tsumo_payment", "5 players"),
        ({"round_winds": 5}, "round_winds", "at most 4"),
        ({"start_points": 40000}, "return_points", "below start_points"),
        ({"seat_rotation": "mcr"}, "seat_rotation", "only MCR"),
        ({"table_points": [4, 2, 1]}, "table_points", "needs 4 values"),
        # Bounds where the rules give none (docs/bounds.md): 10**12 start points made every later game fail.
        ({"start_points": 10**12, "return_points": 10**12}, "start_points", "at most 10000000"),
        ({"honba_points": 1001}, "honba_points", "at most 1000"),
        ({"riichi_deposit": 10**6}, "riichi_deposit", "at most 10000"),
        ({"uma": [10**6, 0, 0, -(10**6)]}, "uma", "at most 1000"),
        ({"chombo_penalty": -1001}, "chombo_penalty", "at least -1000"),
        ({"chombo_penalty": "1e999999999"}, "chombo_penalty", "must be a number"),  # text: no billion-digit Fraction
        ({"uma": {"by_plus_count": {"²": [1, 2, 3, 4], "default": [0, 0, 0, 0]}}}, "uma", "not '²'"),
    ],
)
def test_invalid_parameters(overrides, field, message):
    with pytest.raises(Refusal) as caught:
        build_ruleset(key="wrc-2025", overrides=overrides)
    problem = caught.value.problems[0]
    assert problem.field.startswith(field)
    assert message in problem.message


def test_unknown_preset_lists_the_known_ones():
    with pytest.raises(Refusal, match="wrc-2025") as caught:
        get_preset("wrc-2099")
    assert caught.value.problems[0].field == "ruleset"


def test_as_dict_round_trips_through_build():
    for key in RIICHI_PRESETS:
        ruleset = get_preset(key)
        params = ruleset.as_dict()
        params.pop("key")
        assert Ruleset.build(overrides=params, key=key) == ruleset


@pytest.mark.parametrize(
    ("key", "overrides", "reasons"),
    [
        ("wrc-2025", {}, ()),  # no abortive draws; a triple ron is a ron (head bump)
        # Tenhou: abortive draws, and a triple ron aborts (double_only_triple_abort, seed 000 §3.5 option 4).
        ("tenhou", {}, ("nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron")),
        ("wrc-2025", {"abortive_draws": True}, ("nine_terminals", "four_winds", "four_riichi", "four_kans")),
        ("wrc-2025", {"multiple_ron": "double_head_bump_triple_abort"}, ("triple_ron",)),
    ],
)
def test_the_abortive_draws_a_hand_may_record(key, overrides, reasons):
    assert build_ruleset(key=key, overrides=overrides).abort_reasons == reasons
