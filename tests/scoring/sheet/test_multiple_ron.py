"""Two rons on one discard under every preset: what the rules pay, and what the output and the words show.

docs/rules.md §3 and seed 000 §3.5: head bump (option 1) pays only the first player in turn after the discarder;
``all`` (option 3) and ``double_only_triple_abort`` (option 4) pay both. Every declaration the sheet gives is
kept in the output, and one that a head bump did not pay says so, naming who took the hand: nothing written
down is left unshown.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from rules.presets import build_ruleset, preset_keys
from scoring.sheet.describe import describe
from scoring.sheet.output import ResultHand, named, result_json
from scoring.sheet.reader import score_sheet

NAMES = ["Ann", "Bo", "Cy", "Di"]
# Bo deals in to Ann (the dealer, third in turn after Bo) and Cy (first in turn after Bo).
DOUBLE_RON = {
    "result": "ron",
    "loser": "Bo",
    "wins": [{"winner": "Ann", "han": 2, "fu": 30}, {"winner": "Cy", "han": 3, "fu": 40}],
}
# Cy's 3 han 40 fu is 5200 from Bo; Ann's dealer 2 han 30 fu 2900 more where both are paid.
HEAD_BUMP = (
    (0, -5200, 5200, 0),
    "Ron on Bo: Cy 3 han 40 fu; head bump: Cy, first after the discarder; not paid: Ann 2 han 30 fu",
)
BOTH = ((2900, -8100, 5200, 0), "Ron on Bo: Cy 3 han 40 fu, Ann 2 han 30 fu")

# Each four-player riichi preset, checked against docs/rules.md's table of presets.
PRESETS: list[tuple[str, str, tuple[tuple[int, ...], str]]] = [
    ("wrc-2025", "head_bump", HEAD_BUMP),
    ("ema-2016", "all", BOTH),
    ("ema-2025", "all", BOTH),
    ("jpml-a", "head_bump", HEAD_BUMP),
    ("jpml-wrc", "head_bump", HEAD_BUMP),
    ("saikouisen", "head_bump", HEAD_BUMP),
    ("saikouisen-classic", "head_bump", HEAD_BUMP),
    ("npm", "head_bump", HEAD_BUMP),
    ("m-league", "head_bump", HEAD_BUMP),
    ("tenhou", "double_only_triple_abort", BOTH),
    ("mahjong-soul", "all", BOTH),
]


def scored(
    ruleset: str, record: dict[str, Any], overrides: dict[str, Any] | None = None, names: list[str] = NAMES
) -> ResultHand:
    sheet = score_sheet({"ruleset": ruleset, "overrides": overrides or {}, "players": names, "hands": [record]})
    return result_json(sheet)["hands"][0]


@pytest.mark.parametrize(("key", "option", "expected"), PRESETS)
def test_a_double_ron_under_each_preset(key: str, option: str, expected: tuple[tuple[int, ...], str]):
    deltas, text = expected
    ruleset = build_ruleset(key=key, overrides={})
    assert str(ruleset.multiple_ron) == option
    assert ruleset.pays_several_rons == (deltas[0] != 0)
    hand = scored(key, DOUBLE_RON)
    assert tuple(hand["deltas"]) == deltas
    assert describe(hand, NAMES) == text


def test_every_preset_is_in_the_table():
    four_riichi = {
        key
        for key in preset_keys()
        if build_ruleset(key=key, overrides={}).players == len(NAMES)
        and not build_ruleset(key=key, overrides={}).is_mcr
    }
    assert four_riichi == {key for key, _, _ in PRESETS}


@pytest.mark.parametrize(
    ("key", "pays_several"),
    [
        # Head bump at every other table size; two players have one opponent, who alone can ron.
        ("sanma", False),
        ("two-player", False),
        ("five-player-1", False),
        ("five-player-2", False),
        ("six-player", False),
        ("seven-player", False),
        ("eight-player", False),
        # Nine to twelve: head bump (seed 001: "상가우선"); N - 1 rons abort (tests/rules/test_nine_or_more.py).
        ("nine-player", False),
        ("ten-player", False),
        ("eleven-player", False),
        ("twelve-player", False),
        # MCR: one winner per discard, the first in turn (seeds 002, 004); a second is refused
        # (tests/scoring/sheet/test_score_sheet_command.py).
        ("mcr", False),
    ],
)
def test_the_other_presets_pay_one_ron(key: str, pays_several: bool):
    assert build_ruleset(key=key, overrides={}).pays_several_rons is pays_several


@pytest.mark.parametrize(
    ("option", "pays_several"),
    [
        ("head_bump", False),
        ("head_bump_yakuman_exception", True),
        ("double_head_bump_triple_abort", False),
        ("all", True),
        ("double_only_triple_abort", True),
    ],
)
def test_an_events_override_decides(option: str, pays_several: bool):
    ruleset = build_ruleset(key="wrc-2025", overrides={"multiple_ron": option})
    assert ruleset.pays_several_rons is pays_several
    deltas, text = BOTH if pays_several and option != "head_bump_yakuman_exception" else HEAD_BUMP
    hand = scored("wrc-2025", DOUBLE_RON, {"multiple_ron": option})
    assert (tuple(hand["deltas"]), describe(hand, NAMES)) == (deltas, text)


def test_the_output_names_who_bumped_each_declaration_not_paid():
    hand = named({"hands": [scored("wrc-2025", DOUBLE_RON)]}, NAMES)["hands"][0]
    assert [(w["winner"], w["stood"], w.get("bumped_by")) for w in hand["wins"]] == [
        ("Cy", True, None),
        ("Ann", False, "Cy"),
    ]
    # Both paid: nobody is bumped.
    both = named({"hands": [scored("ema-2016", DOUBLE_RON)]}, NAMES)["hands"][0]
    assert [w.get("bumped_by") for w in both["wins"]] == [None, None]


def test_a_yakuman_is_paid_over_a_head_bump_and_a_smaller_win_is_not():
    # head_bump_yakuman_exception: Cy (first after Bo) is paid, Di's yakuman too, Ann's 2 han is bumped.
    hand = scored(
        "wrc-2025",
        {
            "result": "ron",
            "loser": "Bo",
            "wins": [
                {"winner": "Ann", "han": 2, "fu": 30},
                {"winner": "Di", "yakuman": 1},
                {"winner": "Cy", "han": 3, "fu": 40},
            ],
        },
        {"multiple_ron": "head_bump_yakuman_exception"},
    )
    assert tuple(hand["deltas"]) == (0, -37200, 5200, 32000)
    assert describe(hand, NAMES) == (
        "Ron on Bo: Cy 3 han 40 fu, Di yakuman; head bump: Cy, first after the discarder; not paid: Ann 2 han 30 fu"
    )


def test_a_triple_ron_that_aborts_bumps_nobody():
    hand = scored(
        "tenhou",
        {"result": "ron", "loser": "Bo", "wins": [{"winner": w, "han": 1, "fu": 30} for w in ("Ann", "Cy", "Di")]},
    )
    assert hand["abortive"] == "triple_ron"
    assert not any("bumped_by" in w for w in hand["wins"])
    assert describe(hand, NAMES) == "Triple ron on Bo: abortive draw"


def test_a_head_bump_on_a_table_of_five():
    names = [*NAMES, "Ed"]
    # Five players: after Bo come Cy, Di, Ed, Ann; Di is bumped by Cy.
    hand = scored(
        "five-player-1",
        {
            "result": "ron",
            "loser": "Bo",
            "wins": [{"winner": "Di", "han": 3, "fu": 40}, {"winner": "Cy", "han": 2, "fu": 30}],
        },
        names=names,
    )
    assert describe(hand, names).endswith("head bump: Cy, first after the discarder; not paid: Di 3 han 40 fu")


def test_the_head_bump_in_korean():
    hand = scored("wrc-2025", DOUBLE_RON)
    with translation.override("ko"):
        assert describe(hand, NAMES, translation) == (
            "Bo 방총: Cy 3판 40부; 머리치기: 방총자 다음 순서인 Cy; 지급하지 않음: Ann 2판 30부"
        )
