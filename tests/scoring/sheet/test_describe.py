"""One wording of a hand for the command and the pages (scoring.sheet.describe), from the stored result alone."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from scoring.sheet.describe import describe, value_text
from scoring.sheet.output import result_json
from scoring.sheet.reader import score_sheet

NAMES = ["Ann", "Bo", "Cy", "Di"]


def described(ruleset: str, hands: list[dict[str, Any]], overrides: dict[str, Any] | None = None) -> list[str]:
    scored = score_sheet({"ruleset": ruleset, "overrides": overrides or {}, "players": NAMES, "hands": hands})
    return [describe(hand, NAMES) for hand in result_json(scored)["hands"]]


@pytest.mark.parametrize(
    ("ruleset", "hand", "text"),
    [
        (
            "wrc-2025",
            {"result": "ron", "winner": "Ann", "loser": "Cy", "han": 3, "fu": 40, "riichi": ["Ann"]},
            "Ron on Cy: Ann 3 han 40 fu; riichi: Ann",
        ),
        ("wrc-2025", {"result": "tsumo", "winner": "Bo", "han": 4, "fu": 30}, "Tsumo: Bo 4 han 30 fu (mangan)"),
        ("wrc-2025", {"result": "tsumo", "winner": "Bo", "han": 6}, "Tsumo: Bo 6 han (haneman)"),
        # Head bump (wrc-2025): Di, nearer Bo's right than Ann, takes the hand alone; Ann's declaration is said unpaid.
        (
            "wrc-2025",
            {
                "result": "ron",
                "loser": "Bo",
                "wins": [{"winner": "Ann", "han": 2, "fu": 30}, {"winner": "Di", "yakuman": 1}],
            },
            "Ron on Bo: Di yakuman; head bump: Di, first after the discarder; not paid: Ann 2 han 30 fu",
        ),
        (
            "wrc-2025",
            {"result": "draw", "tenpai": ["Ann", "Di"], "riichi": ["Di"]},
            "Draw, tenpai: Ann, Di; riichi: Di",
        ),
        ("wrc-2025", {"result": "draw"}, "Draw, nobody tenpai"),
        ("tenhou", {"result": "draw", "tenpai": [], "nagashi": ["Bo"]}, "Draw, nagashi: Bo"),
        ("tenhou", {"result": "abort", "reason": "four_winds"}, "Abortive draw (four_winds)"),
        ("wrc-2025", {"result": "chombo", "player": "Cy"}, "Chombo: Cy"),
        ("mcr", {"result": "ron", "winner": "Ann", "loser": "Bo", "fan": 10}, "Ron on Bo: Ann 10 fan"),
        ("mcr", {"result": "tsumo", "winner": "Cy", "fan": 8, "flowers": 1}, "Tsumo: Cy 8 fan + 1 flower"),
        ("mcr", {"result": "tsumo", "winner": "Cy", "fan": 8, "flowers": 2}, "Tsumo: Cy 8 fan + 2 flowers"),
        ("mcr", {"result": "draw", "false_wins": ["Di"]}, "Draw; false win: Di"),
    ],
)
def test_a_hand_in_words(ruleset: str, hand: dict[str, Any], text: str):
    assert described(ruleset, [hand]) == [text]


def test_a_triple_ron_that_aborts_says_so():
    # wrc-2025: a triple ron is an abortive draw (docs/rules.md §3, seed 000 §3.5 option 2).
    hand = {"result": "ron", "loser": "Bo", "wins": [{"winner": w, "han": 1, "fu": 30} for w in ("Ann", "Cy", "Di")]}
    assert described("wrc-2025", [hand], {"multiple_ron": "double_head_bump_triple_abort"}) == [
        "Triple ron on Bo: abortive draw"
    ]


def test_the_pages_say_it_in_the_readers_language():
    scored = score_sheet(
        {
            "ruleset": "mcr",
            "players": NAMES,
            "hands": [{"result": "ron", "winner": "Ann", "loser": "Bo", "fan": 8, "flowers": 2}],
        }
    )
    hand = result_json(scored)["hands"][0]
    with translation.override("ko"):
        assert describe(hand, NAMES, translation) == "Bo 방총: Ann 8점 + 화패 2"
        assert value_text({"han": 3, "fu": 40, "limit": None}, translation) == "3판 40부"
