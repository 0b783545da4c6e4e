"""The solo race to tenpai through the score sheet and ``manage.py score_sheet`` (docs/solo.md).

Seed 001 line 614: "텐파이까지 몇 순 걸렸는지를 겨룬다. 같은 순수라면 점수가 높은 쪽이 위가 된다" — the draws to
tenpai rank an attempt, and at equal draws the higher score. Values: the dealer's, 6 × base rounded up to 100.
"""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from rules.errors import Refusal
from scoring.sheet.output import named, result_json
from scoring.sheet.reader import score_sheet
from scoring.sheet.schema import schema_problems

# Four attempts of one player: 7 draws 2 han 30 fu (2900); 5 draws, tiles: 123m 456m 789p 234s and a single White
# dragon waiting on its pair, valued as the dealer's tsumo: menzen tsumo 1 han, 20 + 2 (tsumo) + 2 (dragon pair)
# + 2 (single wait) = 26 -> 30 fu (1500); the wall ran out (noten: 19 draws, 0); 5 draws 3 han 40 fu (7700).
ATTEMPTS: list[dict[str, Any]] = [
    {"draws": 7, "han": 2, "fu": 30},
    {"result": "tenpai", "draws": 5, "tiles": {"concealed": "123m456m789p234s5z", "win": "5z"}},
    {"result": "noten"},
    {"draws": 5, "han": 3, "fu": 40},
]


def solo(hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"ruleset": "solo", "players": ["Ann"], "hands": hands, **extra}


def output(sheet: dict[str, Any]) -> dict[str, Any]:
    return named(result_json(score_sheet(sheet)), ["Ann"])


def test_attempts_are_ranked_by_draws_then_value():
    out = output(solo(ATTEMPTS))
    assert [
        (h["result"], h["attempt"], h["draws"], h["value"], h["attempt_rank"], h["counted"]) for h in out["hands"]
    ] == [
        ("tenpai", 1, 7, 2900, 3, False),
        ("tenpai", 2, 5, 1500, 2, False),
        ("noten", 3, 19, 0, 4, False),
        ("tenpai", 4, 5, 7700, 1, True),
    ]
    assert [(a["attempt"], a["rank"]) for a in out["attempts"]] == [(4, 1), (2, 2), (1, 3), (3, 4)]
    assert out["hands"][1]["yaku"] == [{"name": "Menzen Tsumo", "han": 1}]
    assert (out["hands"][1]["han"], out["hands"][1]["fu"]) == (1, 30)
    [final] = out["final"]
    assert (final["player"], final["rank"], final["draws"], final["value"], final["score"], final["attempts"]) == (
        "Ann",
        1,
        5,
        7700,
        7700,
        4,
    )
    assert (out["finished"], out["end_reason"]) == (True, "the player stopped")
    assert all(h["deltas"] == {"Ann": 0} for h in out["hands"])


def test_the_sum_over_a_fixed_number_of_attempts():
    sheet = solo(ATTEMPTS[:3], overrides={"solo_ranking": "sum_of_attempts", "solo_attempts": 3})
    out = output(sheet)
    # 7 + 5 + 19 = 31 draws; 2900 + 1500 + 0 = 4400.
    assert (out["final"][0]["draws"], out["final"][0]["value"]) == (31, 4400)
    assert [h["counted"] for h in out["hands"]] == [True, True, True]
    assert (out["finished"], out["end_reason"]) == (True, "end of the game")
    assert not output(solo(ATTEMPTS[:2], overrides=sheet["overrides"]))["finished"]


def test_a_hand_without_a_result_is_a_tenpai_and_the_schema_says_so():
    assert schema_problems(solo([{"result": "tenpai", "draws": 0, "yakuman": 1}])) == []
    out = output(solo([{"draws": 0, "yakuman": 1}]))
    assert (out["hands"][0]["result"], out["final"][0]["value"]) == ("tenpai", 48000)


@pytest.mark.parametrize(
    ("hand", "field", "message"),
    [
        (
            {"draws": 19, "han": 2, "fu": 30},
            "hands[0].draws",
            "must be 0 to 18: the 34 tiles less the 14 dealt and the dead wall of 2",
        ),
        ({"draws": -1, "han": 2, "fu": 30}, "hands[0].draws", "must be at least 0"),
        ({"draws": 2.5, "han": 2, "fu": 30}, "hands[0].draws", "must be a whole number"),
        ({"draws": "5", "han": 2, "fu": 30}, "hands[0].draws", "must be a whole number"),
        ({"han": 2, "fu": 30}, "hands[0].draws", "is required for a tenpai"),
        ({"draws": 3}, "hands[0].han", "a tenpai needs the hand's value: han and fu, yakuman, or its tiles"),
        (
            {"draws": 3, "han": 1, "fu": 25},
            "hands[0].fu",
            "25 fu is only possible with 3 han or more on a tsumo (chiitoitsu)",
        ),
        (
            {"draws": 3, "han": 2, "fu": 30, "riichi": ["Ann"]},
            "hands[0].riichi",
            "the solo game has no riichi: with one player at the table, a riichi is every player's riichi, which makes "
            "the hand an abortive draw",
        ),
        (
            {"draws": 3, "tiles": {"concealed": "123m456m789p5z", "win": "5z", "melds": ["chi 678s"]}},
            "hands[0].tiles.melds",
            "the solo game has no calls: one player, nobody discards a tile to call",
        ),
        (
            {"draws": 3, "tiles": {"concealed": "123m456m789p233s5z", "win": "5z"}},
            "hands[0].tiles.concealed",
            "3s is written twice: the solo game's 34 tiles hold one of each",
        ),
        (
            {"draws": 3, "tiles": {"concealed": "123m456m789p678s5z", "win": "5z", "flags": ["tenhou"]}},
            "hands[0].tiles.flags",
            "tenhou is a hand tenpai as dealt, with 0 draws; this one took 3",
        ),
        (
            {"draws": 3, "tiles": {"concealed": "123m456m789p678s5z", "win": "5z", "ura": "1m"}},
            "hands[0].tiles.ura",
            "ura dora need a riichi, and the solo game has none",
        ),
        (
            {"draws": 3, "han": 2, "fu": 30, "tiles": {"concealed": "123m456m789p678s5z", "win": "5z"}},
            "hands[0].han",
            "give the tiles or the value, not both",
        ),
        ({"result": "noten", "draws": 4}, "hands[0].draws", "a noten has no draws (that belongs to a tenpai)"),
        (
            {"draws": 3, "han": 2, "fu": 30, "winner": "Ann"},
            "hands[0].winner",
            "a tenpai has no winner (that belongs to a ron or tsumo)",
        ),
        (
            {"result": "tsumo", "winner": "Ann", "han": 1, "fu": 30},
            "hands[0].result",
            "the solo game records attempts: tenpai (with draws and the hand's value) or noten",
        ),
    ],
)
def test_refused_attempts_name_the_field(hand, field, message):
    with pytest.raises(Refusal) as refused:
        score_sheet(solo([hand]))
    assert [str(p) for p in refused.value.problems] == [f"{field}: {message}"]


@pytest.mark.parametrize(
    ("sheet", "lines"),
    [
        (
            {"ruleset": "solo", "players": ["Ann", "Bo"], "hands": []},
            ["players: this ruleset is for 1 players; the sheet names 2"],
        ),
        (
            solo([], start={"round": "E1"}, penalties=[{"player": "Ann", "points": -2}]),
            [
                "penalties: the solo game ranks draws and value, not points: it takes no penalty",
                "start: a solo game starts with its first attempt: it has no round, honba or scores to take up",
            ],
        ),
        (
            {
                "ruleset": "wrc-2025",
                "players": ["Ann", "Bo", "Cy", "Di"],
                "hands": [{"result": "tenpai", "draws": 3, "han": 1, "fu": 30}],
            },
            ["hands[0].result: tenpai and noten are attempts of the solo race to tenpai (ruleset solo)"],
        ),
        (
            solo([{"draws": 3, "han": 1, "fu": 30}], overrides={"solo_ranking": "sum_of_attempts"}),
            ["overrides.solo_attempts: sum_of_attempts adds up a fixed number of attempts: set solo_attempts"],
        ),
    ],
)
def test_refused_sheets(sheet, lines):
    with pytest.raises(Refusal) as refused:
        score_sheet(sheet)
    assert [str(p) for p in refused.value.problems] == lines


def test_the_command_line(tmp_path: Path):
    path = tmp_path / "solo.json"
    path.write_text(json.dumps(solo(ATTEMPTS)), encoding="utf-8")
    text, as_json = StringIO(), StringIO()
    call_command("score_sheet", str(path), stdout=text)
    call_command("score_sheet", str(path), "--format", "json", stdout=as_json)
    lines = text.getvalue().splitlines()
    assert lines[0] == "Ruleset solo: the solo race to tenpai of Ann, ranked by each player's best attempt"
    assert "  4     1* Tenpai after 5 draws: 3 han 40 fu, 7700" in lines
    assert "  3     4  Noten: the wall ran out before tenpai (counts as 19 draws)" in lines
    assert lines[-1] == "Result, finished (the player stopped): 5 draws, value 7700 (4 attempts; * counted)"
    out = json.loads(as_json.getvalue())
    assert (out["players"], out["final"][0]["draws"], out["final"][0]["value"]) == (["Ann"], 5, 7700)


def test_the_command_line_refuses_with_the_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "solo.json"
    path.write_text(json.dumps(solo([{"draws": 20, "han": 1, "fu": 30}])), encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        call_command("score_sheet", str(path))
    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines() == [
        "hands[0].draws: must be 0 to 18: the 34 tiles less the 14 dealt and the dead wall of 2"
    ]
