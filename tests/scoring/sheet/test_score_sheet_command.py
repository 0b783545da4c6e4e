"""`manage.py score_sheet` on good and bad sheets (docs/score-sheet.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[3]

# docs/score-sheet.md's input example, with the two options its abort and nagashi hands need under wrc-2025.
EXAMPLE: dict[str, Any] = {
    "ruleset": "wrc-2025",
    "overrides": {"kiriage_mangan": False, "abortive_draws": True, "nagashi_mangan": True},
    "players": ["Ann", "Bo", "Cy", "Di"],
    "start": {"round": "E1", "honba": 0, "deposits": 0, "scores": [30000, 30000, 30000, 30000]},
    "hands": [
        {"result": "ron", "winner": "Ann", "loser": "Cy", "han": 3, "fu": 40, "riichi": ["Ann"]},
        {"result": "tsumo", "winner": "Bo", "han": 1, "fu": 30},
        {"result": "draw", "tenpai": ["Ann", "Di"], "riichi": ["Di"]},
        {
            "result": "ron",
            "loser": "Bo",
            "wins": [{"winner": "Ann", "han": 2, "fu": 30}, {"winner": "Di", "yakuman": 1, "pao": "Cy"}],
        },
        {"result": "abort", "riichi": ["Ann"]},
        {"result": "chombo", "player": "Cy"},
        {"result": "draw", "tenpai": [], "nagashi": ["Bo"]},
    ],
    "penalties": [{"player": "Di", "points": -2, "reason": "late"}],
    "end": "time",
}


def run(sheet: Any, *args: str) -> tuple[int, str, str]:
    stdout, stderr = StringIO(), StringIO()
    stdin = sys.stdin
    sys.stdin = StringIO(sheet if isinstance(sheet, str) else json.dumps(sheet))
    try:
        call_command("score_sheet", "-", *args, stdout=stdout, stderr=stderr)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.stdin = stdin
    return code, stdout.getvalue(), stderr.getvalue()


def run_json(sheet: Any) -> dict[str, Any]:
    code, out, err = run(sheet, "--format", "json")
    assert (code, err) == (0, ""), err
    result: dict[str, Any] = json.loads(out)
    return result


def test_example_sheet_hand_by_hand():
    result = run_json(EXAMPLE)
    hands = result["hands"]
    rows = [
        (h["round"], h["honba"], h["dealer"], h["deposits_before"], tuple(h["deltas"].values()), h["deposits_after"])
        for h in hands
    ]
    assert rows == [
        # Ann (dealer) 3 han 40 fu ron = 7700, her stick comes back.
        ("E1", 0, "Ann", 0, (7700, 0, -7700, 0), 0),
        # Bo 1 han 30 fu tsumo at 1 honba: 500 + 100 from Ann, 300 + 100 from the others.
        ("E1", 1, "Ann", 0, (-600, 1400, -400, -400), 0),
        # Draw: Ann and Di tenpai; Di's stick stays on the table.
        ("E2", 0, "Bo", 0, (1500, -1500, -1500, 500), 1),
        # Head bump: Cy, then Di are after Bo; Di wins the yakuman, Cy liable for half.
        ("E3", 1, "Cy", 1, (0, -16300, -16000, 33300), 0),
        # Abortive draw: Ann's stick stays; the dealer Di stays, honba +1.
        ("E4", 0, "Di", 0, (-1000, 0, 0, 0), 1),
        # Chombo: the hand is replayed; deduction at the end.
        ("E4", 1, "Di", 1, (0, 0, 0, 0), 1),
        # Nagashi mangan by Bo, paid as a mangan tsumo; no honba, the stick stays.
        ("E4", 1, "Di", 1, (-2000, 8000, -2000, -4000), 1),
    ]
    scores = [tuple(h["scores"].values()) for h in hands]
    assert scores[-1] == (35600, 21600, 2400, 59400)
    assert result["finished"] is True
    assert result["end_reason"] == "time"
    assert result["deposits_left"] == 1


def test_example_sheet_final():
    final = run_json(EXAMPLE)["final"]
    # The leftover stick goes to first place (wrc-2025); chombo -30; the sheet's -2 penalty.
    assert [(r["player"], r["rank"], r["score"], r["uma"], r["oka"], r["penalty"], r["points"]) for r in final] == [
        ("Di", 1, 60400, 15.0, 0.0, -2.0, 43.4),
        ("Ann", 2, 35600, 5.0, 0.0, 0.0, 10.6),
        ("Bo", 3, 21600, -5.0, 0.0, 0.0, -13.4),
        ("Cy", 4, 2400, -15.0, 0.0, -30.0, -72.6),
    ]
    assert all(r["table_points"] is None for r in final)


def test_output_shape():
    result = run_json(EXAMPLE)
    assert {"ruleset", "hands", "finished", "deposits_left", "final"} <= set(result)
    assert result["ruleset"]["key"] == "wrc-2025"
    assert result["ruleset"]["kiriage_mangan"] is False  # the override is in force
    assert result["ruleset"]["start_points"] == 30000
    for hand in result["hands"]:
        assert {"round", "honba", "dealer", "deposits_before", "deltas", "scores", "deposits_after"} <= set(hand)
        assert set(hand["deltas"]) == {"Ann", "Bo", "Cy", "Di"}
    for row in result["final"]:
        assert {"player", "rank", "score", "uma", "oka", "penalty", "points", "table_points"} <= set(row)


def test_unfinished_game_says_what_comes_next():
    result = run_json(
        {
            "ruleset": "wrc-2025",
            "players": ["A", "B", "C", "D"],
            "hands": [{"result": "draw", "tenpai": ["A"], "riichi": ["B"]}],
        }
    )
    assert result["finished"] is False
    assert result["next"] == {
        "round": "E1",
        "honba": 1,
        "dealer": "A",
        "deposits": 1,
        "seat_winds": {"A": "East", "B": "South", "C": "West", "D": "North"},
    }
    # A game in progress keeps its stick on the table in the standings.
    assert sum(r["score"] for r in result["final"]) == 119000


def test_text_format_is_a_table_a_referee_can_read():
    code, out, err = run(EXAMPLE)
    assert (code, err) == (0, "")
    shown = (
        "Round",
        "Dealer",
        "Ron on Bo: Di yakuman",
        "Chombo: Cy",
        "Draw, tenpai: Ann, Di; riichi: Di",
        "Final result (time)",
    )
    assert [text for text in shown if text not in out] == []
    lines = [line for line in out.splitlines() if line.strip().startswith("1  Di")]
    assert len(lines) == 1
    assert "60400" in lines[0]
    assert "+43.4" in lines[0]


def sheet(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "ruleset": "wrc-2025",
        "players": ["Ann", "Bo", "Cy", "Di"],
        "hands": [{"result": "ron", "winner": "Ann", "loser": "Cy", "han": 3, "fu": 40}],
    }
    base.update(changes)
    return base


def hand(**fields: Any) -> dict[str, Any]:
    return sheet(hands=[fields])


@pytest.mark.parametrize(
    ("document", "lines"),
    [
        (
            "{not json",
            ["(sheet): not valid JSON at line 1, column 2: Expecting property name enclosed in double quotes"],
        ),
        ([], ["(sheet): must be an object ({...})"]),
        ({"players": ["A", "B", "C", "D"], "hands": []}, ["ruleset: is required"]),
        (sheet(ruleset="wrc-2099"), ["ruleset: unknown ruleset 'wrc-2099'; the presets are: "]),
        (sheet(overrides={"kiriage": True}), ["overrides.kiriage: unknown ruleset parameter"]),
        (sheet(overrides={"uma": [1, 2]}), ["overrides.uma: needs 4 values, one per rank (or [] for none)"]),
        (sheet(players=["Ann", "Bo", "Cy"]), ["players: this ruleset is for 4 players; the sheet names 3"]),
        (sheet(players=["Ann", "Ann", "Cy", "Di"]), ["players: lists the same entry twice"]),
        (
            sheet(start={"round": "Q1", "scores": [1]}),
            [
                "start.round: 'Q1' is not a round: a wind letter (E, S, W, N) and a hand number, such as E1",
                "start.scores: needs 4 scores, one per player",
            ],
        ),
        (
            hand(result="ron", winner="Ann", loser="Ann", han=1, fu=30),
            ["hands[0].winner: Ann cannot win on their own discard (also the loser)"],
        ),
        (
            hand(result="ron", winner="Zed", loser="Bo", han=1, fu=30),
            ["hands[0].winner: unknown player 'Zed' (the players are Ann, Bo, Cy, Di)"],
        ),
        (
            hand(result="ron", winner="Ann", loser="Bo", han=1, fu=25),
            ["hands[0].fu: 25 fu is only possible with 2 han or more on a ron (chiitoitsu)"],
        ),
        (
            hand(result="tsumo", winner="Ann", han=1, fu=20),
            ["hands[0].fu: 20 fu is only possible with 2 han or more (pinfu and menzen tsumo)"],
        ),
        (
            hand(result="tsumo", winner="Ann", han=2, fu=35),
            ["hands[0].fu: 35 fu does not exist: fu are 20, 25 or a multiple of 10 up to 110"],
        ),
        (hand(result="tsumo", winner="Ann", han="2"), ["hands[0].han: must be a whole number"]),
        (hand(result="tsumo", han=2, fu=30), ["hands[0].winner: is required for a tsumo"]),
        # An empty ron names everything it lacks at once, not one part per try (issue 13).
        (
            hand(result="ron"),
            [
                "hands[0].han: a win needs han and fu, or yakuman",
                "hands[0].loser: is required for a ron",
                "hands[0].winner: is required for a ron (or give a list of wins)",
            ],
        ),
        (
            sheet(ruleset="mcr", hands=[{"result": "tsumo"}]),
            ["hands[0].fan: a win needs fan", "hands[0].winner: is required for a tsumo"],
        ),
        (hand(result="win", winner="Ann"), ["hands[0].result: must be one of: ron, tsumo, draw, abort, chombo"]),
        (hand(result="tsumo", winner="Ann", han=2, fu=30, colour="red"), ["hands[0].colour: unknown field"]),
        (
            hand(result="draw", tenpai=["Ann"], winner="Ann"),
            ["hands[0].winner: a draw has no winner (that belongs to a ron or tsumo)"],
        ),
        (hand(result="abort", reason="four_winds"), ["hands[0].result: this ruleset has no abortive draws"]),
        (hand(result="draw", nagashi=["Bo"]), ["hands[0].nagashi: this ruleset has no nagashi mangan"]),
        (
            hand(result="ron", winner="Ann", loser="Bo", han=5, pao="Cy"),
            ["hands[0].pao: pao only applies to a yakuman"],
        ),
        (
            hand(result="ron", winner="Ann", loser="Bo", yakuman=1, han=2),
            ["hands[0].yakuman: give either yakuman or han/fu, not both"],
        ),
        (
            hand(result="ron", winner="Ann", loser="Bo", fan=8),
            ["hands[0].fan: fan and flowers are for MCR; a riichi win has han and fu"],
        ),
        (
            hand(result="ron", winner="Ann", loser="Bo", han=2, fu=30, false_wins=["Cy"]),
            [
                "hands[0].false_wins: false wins are an MCR rule; in riichi a false win is a chombo "
                '(record {"result": "chombo", "player": ...})'
            ],
        ),
        (
            hand(result="tsumo", winner="Ann", tiles={"concealed": "123m456m789m1122p", "win": "0z"}),
            ["hands[0].tiles.win: 0z is not a tile: honors are 1z to 7z (East, South, West, North, White, Green, Red)"],
        ),
        (
            sheet(overrides={"min_han": 2}, hands=[{"result": "tsumo", "winner": "Ann", "han": 1, "fu": 30}]),
            ["hands[0].han: 1 han is below this ruleset's minimum of 2 han"],
        ),
        (
            sheet(
                overrides={"busting": True},
                start={"scores": [60000, 30000, 500, 29500]},
                hands=[{"result": "draw", "riichi": ["Cy"]}],
            ),
            ["hands[0].riichi: Cy has 500 points and cannot pay the 1000-point riichi stick"],
        ),
        (
            sheet(
                overrides={"round_winds": 1},
                start={"round": "E4"},
                hands=[{"result": "ron", "winner": "Ann", "loser": "Bo", "han": 1, "fu": 30}] * 2,
            ),
            ["hands[1]: the game has already ended (end of the game); no more hands can be added"],
        ),
        (
            sheet(penalties=[{"player": "Eve", "points": -1}]),
            ["penalties[0].player: unknown player 'Eve' (the players are Ann, Bo, Cy, Di)"],
        ),
        (
            sheet(ruleset="mcr", hands=[{"result": "ron", "winner": "Ann", "loser": "Bo", "fan": 7, "flowers": 3}]),
            ["hands[0].fan: 7 fan is below the minimum of 8 (flowers do not count towards it)"],
        ),
        (
            sheet(
                ruleset="mcr",
                hands=[
                    {"result": "ron", "loser": "Bo", "wins": [{"winner": "Cy", "fan": 8}, {"winner": "Di", "fan": 8}]}
                ],
            ),
            ["hands[0].wins: MCR allows one winner per discard: the first player in turn after the discarder wins"],
        ),
        (
            sheet(ruleset="mcr", hands=[{"result": "tsumo", "winner": "Ann", "fan": 8, "false_wins": ["Ann"]}]),
            ["hands[0].winner: Ann declared a false win in this hand and cannot win it"],
        ),
        (
            sheet(ruleset="mcr", hands=[{"result": "chombo", "player": "Ann"}]),
            ["hands[0].result: in MCR a false win does not end the hand"],
        ),
        # Every problem is reported, one line each, in document order.
        (
            sheet(
                hands=[
                    {"result": "tsumo", "winner": "Ann", "han": 1, "fu": 20},
                    {"result": "tsumo", "han": "x"},
                    {"result": "ron", "winner": "Bo", "loser": "Bo", "han": 1, "fu": 30},
                ]
            ),
            [
                "hands[0].fu: 20 fu is only possible with 2 han or more (pinfu and menzen tsumo)",
                "hands[1].han: must be a whole number",
                "hands[1].winner: is required for a tsumo",
                "hands[2].winner: Bo cannot win on their own discard (also the loser)",
            ],
        ),
    ],
)
def test_invalid_sheets(document, lines):
    code, out, err = run(document, "--format", "json")
    assert code == 2
    assert out == ""
    got = err.splitlines()
    assert len(got) == len(lines)
    for line, expected in zip(got, lines, strict=True):
        assert line.startswith(expected)


def test_real_process_exit_code_and_streams(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(hand(result="tsumo", winner="Ann", han=1, fu=20)))
    proc = subprocess.run(
        [sys.executable, "manage.py", "score_sheet", str(path), "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip().startswith("hands[0].fu:")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(EXAMPLE))
    proc = subprocess.run(
        [sys.executable, "manage.py", "score_sheet", str(good), "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["final"][0]["player"] == "Di"


def test_missing_file(tmp_path):
    code, out, err = 0, "", ""
    stdout, stderr = StringIO(), StringIO()
    with pytest.raises(SystemExit) as caught:
        call_command("score_sheet", str(tmp_path / "nope.json"), stdout=stdout, stderr=stderr)
    code, out, err = int(caught.value.code or 0), stdout.getvalue(), stderr.getvalue()
    assert (code, out) == (2, "")
    assert "cannot read the file" in err


def test_the_text_table_keeps_its_columns_whatever_the_words():
    """A long description widens the Result column instead of pushing the scores out of line."""
    code, out, _err = run(
        {
            "ruleset": "wrc-2025",
            "players": ["Annabelle", "Bo", "Cy", "Di"],
            "hands": [
                {"result": "tsumo", "winner": "Annabelle", "han": 4, "fu": 30, "riichi": ["Annabelle", "Bo", "Cy"]},
                {"result": "draw"},
            ],
        }
    )
    table = out.split("\n\n")[1].splitlines()
    assert code == 0
    assert "Tsumo: Annabelle 4 han 30 fu (mangan); riichi: Annabelle, Bo, Cy" in table[2]
    assert len({len(line) for line in table if not line.startswith("-")}) == 1, table


def test_a_sheet_without_hands_prints_the_seats_and_the_start():
    code, out, _err = run({"ruleset": "wrc-2025", "players": ["A", "B", "C", "D"], "hands": []})
    assert code == 0
    assert "Seats at the start: A (East), B (South), C (West), D (North)" in out
    assert "Game in progress: next hand E1, honba 0, 0 stick(s) on the table." in out
