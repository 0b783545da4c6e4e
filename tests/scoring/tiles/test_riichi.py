"""Riichi hands scored from their tiles (scoring.riichi_tiles), against the standard rules.

Each expected value is traced by hand in its comment: han from the yaku list of
docs/rules.md §2 (standard riichi yaku), fu from the standard fu rules (20 base; +10
for a closed ron; +2 tsumo except pinfu; kanchan/penchan/tanki +2; pair of a
dragon or own/round wind +2; triplets 2/4 open/closed simple, doubled for
terminals and honors, ×4 for kans; rounded up to 10; seven pairs 25; an open
hand with no fu at all is 30).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from rules.errors import Refusal
from rules.presets import build_ruleset, get_preset
from rules.ruleset import Ruleset
from scoring.tiles.notation import RIICHI_FLAGS, TileScore, WinContext, read_tile_hand
from scoring.tiles.riichi import score_riichi

WRC = get_preset("wrc-2025")  # kiriage, multiple yakuman, no kazoe
EMA = get_preset("ema-2016")  # no kiriage, yakuman capped at one, no kazoe
KAZOE = build_ruleset(key="wrc-2025", overrides={"kazoe_yakuman": True})


def ctx(
    *, seat: int | None = 2, round_wind: int | None = 1, dealer: bool = False, tsumo: bool = False, riichi: bool = False
) -> WinContext:
    return WinContext(seat_wind=seat, round_wind=round_wind, dealer=dealer, tsumo=tsumo, riichi=riichi)


def tiles(
    concealed: str, win: str, *melds: str, dora: str = "", ura: str = "", flags: tuple[str, ...] = ()
) -> dict[str, Any]:
    return {"concealed": concealed, "win": win, "melds": list(melds), "dora": dora, "ura": ura, "flags": list(flags)}


def score(raw: dict[str, Any], context: WinContext, ruleset: Ruleset = WRC) -> TileScore:
    return score_riichi(read_tile_hand(raw, flags=RIICHI_FLAGS), ruleset=ruleset, context=context)


# 234m 789m 345p 99p + 67s, a two-sided wait on 5s/8s: the pinfu shape.
PINFU = "234789m345p99p67s"
# 234m 678m 345p 55s + 13s: a closed wait (kanchan) on 2s.
KANCHAN = "234678m345p1355s"
# 22 33 44 55 66 77 88m, won on 2m: 234 234 567 567 + 88, 34m two-sided: pinfu, tanyao, ryanpeikou, chinitsu.
CHINITSU = "2334455667788m"

# (id, tiles, context, ruleset, han, fu, yakuman, item names expected among the items)
CASES: list[tuple[str, dict[str, Any], WinContext, Ruleset, int, int | None, int, tuple[str, ...]]] = [
    # riichi 1 + menzen tsumo 1 + pinfu 1; pinfu tsumo is 20 fu (no tsumo fu)
    (
        "pinfu-tsumo-20fu",
        tiles(PINFU, "8s"),
        ctx(tsumo=True, riichi=True),
        WRC,
        3,
        20,
        0,
        ("Riichi", "Menzen Tsumo", "Pinfu"),
    ),
    # riichi 1 + pinfu 1; closed ron 20 + 10 = 30 fu
    ("pinfu-ron-30fu", tiles(PINFU, "5s"), ctx(riichi=True), WRC, 2, 30, 0, ("Riichi", "Pinfu")),
    # chiitoitsu 2 han, always 25 fu
    ("chiitoitsu-25fu", tiles("1133m5577p2244s6z", "6z"), ctx(), WRC, 2, 25, 0, ("Chiitoitsu",)),
    # riichi 1; 30 (closed ron) + 2 kanchan = 32 → 40 fu
    ("closed-ron-kanchan-40fu", tiles(KANCHAN, "2s"), ctx(riichi=True), WRC, 1, 40, 0, ("Riichi",)),
    # open tanyao (kuitan) 1; 20 + no fu at all, open pinfu shape → 30 fu
    ("open-tanyao-30fu", tiles("678p345s66s56m", "7m", "chi 234m"), ctx(), WRC, 1, 30, 0, ("Tanyao",)),
    # yakuhai red dragon 1; 20 + open honor pon 4 = 24 → 30 fu
    ("yakuhai-pon-red", tiles("234m567p45s99s", "3s", "pon 777z"), ctx(), WRC, 1, 30, 0, ("Yakuhai (Red)",)),
    # riichi 1 + pinfu 1 + dora 2 (indicator 1s → 2s, pair 22s) + aka 1 (0p) + ura 1 (indicator 3m → 4m): 6 han
    (
        "dora-aka-ura-with-riichi",
        tiles("234m406p789s22s56m", "7m", dora="1s", ura="3m"),
        ctx(riichi=True),
        WRC,
        6,
        30,
        0,
        ("Riichi", "Pinfu", "Dora", "Aka Dora", "Ura Dora"),
    ),
    # the same tiles without riichi: pinfu 1 + dora 2 + aka 1; the ura indicator does not count
    (
        "ura-ignored-without-riichi",
        tiles("234m406p789s22s56m", "7m", dora="1s", ura="3m"),
        ctx(),
        WRC,
        4,
        30,
        0,
        ("Pinfu", "Dora", "Aka Dora"),
    ),
    # 4 han 30 fu is returned as such whatever kiriage says: the engine applies kiriage (docs/rules.md §2)
    ("4han-30fu-no-kiriage-ruleset", tiles("234m406p789s22s56m", "7m", dora="1s"), ctx(), EMA, 4, 30, 0, ()),
    # riichi 1 + ippatsu 1; kanchan 40 fu
    ("ippatsu", tiles(KANCHAN, "2s", flags=("ippatsu",)), ctx(riichi=True), WRC, 2, 40, 0, ("Riichi", "Ippatsu")),
    # double riichi 2 (instead of riichi) + pinfu 1
    (
        "double-riichi",
        tiles(PINFU, "5s", flags=("double_riichi",)),
        ctx(riichi=True),
        WRC,
        3,
        30,
        0,
        ("Double Riichi", "Pinfu"),
    ),
    # menzen tsumo 1 + pinfu 1 + haitei 1; 20 fu
    (
        "haitei",
        tiles(PINFU, "8s", flags=("haitei",)),
        ctx(tsumo=True),
        WRC,
        3,
        20,
        0,
        ("Menzen Tsumo", "Pinfu", "Haitei Raoyue"),
    ),
    # open hand, houtei 1 is its only yaku; open pinfu shape 30 fu
    ("houtei", tiles("456p789s22s34m", "5m", "chi 123m", flags=("houtei",)), ctx(), WRC, 1, 30, 0, ("Houtei Raoyui",)),
    # open kan of 8p, rinshan 1; 20 + open simple kan 8 + tsumo 2 = 30 fu
    (
        "rinshan",
        tiles("123m456s99s78m", "9m", "kan 8888p", flags=("rinshan",)),
        ctx(tsumo=True),
        WRC,
        1,
        30,
        0,
        ("Rinshan Kaihou",),
    ),
    # chankan 1 + pinfu 1; closed ron 30 fu
    ("chankan", tiles(PINFU, "5s", flags=("chankan",)), ctx(), WRC, 2, 30, 0, ("Chankan", "Pinfu")),
    # seat East + round East pon: yakuhai 1 + 1; 20 + open honor pon 4 → 30 fu
    (
        "seat-and-round-wind",
        tiles("234m567p45s99s", "3s", "pon 111z"),
        ctx(seat=1, dealer=True),
        WRC,
        2,
        30,
        0,
        ("Yakuhai (seat wind)", "Yakuhai (round wind)"),
    ),
    # South seat in the East round: a South pon is the seat wind only
    ("seat-wind-only", tiles("234m567p45s99s", "3s", "pon 222z"), ctx(seat=2), WRC, 1, 30, 0, ("Yakuhai (seat wind)",)),
    # North seat in the East round: an East pon is the round wind only
    (
        "round-wind-only",
        tiles("234m567p45s99s", "3s", "pon 111z"),
        ctx(seat=4),
        WRC,
        1,
        30,
        0,
        ("Yakuhai (round wind)",),
    ),
    # five-player Flower seat (no seat wind) in the South round: closed East triplet is no yakuhai;
    # riichi 1; 30 + closed honor triplet 8 = 38 → 40 fu
    (
        "flower-seat-no-wind-yakuhai",
        tiles("111z234m567p45s99s", "3s"),
        ctx(seat=None, round_wind=2, riichi=True),
        WRC,
        1,
        40,
        0,
        ("Riichi",),
    ),
    # pair of the double wind at 4 fu: riichi 1; 30 + closed terminal triplet 8 + double wind pair 4 = 42 → 50
    (
        "double-wind-pair-4fu",
        tiles("999m234p567p34s11z", "5s"),
        ctx(seat=1, dealer=True, riichi=True),
        WRC,
        1,
        50,
        0,
        ("Riichi",),
    ),
    # tsumo on a shanpon: four concealed triplets, yakuman
    ("suuankou-tsumo", tiles("111m88m333p555s99s", "9s"), ctx(tsumo=True), WRC, 0, None, 1, ("Suu Ankou",)),
    # ron on the same shanpon: the 9s triplet counts as open, so toitoi 2 + sanankou 2;
    # fu 30 + 1m closed terminal 8 + 3p, 5s closed simple 4 + 4 + 9s "open" terminal 4 = 50
    (
        "suuankou-shanpon-ron-is-sanankou",
        tiles("111m88m333p555s99s", "9s"),
        ctx(),
        WRC,
        4,
        50,
        0,
        ("Toitoi", "San Ankou"),
    ),
    # single wait on the pair: double yakuman where multiple yakuman count …
    ("suuankou-tanki-double", tiles("111m333p555s999s8m", "8m"), ctx(), WRC, 0, None, 2, ("Suu Ankou Tanki",)),
    # … and one yakuman where they do not
    ("suuankou-tanki-capped", tiles("111m333p555s999s8m", "8m"), ctx(), EMA, 0, None, 1, ("Suu Ankou Tanki",)),
    ("kokushi", tiles("19m19p19s1234566z", "7z"), ctx(), WRC, 0, None, 1, ("Kokushi Musou",)),
    ("kokushi-13-sided-double", tiles("19m19p19s1234567z", "1m"), ctx(), WRC, 0, None, 2, ()),
    ("kokushi-13-sided-capped", tiles("19m19p19s1234567z", "1m"), ctx(), EMA, 0, None, 1, ()),
    # big three dragons + all honors (ron on the shanpon: no suuankou): two yakuman stack …
    ("daisangen-tsuuiisou-stacked", tiles("5556667771122z", "1z"), ctx(), WRC, 0, None, 2, ("Daisangen", "Tsuu Iisou")),
    # … or cap at one, which the package does not do by itself
    ("daisangen-tsuuiisou-capped", tiles("5556667771122z", "1z"), ctx(), EMA, 0, None, 1, ("Daisangen", "Tsuu Iisou")),
    # dealer's first draw
    (
        "tenhou",
        tiles(PINFU, "8s", flags=("tenhou",)),
        ctx(seat=1, dealer=True, tsumo=True),
        WRC,
        0,
        None,
        1,
        ("Tenhou",),
    ),
    ("chiihou", tiles(PINFU, "8s", flags=("chiihou",)), ctx(tsumo=True), WRC, 0, None, 1, ("Chiihou",)),
    # riichi 1 + tsumo 1 + pinfu 1 + tanyao 1 + ryanpeikou 3 + chinitsu 6 = 13 han: kazoe yakuman where it counts …
    ("kazoe-yakuman", tiles(CHINITSU, "2m"), ctx(tsumo=True, riichi=True), KAZOE, 0, None, 1, ("Chinitsu",)),
    # … and a 13 han 20 fu hand (the engine caps it at sanbaiman) where it does not
    (
        "kazoe-not-counted",
        tiles(CHINITSU, "2m"),
        ctx(tsumo=True, riichi=True),
        WRC,
        13,
        20,
        0,
        ("Ryanpeikou", "Chinitsu"),
    ),
    # 12 han without riichi, the red 5m makes 13: kazoe counts red fives
    ("kazoe-with-aka", tiles("2334405667788m", "2m"), ctx(tsumo=True), KAZOE, 0, None, 1, ("Aka Dora",)),
]


@pytest.mark.parametrize(
    ("raw", "context", "ruleset", "han", "fu", "yakuman", "names"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_hand_value(
    raw: dict[str, Any],
    context: WinContext,
    ruleset: Ruleset,
    han: int,
    fu: int | None,
    yakuman: int,
    names: tuple[str, ...],
) -> None:
    result = score(raw, context, ruleset)
    assert (result.han, result.fu, result.yakuman) == (han, fu, yakuman)
    item_names = [name for name, _ in result.items]
    assert set(names) <= set(item_names)
    if not yakuman:
        assert sum(h for _, h in result.items) == han


def test_items_list_each_yaku_with_its_han() -> None:
    result = score(tiles("234m406p789s22s56m", "7m", dora="1s", ura="3m"), ctx(riichi=True))
    assert result.items == (("Riichi", 1), ("Pinfu", 1), ("Dora", 2), ("Aka Dora", 1), ("Ura Dora", 1))


def test_double_wind_pair_at_2_fu() -> None:
    """30 + 8 + 2 = 40 fu where the ruleset counts a double-wind pair as 2 fu (4 fu gives 50)."""
    if "double_wind_pair_fu" not in {f.name for f in dataclasses.fields(Ruleset)}:
        pytest.skip("Ruleset has no double_wind_pair_fu parameter yet")
    two_fu = dataclasses.replace(WRC, double_wind_pair_fu=2)  # type: ignore[call-arg, unused-ignore]
    result = score(tiles("999m234p567p34s11z", "5s"), ctx(seat=1, dealer=True, riichi=True), two_fu)
    assert (result.han, result.fu) == (1, 40)


# (id, tiles, context, field, a phrase of the message)
REFUSALS: list[tuple[str, dict[str, Any], WinContext, str, str]] = [
    ("not-a-winning-shape", tiles("123m456p789s1357z", "2z"), ctx(), "", "not a winning hand"),
    ("no-yaku-open-hand", tiles("456p789s22s34m", "5m", "chi 123m"), ctx(), "", "no yaku"),
    ("ippatsu-without-riichi", tiles(KANCHAN, "2s", flags=("ippatsu",)), ctx(), "flags", "ippatsu needs a riichi"),
    (
        "double-riichi-without-riichi",
        tiles(PINFU, "5s", flags=("double_riichi",)),
        ctx(),
        "flags",
        "double_riichi needs a riichi",
    ),
    ("haitei-on-a-ron", tiles(PINFU, "5s", flags=("haitei",)), ctx(), "flags", "haitei cannot be won by ron"),
    (
        "houtei-on-a-tsumo",
        tiles(PINFU, "5s", flags=("houtei",)),
        ctx(tsumo=True),
        "flags",
        "houtei cannot be won by tsumo",
    ),
    (
        "chankan-on-a-tsumo",
        tiles(PINFU, "5s", flags=("chankan",)),
        ctx(tsumo=True),
        "flags",
        "chankan cannot be won by tsumo",
    ),
    (
        "rinshan-on-a-ron",
        tiles("123m456s99s78m", "9m", "kan 8888p", flags=("rinshan",)),
        ctx(),
        "flags",
        "rinshan cannot be won by ron",
    ),
    ("rinshan-without-a-kan", tiles(PINFU, "5s", flags=("rinshan",)), ctx(tsumo=True), "flags", "has no kan"),
    (
        "riichi-with-an-open-meld",
        tiles("678p345s66s56m", "7m", "chi 234m"),
        ctx(riichi=True),
        "melds[0]",
        "a riichi hand is closed",
    ),
    (
        "tenhou-not-dealer",
        tiles(PINFU, "8s", flags=("tenhou",)),
        ctx(tsumo=True),
        "flags",
        "the winner is not the dealer",
    ),
    (
        "chiihou-for-the-dealer",
        tiles(PINFU, "8s", flags=("chiihou",)),
        ctx(seat=1, dealer=True, tsumo=True),
        "flags",
        "the dealer's is tenhou",
    ),
    (
        "tenhou-after-riichi",
        tiles(PINFU, "8s", flags=("tenhou",)),
        ctx(seat=1, dealer=True, tsumo=True, riichi=True),
        "flags",
        "first draw",
    ),
]


@pytest.mark.parametrize(
    ("raw", "context", "field", "phrase"), [case[1:] for case in REFUSALS], ids=[case[0] for case in REFUSALS]
)
def test_refused(raw: dict[str, Any], context: WinContext, field: str, phrase: str) -> None:
    with pytest.raises(Refusal) as caught:
        score(raw, context)
    assert any(p.field == field and phrase in p.message for p in caught.value.problems), caught.value.problems


def test_riichi_with_an_ankan_is_closed() -> None:
    """An ankan keeps the hand closed: riichi 1 + tsumo 1; 20 + closed terminal kan 32 + tsumo 2 = 54 → 60 fu."""
    result = score(tiles("234m567p45s99s", "3s", "ankan 9999m"), ctx(tsumo=True, riichi=True))
    assert (result.han, result.fu) == (2, 60)
