"""MCR fan from tiles through pymahjonggb (scoring/mcr_tiles.py): real hands and refusals.

Totals follow docs/rules.md §6 and seed 004 §2 (the five principles and the
worked examples). Where the 2006 and 2015 rules differ (seed 004 §2.1), the
package scores the 2015 way; those cases say what 2006 would give.
Winds are honor numbers (1 East … 4 North); a case wins on a discard unless
it says self-drawn.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import pytest

from rules.errors import Refusal
from rules.presets import get_preset
from rules.ruleset import Ruleset
from scoring.tiles.mcr import score_mcr
from scoring.tiles.notation import MCR_FLAGS, Tile, TileHand, TileScore, WinContext, read_tile_hand

MCR = get_preset("mcr")

SEED_48 = {"concealed": "555666777p555s6s", "win": "7s"}
NINE_GATES = "1112345678999m"
# Nothing but Chicken Hand: three suits and honors, a two-sided wait, no simples, no pair of chows.
CHICKEN = {"concealed": "45s11z", "win": "3s", "melds": ["chi 234m", "chi 678p", "pon 222s"]}
# Pure Straight 16 + Half Flush 6 + Closed Wait 1, and an East pung for the wind fans.
EAST_PUNG = {"concealed": "456789m5m", "win": "5m", "melds": ["pon 111z", "chi 123m"]}
TWO_CONCEALED_KONGS = {"concealed": "234m5z", "win": "5z", "melds": ["ankan 1111p", "ankan 9999s", "pon 777z"]}
ALL_PUNGS_7 = {"concealed": "99s11z", "win": "9s", "melds": ["pon 222m", "pon 444p", "pon 666s"]}


def hand_of(tiles: dict[str, Any]) -> TileHand:
    return read_tile_hand(tiles, flags=MCR_FLAGS)


def score(
    tiles: dict[str, Any],
    *,
    tsumo: bool = False,
    seat: int | None = 1,
    round_wind: int | None = 1,
    ruleset: Ruleset = MCR,
) -> TileScore:
    context = WinContext(seat_wind=seat, round_wind=round_wind, dealer=False, tsumo=tsumo, riichi=False)
    return score_mcr(hand_of(tiles), ruleset=ruleset, context=context)


@dataclass(frozen=True)
class Case:
    tiles: dict[str, Any]
    fan: int
    items: list[tuple[str, int]]
    tsumo: bool = False
    winds: tuple[int | None, int | None] = (1, 1)  # (seat, round)


def with_(tiles: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**tiles, **changes}


CASES = [
    # Seed 004 §2 principle 4: 567p×3 + 567s + 55s (48) beats 555p 666p 777p + 567s + 55s (47).
    pytest.param(
        Case(
            SEED_48,
            48,
            [
                ("Pure Triple Chow", 24),
                ("All Fives", 16),
                ("Fully Concealed Hand", 4),
                ("All Chows", 2),
                ("Mixed Double Chow", 1),
                ("One Voided Suit", 1),
            ],
            tsumo=True,
        ),
        id="seed004-48-self-drawn",
    ),
    # The same tiles on a discard: Concealed Hand 2 instead of Fully Concealed Hand 4.
    pytest.param(
        Case(
            SEED_48,
            46,
            [
                ("Pure Triple Chow", 24),
                ("All Fives", 16),
                ("Concealed Hand", 2),
                ("All Chows", 2),
                ("Mixed Double Chow", 1),
                ("One Voided Suit", 1),
            ],
        ),
        id="seed004-48-tiles-on-a-discard",
    ),
    # Seed 004 §2.1(9): Nine Gates on a discard (the seed lists no self-draw fan), each winning tile.
    *(
        pytest.param(
            Case({"concealed": NINE_GATES, "win": f"{n}m"}, fan, [("Nine Gates", 88), *extra]),
            id=f"seed004-nine-gates-{n}m-{fan}",
        )
        for n, fan, extra in [
            (1, 106, [("Pure Straight", 16), ("Tile Hog", 2)]),
            (9, 106, [("Pure Straight", 16), ("Tile Hog", 2)]),
            (2, 92, [("Two Concealed Pungs", 2), ("Short Straight", 1), ("Pung of Terminals or Honors", 1)]),
            (8, 92, [("Two Concealed Pungs", 2), ("Short Straight", 1), ("Pung of Terminals or Honors", 1)]),
            (5, 91, [("Two Concealed Pungs", 2), ("Pung of Terminals or Honors", 1)]),
            (3, 89, [("Short Straight", 1)]),
            (4, 89, [("Short Straight", 1)]),
            (6, 89, [("Short Straight", 1)]),
            (7, 89, [("Short Straight", 1)]),
        ]
    ),
    # Self-drawn: 2015 adds Self-Drawn 1 (107); 2006 would add Fully Concealed Hand 4 (110), seed 004 §2.1(2).
    pytest.param(
        Case(
            {"concealed": NINE_GATES, "win": "1m"},
            107,
            [("Nine Gates", 88), ("Pure Straight", 16), ("Tile Hog", 2), ("Self-Drawn", 1)],
            tsumo=True,
        ),
        id="nine-gates-1m-self-drawn-2015",
    ),
    pytest.param(Case(CHICKEN, 8, [("Chicken Hand", 8)]), id="chicken-hand-8"),
    pytest.param(
        Case(
            {"concealed": "34s789p11z", "win": "5s", "melds": ["chi 345m", "chi 345p"]}, 8, [("Mixed Triple Chow", 8)]
        ),
        id="mixed-triple-chow-8",
    ),
    pytest.param(Case({"concealed": "1133m2277p4466s1z", "win": "1z"}, 24, [("Seven Pairs", 24)]), id="seven-pairs-24"),
    # 2006 would give Fully Concealed Hand 4 (28), seed 004 §2.1(2).
    pytest.param(
        Case({"concealed": "1133m2277p4466s1z", "win": "1z"}, 25, [("Seven Pairs", 24), ("Self-Drawn", 1)], tsumo=True),
        id="seven-pairs-self-drawn-2015",
    ),
    pytest.param(
        Case({"concealed": "19m19p19s1234567z", "win": "1m"}, 88, [("Thirteen Orphans", 88)]), id="thirteen-orphans-88"
    ),
    pytest.param(
        Case(
            {"concealed": "99m11z", "win": "9m", "melds": ["pon 222m", "pon 666m", "pon 777z"]},
            15,
            [("All Pungs", 6), ("Half Flush", 6), ("Dragon Pung", 2), ("Pung of Terminals or Honors", 1)],
        ),
        id="all-pungs-half-flush",
    ),
    pytest.param(
        Case(
            {"concealed": "99m11z", "win": "9m", "melds": ["pon 222m", "pon 666m", "pon 777z"]},
            16,
            [
                ("All Pungs", 6),
                ("Half Flush", 6),
                ("Dragon Pung", 2),
                ("Pung of Terminals or Honors", 1),
                ("Self-Drawn", 1),
            ],
            tsumo=True,
        ),
        id="all-pungs-half-flush-self-drawn",
    ),
    # 555z 666z concealed, 777z completed on the discard: all three dragons map to the right codes.
    pytest.param(
        Case(
            {"concealed": "555z666z77z99m", "win": "7z", "melds": ["chi 123m"]},
            100,
            [("Big Three Dragons", 88), ("Half Flush", 6), ("Outside Hand", 4), ("Two Concealed Pungs", 2)],
        ),
        id="big-three-dragons",
    ),
    # 2015: All Green with the Green dragon is not also Half Flush; 2006 adds it (100), seed 004 §2.1(7).
    pytest.param(
        Case(
            {"concealed": "223344s666s888s6z", "win": "6z"},
            94,
            [
                ("All Green", 88),
                ("Concealed Hand", 2),
                ("Two Concealed Pungs", 2),
                ("Pure Double Chow", 1),
                ("Single Wait", 1),
            ],
        ),
        id="all-green-with-green-dragon-2015",
    ),
    pytest.param(
        Case(
            {"concealed": "5z", "win": "5z", "melds": ["chi 234m", "pon 777z", "chi 678p", "pon 999s"]},
            9,
            [("Melded Hand", 6), ("Dragon Pung", 2), ("Pung of Terminals or Honors", 1)],
        ),
        id="melded-hand-chi-pon",
    ),
    # One kan, one ankan: 5 in 2015, 6 in 2006 (seed 004 §2.1(18)). Both kongs are terminal pungs.
    pytest.param(
        Case(
            {"concealed": "5z", "win": "5z", "melds": ["kan 1111p", "ankan 9999s", "chi 234m", "pon 777z"]},
            10,
            [
                ("Concealed Kong and Melded Kong", 5),
                ("Dragon Pung", 2),
                ("Pung of Terminals or Honors", 1),
                ("Pung of Terminals or Honors", 1),
                ("Single Wait", 1),
            ],
        ),
        id="kan-ankan-chi-pon",
    ),
    # Two Concealed Kongs: 6 in 2015, 8 in 2006 (seed 004 §2.1(18)).
    pytest.param(
        Case(
            TWO_CONCEALED_KONGS,
            11,
            [
                ("Two Concealed Kongs", 6),
                ("Dragon Pung", 2),
                ("Pung of Terminals or Honors", 1),
                ("Pung of Terminals or Honors", 1),
                ("Single Wait", 1),
            ],
        ),
        id="two-concealed-kongs-2015",
    ),
    pytest.param(
        Case(
            with_(SEED_48, flags=["last_tile"]),
            52,
            [
                ("Pure Triple Chow", 24),
                ("All Fives", 16),
                ("Fully Concealed Hand", 4),
                ("Last Tile", 4),
                ("All Chows", 2),
                ("Mixed Double Chow", 1),
                ("One Voided Suit", 1),
            ],
            tsumo=True,
        ),
        id="flag-last-tile-4",
    ),
    # Out with Replacement Tile replaces Self-Drawn.
    pytest.param(
        Case(
            with_(TWO_CONCEALED_KONGS, flags=["kong"]),
            19,
            [
                ("Out with Replacement Tile", 8),
                ("Two Concealed Kongs", 6),
                ("Dragon Pung", 2),
                ("Pung of Terminals or Honors", 1),
                ("Pung of Terminals or Honors", 1),
                ("Single Wait", 1),
            ],
            tsumo=True,
        ),
        id="flag-kong-self-drawn-replacement-tile",
    ),
    pytest.param(
        Case(with_(CHICKEN, flags=["kong"]), 8, [("Robbing the Kong", 8)]), id="flag-kong-on-discard-robbing-the-kong"
    ),
    # The robbed tile is always the last of its kind, so Last Tile is not added (seed 004 §2.1(15)).
    pytest.param(
        Case(with_(CHICKEN, flags=["kong", "last_tile"]), 8, [("Robbing the Kong", 8)]),
        id="flag-robbing-the-kong-with-last-tile",
    ),
    pytest.param(
        Case(with_(CHICKEN, flags=["wall_last"]), 8, [("Last Tile Claim", 8)]), id="flag-wall-last-on-discard"
    ),
    # Last Tile Draw replaces Self-Drawn.
    pytest.param(
        Case(with_(CHICKEN, flags=["wall_last"]), 8, [("Last Tile Draw", 8)], tsumo=True),
        id="flag-wall-last-self-drawn",
    ),
    # The replacement for a kong comes from the wall's end (seed 002), so it can be the wall's last tile.
    pytest.param(
        Case(
            with_(TWO_CONCEALED_KONGS, flags=["kong", "wall_last"]),
            27,
            [
                ("Last Tile Draw", 8),
                ("Out with Replacement Tile", 8),
                ("Two Concealed Kongs", 6),
                ("Dragon Pung", 2),
                ("Pung of Terminals or Honors", 1),
                ("Pung of Terminals or Honors", 1),
                ("Single Wait", 1),
            ],
            tsumo=True,
        ),
        id="flag-kong-and-wall-last-self-drawn",
    ),
    pytest.param(
        Case(
            EAST_PUNG,
            27,
            [("Pure Straight", 16), ("Half Flush", 6), ("Prevalent Wind", 2), ("Seat Wind", 2), ("Closed Wait", 1)],
            winds=(1, 1),
        ),
        id="east-pung-east-seat-east-round",
    ),
    pytest.param(
        Case(
            EAST_PUNG,
            25,
            [("Pure Straight", 16), ("Half Flush", 6), ("Prevalent Wind", 2), ("Closed Wait", 1)],
            winds=(2, 1),
        ),
        id="east-pung-south-seat-east-round",
    ),
    pytest.param(
        Case(
            with_(EAST_PUNG, melds=["pon 222z", "chi 123m"]),
            25,
            [("Pure Straight", 16), ("Half Flush", 6), ("Seat Wind", 2), ("Closed Wait", 1)],
            winds=(2, 1),
        ),
        id="south-pung-south-seat-east-round",
    ),
    # A wind pung that is neither wind scores as a Pung of Terminals or Honors.
    pytest.param(
        Case(
            EAST_PUNG,
            24,
            [("Pure Straight", 16), ("Half Flush", 6), ("Pung of Terminals or Honors", 1), ("Closed Wait", 1)],
            winds=(2, 3),
        ),
        id="east-pung-south-seat-west-round",
    ),
    pytest.param(
        Case(
            EAST_PUNG,
            24,
            [("Pure Straight", 16), ("Half Flush", 6), ("Pung of Terminals or Honors", 1), ("Closed Wait", 1)],
            winds=(None, None),
        ),
        id="east-pung-no-winds",
    ),
]


@pytest.mark.parametrize("case", CASES)
def test_fan_of_real_hands(case: Case):
    seat, round_wind = case.winds
    found = score(case.tiles, tsumo=case.tsumo, seat=seat, round_wind=round_wind)
    assert sorted(found.items) == sorted(case.items)
    assert found.fan == case.fan == sum(value for _name, value in case.items)
    assert found.flowers == 0
    assert (found.han, found.fu, found.yakuman) == (0, None, 0)


def test_flowers_are_returned_apart_from_the_fan():
    found = score(with_(SEED_48, flowers=3), tsumo=True)
    assert (found.fan, found.flowers) == (48, 3)
    assert "Flower Tiles" not in dict(found.items)


def test_the_minimum_comes_from_the_ruleset():
    lower = Ruleset.build(base=MCR, overrides={"min_fan": 6})
    assert score(ALL_PUNGS_7, ruleset=lower).fan == 7


REFUSALS = [
    pytest.param({"concealed": "1234567m1234p11s", "win": "9s"}, False, "", ["not a winning hand"], id="not-a-win"),
    pytest.param(
        with_(ALL_PUNGS_7, flowers=8),
        False,
        "",
        ["7 fan (All Pungs 6, Pung of Terminals or Honors 1)", "below the 8-fan minimum", "flowers do not count"],
        id="7-fan-below-minimum",
    ),
    # Self-Drawn 1 means the hand is no longer a Chicken Hand.
    pytest.param(CHICKEN, True, "", ["1 fan (Self-Drawn 1)", "8-fan minimum"], id="chicken-self-drawn-1-fan"),
    pytest.param(with_(CHICKEN, flags=["last_tile"]), False, "", ["4 fan (Last Tile 4)"], id="chicken-last-tile-4-fan"),
    pytest.param(
        with_(SEED_48, concealed="555666777p505s6s"), True, "concealed", ["no red fives"], id="red-five-concealed"
    ),
    pytest.param(with_(SEED_48, win="0s"), True, "win", ["no red fives"], id="red-five-win"),
    pytest.param(
        with_(CHICKEN, melds=["chi 234m", "chi 406p", "pon 222s"]),
        False,
        "melds[1]",
        ["no red fives"],
        id="red-five-meld",
    ),
    pytest.param(with_(SEED_48, dora="3m"), True, "dora", ["MCR has no dora"], id="dora"),
    pytest.param(with_(SEED_48, ura="3m"), True, "ura", ["MCR has no ura"], id="ura"),
    pytest.param(with_(SEED_48, flowers=9), True, "flowers", ["9 flowers", "0 to 8"], id="nine-flowers"),
    pytest.param(with_(SEED_48, flowers=-1), True, "flowers", ["-1 flowers"], id="negative-flowers"),
    pytest.param(
        with_(CHICKEN, flags=["kong", "wall_last"]),
        False,
        "flags",
        ["Robbing the Kong", "Last Tile Claim", "cannot be both"],
        id="robbing-the-kong-and-last-claim",
    ),
    pytest.param(
        with_(CHICKEN, flags=["kong"]),
        True,
        "flags",
        ["Out with Replacement Tile", "kan or ankan"],
        id="replacement-tile-without-a-kong",
    ),
    pytest.param(
        {"concealed": "34s11z", "win": "5s", "melds": ["chi 234m", "chi 678p", "pon 555s"], "flags": ["kong"]},
        False,
        "flags",
        ["Robbing the Kong", "cannot hold another"],
        id="robbed-tile-also-in-the-hand",
    ),
    pytest.param(
        with_(SEED_48, win="5s", flags=["last_tile"]),
        True,
        "flags",
        ["5s is not the last of its kind"],
        id="last-tile-held-in-hand",
    ),
]


@pytest.mark.parametrize(("tiles", "tsumo", "where", "phrases"), REFUSALS)
def test_refusals(tiles: dict[str, Any], tsumo: bool, where: str, phrases: list[str]):
    with pytest.raises(Refusal) as caught:
        score(tiles, tsumo=tsumo)
    assert [p.field for p in caught.value.problems] == [where]
    for phrase in phrases:
        assert phrase in caught.value.problems[0].message


def test_a_fifth_copy_is_refused_even_past_the_reader():
    # The package would count it (Tile Hog 255 times); read_tile_hand refuses it first, the adapter again.
    seed = hand_of(SEED_48)
    five_s = Tile("s", 5)
    hand = dataclasses.replace(seed, concealed=(*seed.concealed[:-1], five_s), win=five_s)
    with pytest.raises(Refusal, match="5 copies of 5s"):
        score_mcr(hand, ruleset=MCR, context=WinContext(1, 1, dealer=False, tsumo=True, riichi=False))


@pytest.mark.parametrize(
    ("tiles", "phrase"),
    [
        pytest.param(
            with_(CHICKEN, melds=["chi 234m", "chi 678p", "chi 123z"]),
            "three consecutive tiles of one suit",
            id="chi-of-honors",
        ),
        pytest.param(
            {"concealed": "5555m", "win": "5m", "melds": ["pon 111z", "pon 222z", "pon 333z"]},
            "5 copies of 5m",
            id="five-copies",
        ),
    ],
)
def test_odd_input_the_package_accepts_is_refused_by_the_reader(tiles: dict[str, Any], phrase: str):
    with pytest.raises(Refusal, match=phrase):
        hand_of(tiles)
