"""Score sheets for other table sizes and wins typed as tiles, through `score_sheet --format json`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.scoring.sheet.test_score_sheet_command import run, run_json

FOUR = ["Ann", "Bo", "Cy", "Di"]
FIVE = ["Ann", "Bo", "Cy", "Di", "Eve"]


def sheet(ruleset: str, hands: list[dict[str, Any]], players: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"ruleset": ruleset, "players": players or FOUR, "hands": hands, **extra}


def test_five_player_rule_2_game():
    """Seed 001 rule 2: dealer tsumo in quarters, 400 honba, 3600 noten, uma +10/+5/−3/−5/−7, oka 15000."""
    game = sheet(
        "five-player-2",
        players=FIVE,
        hands=[
            # Dealer 2 han 30 fu tsumo: 2880 / 4 = 720 -> 800 all; the dealer stays.
            {"result": "tsumo", "winner": "Ann", "han": 2, "fu": 30},
            # 5200 + one honba (400) from the discarder; the dealer passes.
            {"result": "ron", "winner": "Bo", "loser": "Cy", "han": 3, "fu": 40},
            # One tenpai: 900 from each of four; renchan only on a win, so the dealer passes anyway.
            {"result": "draw", "tenpai": ["Bo"]},
        ],
    )
    assert run_json(game)["next"] == {
        "round": "E3",
        "honba": 1,
        "dealer": "Cy",
        "deposits": 0,
        "seat_winds": {"Cy": "East", "Di": "South", "Eve": "West", "Ann": "North", "Bo": "Flower"},
    }
    result = run_json({**game, "end": "time"})
    hands = result["hands"]
    assert [(h["round"], h["honba"], h["dealer"]) for h in hands] == [
        ("E1", 0, "Ann"),
        ("E1", 1, "Ann"),
        ("E2", 0, "Bo"),
    ]
    assert hands[0]["deltas"] == {"Ann": 3200, "Bo": -800, "Cy": -800, "Di": -800, "Eve": -800}
    assert hands[1]["deltas"] == {"Ann": 0, "Bo": 5600, "Cy": -5600, "Di": 0, "Eve": 0}
    assert hands[2]["deltas"] == {"Ann": -900, "Bo": 3600, "Cy": -900, "Di": -900, "Eve": -900}
    final = {row["player"]: (row["rank"], row["score"], row["points"]) for row in result["final"]}
    # Di and Eve tie on 25300 and share third and fourth: (−3 − 5) / 2 = −4 each.
    assert final == {
        "Bo": (1, 35400, 30.4),
        "Ann": (2, 29300, 4.3),
        "Di": (3, 25300, -8.7),
        "Eve": (3, 25300, -8.7),
        "Cy": (5, 19700, -17.3),
    }


def test_five_player_flower_round_and_seat():
    result = run_json(
        sheet(
            "five-player-1",
            players=FIVE,
            overrides={"round_winds": 5},
            start={"round": "F5"},
            hands=[{"result": "draw", "tenpai": []}],
        )
    )
    hand = result["hands"][0]
    assert (hand["round"], hand["dealer"]) == ("F5", "Eve")
    assert hand["seat_winds"] == {"Eve": "East", "Ann": "South", "Bo": "West", "Cy": "North", "Di": "Flower"}
    assert (result["finished"], result["end_reason"]) == (True, "end of the game")


def test_eight_player_seats_and_noten():
    names = [f"P{i}" for i in range(1, 9)]
    result = run_json(sheet("eight-player", players=names, hands=[{"result": "draw", "tenpai": ["P3"]}]))
    hand = result["hands"][0]
    assert list(hand["seat_winds"].values()) == ["East", "East", "South", "South", "West", "West", "North", "North"]
    # 3000 / 7 per noten player is not whole: 500 from each pair, 3500 to the one tenpai player.
    assert hand["deltas"]["P3"] == 3500
    assert sorted(set(hand["deltas"].values())) == [-500, 3500]


def test_five_player_rule_2_last_dealer_stops():
    result = run_json(
        sheet(
            "five-player-2",
            players=FIVE,
            start={"round": "S5"},
            hands=[{"result": "ron", "winner": "Eve", "loser": "Ann", "han": 1, "fu": 30}],
        )
    )
    assert (result["finished"], result["end_reason"]) == (True, "the last dealer stopped")


def test_two_player_tsumo_is_the_ron_value():
    result = run_json(
        sheet("two-player", players=["Ann", "Bo"], hands=[{"result": "tsumo", "winner": "Bo", "han": 3, "fu": 30}])
    )
    assert result["hands"][0]["deltas"] == {"Ann": -3900, "Bo": 3900}


@pytest.mark.parametrize(
    ("ruleset", "players", "message"),
    [
        ("sanma", FOUR, "players: this ruleset is for 3 players; the sheet names 4"),
        ("two-player-mangan", ["Ann", "Bo"], "hands[0].han: 4 han is below this ruleset's minimum of 5 han"),
        (
            "two-player-yakuman",
            ["Ann", "Bo"],
            "hands[0].han: only yakuman may win under this ruleset (13 han or more counts)",
        ),
    ],
)
def test_table_size_refusals(ruleset, players, message):
    code, out, err = run(
        sheet(ruleset, players=players, hands=[{"result": "ron", "winner": "Ann", "loser": "Bo", "han": 4, "fu": 30}]),
        "--format",
        "json",
    )
    assert (code, out) == (2, "")
    assert message in err


# --- tiles ------------------------------------------------------------------

RED_PON = {"concealed": "234m456m67s88p", "win": "8s", "melds": ["pon 777z"]}
EAST_PON = {"concealed": "234m456m67s88p", "win": "8s", "melds": ["pon 111z"]}


def test_riichi_tiles_value_the_hand():
    result = run_json(sheet("wrc-2025", [{"result": "ron", "winner": "Bo", "loser": "Cy", "tiles": RED_PON}]))
    hand = result["hands"][0]
    # Red dragon pon: 1 han; 20 + 4 (open honor pon) = 24 -> 30 fu; a non-dealer ron 1000.
    assert (hand["han"], hand["fu"]) == (1, 30)
    assert hand["yaku"] == [{"name": "Yakuhai (Red)", "han": 1}]
    assert hand["deltas"] == {"Ann": 0, "Bo": 1000, "Cy": -1000, "Di": 0}


@pytest.mark.parametrize(
    ("winner", "han", "deltas"),
    [
        # At E2 Bo deals: East is his seat wind and the round wind, 2 han; 20 + 2 + 4 = 26 -> 30 fu; 1000 all.
        ("Bo", 2, {"Ann": -1000, "Bo": 3000, "Cy": -1000, "Di": -1000}),
        # Cy sits South: only the round wind counts, 1 han 30 fu tsumo: 300 / 500.
        ("Cy", 1, {"Ann": -300, "Bo": -500, "Cy": 1100, "Di": -300}),
    ],
)
def test_riichi_tiles_take_the_winds_from_the_game(winner, han, deltas):
    result = run_json(
        sheet("wrc-2025", start={"round": "E2"}, hands=[{"result": "tsumo", "winner": winner, "tiles": EAST_PON}])
    )
    hand = result["hands"][0]
    assert (hand["han"], hand["fu"], hand["deltas"]) == (han, 30, deltas)


def test_riichi_tiles_follow_the_hands_riichi_list():
    tiles = {"concealed": "234m456m678p2399s", "win": "1s", "ura": "8s"}
    result = run_json(
        sheet("wrc-2025", [{"result": "ron", "winner": "Di", "loser": "Ann", "riichi": ["Di"], "tiles": tiles}])
    )
    hand = result["hands"][0]
    # Riichi 1 + pinfu 1 (23s waits on 1s-4s) + ura dora 2 (indicator 8s: the 99s pair); pinfu ron 30 fu.
    assert {y["name"] for y in hand["yaku"]} >= {"Riichi", "Pinfu", "Ura Dora"}
    assert (hand["han"], hand["fu"]) == (4, 30)
    assert hand["deltas"]["Di"] == 8000 - 1000 + 1000  # 4 han 30 fu is a mangan under WRC's kiriage


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (
            {"result": "ron", "winner": "Bo", "loser": "Cy", "tiles": {"concealed": "123m456p789s1357z", "win": "2z"}},
            "hands[0].tiles: these tiles are not a winning hand",
        ),
        (
            {"result": "ron", "winner": "Bo", "loser": "Cy", "tiles": {"concealed": "12x", "win": "8s"}},
            "hands[0].tiles.concealed: '12x' is not in tile notation",
        ),
        (
            {"result": "ron", "winner": "Bo", "loser": "Cy", "han": 1, "tiles": RED_PON},
            "hands[0].han: give the tiles or the value, not both",
        ),
        (
            {
                "result": "ron",
                "winner": "Bo",
                "loser": "Cy",
                "tiles": {"concealed": "234m456m67s88p", "win": "8s", "melds": ["chi 789m"]},
            },
            "hands[0].tiles: no yaku",
        ),
        (
            {
                "result": "ron",
                "loser": "Ann",
                "wins": [
                    {"winner": "Bo", "tiles": RED_PON},
                    {"winner": "Cy", "tiles": {**RED_PON, "flags": ["ippatsu"]}},
                ],
            },
            "hands[0].wins[1].tiles.flags: ippatsu needs a riichi",
        ),
    ],
)
def test_riichi_tiles_refused(hand, message):
    code, out, err = run(sheet("ema-2016", [hand]), "--format", "json")
    assert (code, out) == (2, "")
    assert message in err


SEED_48 = {"concealed": "555666777p555s6s", "win": "7s", "flowers": 2}


def test_mcr_tiles_value_the_hand():
    """Seed 004's 48-fan hand, self-drawn, with 2 flowers: each other player pays 8 + 50 (docs/rules.md §6)."""
    result = run_json(sheet("mcr", [{"result": "tsumo", "winner": "Cy", "tiles": SEED_48}]))
    hand = result["hands"][0]
    assert (hand["fan"], hand["flowers"], hand["total_fan"]) == (48, 2, 50)
    assert sum(item["fan"] for item in hand["fan_list"]) == 48
    assert {"name": "Pure Triple Chow", "fan": 24} in hand["fan_list"]
    assert hand["deltas"] == {"Ann": -58, "Bo": -58, "Cy": 174, "Di": -58}


def test_mcr_tiles_on_a_discard():
    # The same tiles on Di's discard: Concealed Hand 2 instead of Fully Concealed Hand 4, 46 + 2 flowers.
    result = run_json(sheet("mcr", [{"result": "ron", "winner": "Cy", "loser": "Di", "tiles": SEED_48}]))
    assert result["hands"][0]["deltas"] == {"Ann": -8, "Bo": -8, "Cy": 8 * 3 + 48, "Di": -8 - 48}


@pytest.mark.parametrize(
    ("tiles", "message"),
    [
        (
            {"concealed": "99s11z", "win": "9s", "melds": ["pon 222m", "pon 444p", "pon 666s"]},
            "hands[0].tiles: 7 fan (All Pungs 6, Pung of Terminals or Honors 1) is below the 8-fan minimum",
        ),
        ({"concealed": "123m456p789s1357z", "win": "2z"}, "hands[0].tiles: these tiles are not a winning hand"),
        ({**SEED_48, "dora": "1m"}, "hands[0].tiles.dora: MCR has no dora"),
        ({**SEED_48, "flags": ["ippatsu"]}, "hands[0].tiles.flags[0]: unknown flag 'ippatsu'"),
    ],
)
def test_mcr_tiles_refused(tiles, message):
    code, out, err = run(
        sheet("mcr", [{"result": "ron", "winner": "Ann", "loser": "Bo", "tiles": tiles}]), "--format", "json"
    )
    assert (code, out) == (2, "")
    assert message in err
