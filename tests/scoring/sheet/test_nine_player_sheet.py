"""Score sheets of nine to twelve players through `score_sheet --format json` (docs/nine-or-more-players.md).

The numbers follow seed 001's rule 0 ("0룰 범용 룰"): "N-1인이 동시에 론하면 유국이다" (N − 1 rons at once: an
abortive draw), "N인이 리치하면 … 유국이 된다" (all N in riichi: an abortive draw), "친은 항상 동가가 된다" (the
dealer is always East); and its five-player rule 0, "친의 특권을 없애는 것으로" (no dealer privilege), so a ron is
valued as a non-dealer's: 3 han 30 fu is 3900 (the four-player table).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from scoring.sheet.describe import describe
from scoring.sheet.output import result_json
from scoring.sheet.reader import score_sheet
from tests.scoring.sheet.test_score_sheet_command import run, run_json

NINE = [f"P{i}" for i in range(1, 10)]


def sheet(
    hands: list[dict[str, Any]], players: list[str] = NINE, ruleset: str = "nine-player", **extra: Any
) -> dict[str, Any]:
    return {"ruleset": ruleset, "players": players, "hands": hands, **extra}


def only(hand: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = run_json(sheet([hand]))["hands"][0]
    return result


def ron_by_all_but(loser: str, players: list[str] = NINE) -> dict[str, Any]:
    return {"result": "ron", "loser": loser, "wins": [{"winner": p, "han": 3, "fu": 30} for p in players if p != loser]}


@pytest.mark.parametrize(("winner", "loser"), [("P2", "P5"), ("P9", "P1"), ("P1", "P3")])
def test_a_ron_of_3_han_30_fu_costs_the_discarder_3900(winner, loser):
    # P1 deals E1: the dealer's win (P1 on P3) is 3900 too, not 5800.
    hand = only({"result": "ron", "winner": winner, "loser": loser, "han": 3, "fu": 30})
    assert hand["deltas"][loser] == -3900
    assert hand["deltas"][winner] == 3900
    assert sum(1 for d in hand["deltas"].values() if d) == 2


def test_nine_players_in_riichi_make_an_abortive_draw():
    hand = only({"result": "abort", "reason": "four_riichi", "riichi": NINE})
    assert (hand["result"], hand["abortive"]) == ("abort", "four_riichi")
    assert set(hand["deltas"].values()) == {-1000}  # the nine sticks stay on the table


def test_a_draw_with_nine_players_in_riichi_is_the_abortive_draw():
    hand = only({"result": "draw", "riichi": NINE, "tenpai": NINE})
    assert (hand["result"], hand["abortive"]) == ("abort", "four_riichi")


def test_eight_rons_on_one_discard_make_an_abortive_draw():
    hand = only(ron_by_all_but("P4"))
    assert (hand["result"], hand["abortive"]) == ("abort", "all_others_ron")
    assert set(hand["deltas"].values()) == {0}
    assert [w["stood"] for w in hand["wins"]] == [False] * 8


def test_the_abortive_draw_written_as_such():
    hand = only({"result": "abort", "reason": "all_others_ron"})
    assert (hand["result"], hand["abortive"]) == ("abort", "all_others_ron")


def test_an_abortive_draw_keeps_the_dealer_and_adds_a_honba():
    result = run_json(
        sheet(
            [
                {"result": "draw", "tenpai": []},  # E1: P1 passes the deal, a honba is added
                ron_by_all_but("P7"),  # E2-1: aborted, nothing paid, P2 deals again with one more honba
                {"result": "abort", "reason": "four_riichi", "riichi": NINE},  # E2-2: aborted, 9 sticks on the table
                {"result": "ron", "winner": "P3", "loser": "P4", "han": 3, "fu": 30},  # E2-3: 3900 + 900 + the 9 sticks
            ]
        )
    )
    assert [(h["round"], h["honba"], h["dealer"]) for h in result["hands"]] == [
        ("E1", 0, "P1"),
        ("E2", 1, "P2"),
        ("E2", 2, "P2"),
        ("E2", 3, "P2"),
    ]
    last = result["hands"][-1]["deltas"]
    assert (last["P3"], last["P4"]) == (3900 + 3 * 300 + 9 * 1000, -(3900 + 3 * 300))
    assert result["next"]["round"] == "E3"


def test_the_text_says_how_many_called():
    code, out, err = run(sheet([ron_by_all_but("P4")]))
    assert (code, err) == (0, "")
    assert "8 rons on P4: abortive draw" in out


def test_seats_and_a_full_game():
    # Nine noten draws: E1 … E9, each player dealing once, then the game ends (one round wind).
    result = run_json(sheet([{"result": "draw", "tenpai": []}] * 9))
    first = result["hands"][0]
    assert list(first["seat_winds"].values()) == ["East"] * 3 + ["South"] * 2 + ["West"] * 2 + ["North"] * 2
    assert [h["round"] for h in result["hands"]] == [f"E{n}" for n in range(1, 10)]
    assert result["finished"] is True
    # Nobody won: everyone ends on 25000, tied; the oka (5000 x 9) and no uma are shared by the nine.
    assert {row["rank"] for row in result["final"]} == {1}
    assert {row["points"] for row in result["final"]} == {0.0}


def test_twelve_players():
    twelve = [f"P{i}" for i in range(1, 13)]
    result = run_json(
        sheet(
            [{"result": "tsumo", "winner": "P12", "han": 3, "fu": 30}, ron_by_all_but("P6", twelve)],
            players=twelve,
            ruleset="twelve-player",
        )
    )
    tsumo, aborted = result["hands"]
    # 3840 / 11 = 349.1 -> 400 from each of the eleven others.
    assert tsumo["deltas"]["P12"] == 4400
    assert {tsumo["deltas"][p] for p in twelve[:11]} == {-400}
    assert aborted["abortive"] == "all_others_ron"


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (
            {"result": "abort", "reason": "nine_terminals"},
            "hands[0].reason: must be one of: four_winds, four_riichi, all_others_ron",
        ),
        (
            {"result": "abort", "reason": "four_riichi", "riichi": NINE[:8]},
            "hands[0].riichi: four_riichi needs a riichi from all 9 players in this hand",
        ),
    ],
)
def test_refused(hand, message):
    code, _out, err = run(sheet([hand]))
    assert code == 2
    assert message in err


def test_thirteen_players_are_refused():
    code, _out, err = run(sheet([], players=[f"P{i}" for i in range(1, 14)]))
    assert code == 2
    assert "players: takes at most 12 entries" in err


def test_the_words_in_korean():
    hand = result_json(score_sheet(sheet([ron_by_all_but("P4")])))["hands"][0]
    with translation.override("ko"):
        assert describe(hand, NINE, translation) == "P4 방총에 8명 론: 도중유국"
