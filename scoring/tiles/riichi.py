"""A riichi win's han and fu from its tiles, through the ``mahjong`` package (2.1).

The adapter maps a ``TileHand`` and the game's ``WinContext`` onto the
package's ``HandCalculator``: tiles in its 136-format, melds, dora and ura
indicators, and a ``HandConfig`` whose ``OptionalRules`` follow the ruleset
(``kiriage_mangan`` → kiriage, ``kazoe_yakuman`` → the kazoe limit,
``multiple_yakuman`` → double yakuman; open tanyao is always allowed, since
every preset plays kuitan). The package's han, fu and yaku are kept, as are its
fu for an open pinfu-shaped hand (30) and seven pairs (25), which are standard.

What the adapter adds, because the package does not do it the way the rules do:

- the win's circumstances are checked with a referee's words (riichi on an open
  hand, ippatsu without riichi, haitei on a ron, rinshan without a kan, tenhou
  for a non-dealer, …) before the package sees them;
- red fives are counted from the notation: the package only knows one red copy
  per suit, at a fixed index, and cannot tell a written ``5`` from a ``0``;
- a double-wind pair is worth 2 fu where the ruleset says so (the package
  always counts 4), re-rounded from the unrounded fu sum;
- yakuman are counted as the ruleset counts them: stacked yakuman capped at one
  without ``multiple_yakuman`` (the package only un-doubles the double ones),
  and 13+ han (red fives included) as one kazoe yakuman only where it counts.

The engine applies kiriage, the limits and ``min_han``/``yakuman_only`` from the
returned value, so none of that is repeated here.
"""

from __future__ import annotations

from collections import Counter

from mahjong.constants import EAST
from mahjong.hand_calculating.fu import FuCalculator
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.hand_response import HandResponse
from mahjong.hand_calculating.yaku_list import (
    Chun,
    Haku,
    Hatsu,
    RoundWindEast,
    RoundWindNorth,
    RoundWindSouth,
    RoundWindWest,
    SeatWindEast,
    SeatWindNorth,
    SeatWindSouth,
    SeatWindWest,
    UraDora,
)
from mahjong.meld import Meld as PackageMeld

from rules.errors import Problem, Refusal
from rules.ruleset import Ruleset
from scoring.tiles.notation import HONOR_NAMES, Tile, TileHand, TileScore, WinContext, copy_problems

_SUIT_OFFSET = {"m": 0, "p": 9, "s": 18, "z": 27}
_MELD_TYPES = {"chi": PackageMeld.CHI, "pon": PackageMeld.PON, "kan": PackageMeld.KAN, "ankan": PackageMeld.KAN}
_YAKUMAN_HAN = 13
# A referee reads "Yakuhai (seat wind)" better than the package's "Yakuhai (seat wind east)".
_NAMES = {
    **dict.fromkeys(
        (y.yaku_id for y in (SeatWindEast, SeatWindSouth, SeatWindWest, SeatWindNorth)), "Yakuhai (seat wind)"
    ),
    **dict.fromkeys(
        (y.yaku_id for y in (RoundWindEast, RoundWindSouth, RoundWindWest, RoundWindNorth)), "Yakuhai (round wind)"
    ),
    **{y.yaku_id: f"Yakuhai ({name})" for y, name in zip((Haku, Hatsu, Chun), HONOR_NAMES[4:], strict=True)},
}
_NOT_WINNING = (
    "these tiles are not a winning hand (they make neither four sets and a pair, "
    "nor seven pairs, nor the thirteen orphans)"
)
_NO_YAKU = "no yaku: a win needs at least one yaku (dora do not count)"
_TSUMO_ONLY = ("haitei", "rinshan", "tenhou", "chiihou")
_RON_ONLY = ("houtei", "chankan")
_FIRST_DRAW = ("tenhou", "chiihou")


def score_riichi(hand: TileHand, *, ruleset: Ruleset, context: WinContext) -> TileScore:
    """The value of a riichi win; Refusal with fields relative to the tiles object if it cannot be one."""
    problems = _win_problems(hand, context)
    if problems:
        raise Refusal(problems)
    result = _estimate(hand, ruleset, context)
    is_open = result.is_open_hand
    yaku = result.yaku or []
    items = [(_NAMES.get(y.yaku_id, y.name), y.han_open if is_open and y.han_open else y.han_closed) for y in yaku]

    yakuman = sum(han for y, (_, han) in zip(yaku, items, strict=True) if y.is_yakuman) // _YAKUMAN_HAN
    if yakuman:
        return TileScore(yakuman=yakuman if ruleset.multiple_yakuman else 1, items=tuple(items))

    red = sum(t.red for t in hand.all_tiles)
    if red:
        # Before ura dora, where the package would put it.
        at = next((i for i, y in enumerate(yaku) if y.yaku_id == UraDora.yaku_id), len(items))
        items.insert(at, ("Aka Dora", red))
    han = (result.han or 0) + red
    if han >= _YAKUMAN_HAN and ruleset.kazoe_yakuman:
        return TileScore(yakuman=1, items=tuple(items))
    return TileScore(han=han, fu=_fu(result, ruleset), items=tuple(items))


def _win_problems(hand: TileHand, context: WinContext) -> list[Problem]:
    """Circumstances that cannot go together; checked here so the referee reads why."""
    return [
        *_riichi_problems(hand, context),
        *_way_problems(hand.flags, context),
        *_kan_and_wall_problems(hand),
        *_first_draw_problems(hand, context),
    ]


def _riichi_problems(hand: TileHand, context: WinContext) -> list[Problem]:
    """A riichi hand has no open call; double riichi and ippatsu need a riichi."""
    open_melds = [i for i, meld in enumerate(hand.melds) if meld.is_open]
    if context.riichi and open_melds:
        first = open_melds[0]
        return [
            Problem(
                f"melds[{first}]",
                f"a riichi hand is closed, but this {hand.melds[first].kind} "
                "is an open call (only an ankan keeps the hand closed)",
            )
        ]
    if not context.riichi:
        return [
            Problem("flags", f"{flag} needs a riichi, and the winner did not declare riichi in this hand")
            for flag in ("double_riichi", "ippatsu")
            if flag in hand.flags
        ]
    return []


def _way_problems(flags: frozenset[str], context: WinContext) -> list[Problem]:
    """Flags of a tsumo on a ron and the other way round."""
    win = "tsumo" if context.tsumo else "ron"
    wrong_way = _RON_ONLY if context.tsumo else _TSUMO_ONLY
    return [
        Problem("flags", f"{flag} cannot be won by {win}: it is a {'ron' if context.tsumo else 'tsumo'} win")
        for flag in wrong_way
        if flag in flags
    ]


def _kan_and_wall_problems(hand: TileHand) -> list[Problem]:
    flags = hand.flags
    problems: list[Problem] = []
    if {"haitei", "rinshan"} <= flags:
        problems.append(
            Problem(
                "flags",
                "haitei and rinshan exclude each other: the replacement tile after a "
                "kan comes from the dead wall, not the last tile of the wall",
            )
        )
    if {"houtei", "chankan"} <= flags:
        problems.append(Problem("flags", "houtei and chankan exclude each other: a robbed kan is not a discard"))
    if "rinshan" in flags and not any(meld.kind in ("kan", "ankan") for meld in hand.melds):
        problems.append(
            Problem("flags", "rinshan is a win on the replacement tile after a kan, and this hand has no kan")
        )
    return problems


def _first_draw_problems(hand: TileHand, context: WinContext) -> list[Problem]:
    """Tenhou is the dealer's, chiihou a non-dealer's, and neither comes after a call or a riichi."""
    flags = hand.flags
    problems: list[Problem] = []
    if "tenhou" in flags and not context.dealer:
        problems.append(
            Problem(
                "flags",
                "tenhou is the dealer's win on the first draw; the winner is not the "
                "dealer (a non-dealer's is chiihou)",
            )
        )
    if "chiihou" in flags and context.dealer:
        problems.append(Problem("flags", "chiihou is a non-dealer's win on the first draw; the dealer's is tenhou"))
    for flag in _FIRST_DRAW:
        if flag not in flags:
            continue
        before = sorted(flags - {flag}) + (["riichi"] if context.riichi else []) + (["melds"] if hand.melds else [])
        if before:
            problems.append(
                Problem(
                    "flags",
                    f"{flag} is a win on the first draw, before any call or riichi: it "
                    f"cannot come with {', '.join(before)}",
                )
            )
    return problems


def _estimate(hand: TileHand, ruleset: Ruleset, context: WinContext) -> HandResponse:
    """The package's answer for this hand, its errors turned into Refusal."""
    # The 136-tile indices below hold four copies of each tile.
    problems = copy_problems(hand)
    if problems:
        raise Refusal(problems)

    used: Counter[int] = Counter()

    def take(tile: Tile) -> int:
        # Each physical tile needs its own 136-format index; which copy does not
        # matter, since red fives are counted here and not by the package.
        index = _index_34(tile)
        used[index] += 1
        return index * 4 + used[index] - 1

    win = take(hand.win)
    concealed = [take(t) for t in hand.concealed]
    melds = [
        PackageMeld(meld_type=_MELD_TYPES[m.kind], tiles=[take(t) for t in sorted(m.tiles)], opened=m.is_open)
        for m in hand.melds
    ]
    tiles = [win, *concealed, *(t for m in melds for t in m.tiles)]
    try:
        result = HandCalculator.estimate_hand_value(
            tiles,
            win,
            melds=melds,
            config=_config(hand, ruleset, context),
            dora_indicators=[_index_34(t) * 4 for t in hand.dora],
            ura_dora_indicators=[_index_34(t) * 4 for t in hand.ura],
        )
    except (RuntimeError, ValueError) as exc:  # the package's own guards; our input should never reach them
        raise Refusal.one("", f"these tiles could not be scored: {exc}") from exc
    if result.error == HandCalculator.ERR_HAND_NOT_WINNING:
        raise Refusal.one("", _NOT_WINNING)
    if result.error == HandCalculator.ERR_NO_YAKU:
        raise Refusal.one("", _NO_YAKU)
    if result.error:
        # Win-condition errors are caught by _win_problems first; this is a fallback.
        raise Refusal.one("flags", f"the riichi scoring refused this win ({result.error.replace('_', ' ')})")
    return result


def _config(hand: TileHand, ruleset: Ruleset, context: WinContext) -> HandConfig:
    flags = hand.flags
    double_riichi = "double_riichi" in flags
    options = OptionalRules(
        has_open_tanyao=True,
        has_aka_dora=False,  # counted by the adapter, see the module docstring
        has_double_yakuman=ruleset.multiple_yakuman,
        kazoe_limit=HandConstants.KAZOE_LIMITED if ruleset.kazoe_yakuman else HandConstants.KAZOE_SANBAIMAN,
        kiriage=ruleset.kiriage_mangan,
        fu_for_open_pinfu=True,  # no 1 han 20 fu: an open pinfu shape is 30 fu
        fu_for_pinfu_tsumo=False,  # pinfu tsumo is 20 fu
    )
    config = HandConfig(
        is_tsumo=context.tsumo,
        is_riichi=context.riichi and not double_riichi,
        is_daburu_riichi=context.riichi and double_riichi,
        is_ippatsu="ippatsu" in flags,
        is_rinshan="rinshan" in flags,
        is_chankan="chankan" in flags,
        is_haitei="haitei" in flags,
        is_houtei="houtei" in flags,
        is_tenhou="tenhou" in flags,
        is_chiihou="chiihou" in flags,
        player_wind=_wind(context.seat_wind),
        round_wind=_wind(context.round_wind),
        options=options,
    )
    # The package takes the dealer to be the East seat; the game knows better.
    config.is_dealer = context.dealer
    return config


def _fu(result: HandResponse, ruleset: Ruleset) -> int | None:
    """The package's fu, or with a 2-fu double-wind pair where the ruleset says so."""
    details = result.fu_details or []
    double_wind = any(d["reason"] == FuCalculator.DOUBLE_VALUED_PAIR for d in details)
    if double_wind and ruleset.double_wind_pair_fu == 2:
        unrounded = sum(d["fu"] for d in details) - 2
        return -(-unrounded // 10) * 10
    return result.fu


def _wind(wind: int | None) -> int | None:
    """An honor number (1 = East … 4 = North) as the package's tile index; None stays no wind."""
    return None if wind is None else EAST + wind - 1


def _index_34(tile: Tile) -> int:
    return _SUIT_OFFSET[tile.suit] + tile.number - 1
