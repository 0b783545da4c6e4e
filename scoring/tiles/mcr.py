"""Score an MCR (Chinese Official) win from its tiles through ``pymahjonggb``.

Maps a ``TileHand`` and ``WinContext`` onto ``MahjongGB.MahjongFanCalculator``:
tiles to its codes, melds to its packs, the flags ``last_tile``, ``kong`` and
``wall_last`` to its win flags, the winds 1..4 to 0..3, and its fans back to
their English names, one item per count. Flowers stay out of the fan and the
items (the engine adds them).

The package checks little of what it is given and quietly fixes or drops
flags, so this adapter adds: refusals of red fives, dora/ura, a flower count
outside 0..8, a fifth copy of a tile, flags the tiles contradict, tiles that
are not a winning hand; and the ruleset's ``min_fan``, flowers not counted.

Rule version: where the 2006 Green Book and the 2015 rules differ (seed 004
§2.1) the package follows 2015, with no option: Two Concealed Kongs 6, a
concealed and a melded kong 5, Three/Four Kongs without the concealed-kong
fans, All Green without Half Flush, and a self-drawn Seven Pairs, Thirteen
Orphans, Nine Gates or Four Concealed Pungs scores Self-Drawn 1, not Fully
Concealed Hand 4.
"""

from __future__ import annotations

from collections import Counter
from types import ModuleType
from typing import Any

from rules.errors import Problem, Refusal
from rules.ruleset import Ruleset
from scoring.tiles.notation import Meld, Tile, TileHand, TileScore, WinContext, copy_problems


def _load_package() -> tuple[ModuleType | None, str]:
    """The compiled package, or why it is missing: a server without it still runs, scoring MCR by fan only."""
    try:
        import MahjongGB  # type: ignore[import-not-found]
    except (ImportError, OSError) as exc:
        return None, f"{type(exc).__name__}: {exc}"
    return MahjongGB, ""


_PACKAGE, UNAVAILABLE_BECAUSE = _load_package()

_SUIT_CODES = {"m": "W", "p": "B", "s": "T"}
# The package orders dragons Red, Green, White (中发白); the notation 5z-7z is White, Green, Red.
_HONOR_CODES = ("F1", "F2", "F3", "F4", "J3", "J2", "J1")
# The package's spellings that differ from the Green Book's English names.
_NAMES = {"All Five": "All Fives", "Robbing The Kong": "Robbing the Kong", "Two Dragons Pungs": "Two Dragon Pungs"}
MAX_FLOWERS = 8  # four flowers and four seasons


def score_mcr(hand: TileHand, *, ruleset: Ruleset, context: WinContext) -> TileScore:
    """The fans of a winning MCR hand; Refusal for tiles or flags that cannot be, or a win below the minimum."""
    if _PACKAGE is None:
        raise Refusal.one(
            "",
            "MCR scoring from tiles is not available on this server (pymahjonggb could not be "
            f"loaded: {UNAVAILABLE_BECAUSE}); enter the fan and flowers instead",
        )
    problems = _input_problems(hand) + _flag_problems(hand, tsumo=context.tsumo)
    if problems:
        raise Refusal(problems)
    items = _fans(hand, context)
    fan = sum(value for _name, value in items)
    if fan < ruleset.min_fan:
        found = ", ".join(f"{name} {value}" for name, value in items)
        raise Refusal.one(
            "", f"{fan} fan ({found}) is below the {ruleset.min_fan}-fan minimum; flowers do not count toward it"
        )
    return TileScore(fan=fan, flowers=hand.flowers, items=items)


def _input_problems(hand: TileHand) -> list[Problem]:
    problems: list[Problem] = []
    red = "MCR has no red fives: write the five as 5m, 5p or 5s, not 0"
    if any(t.red for t in hand.concealed):
        problems.append(Problem("concealed", red))
    if hand.win.red:
        problems.append(Problem("win", red))
    problems += [Problem(f"melds[{i}]", red) for i, meld in enumerate(hand.melds) if any(t.red for t in meld.tiles)]
    problems += [
        Problem(name, f"MCR has no {name}: leave it empty")
        for name, tiles in (("dora", hand.dora), ("ura", hand.ura))
        if tiles
    ]
    if not 0 <= hand.flowers <= MAX_FLOWERS:
        problems.append(
            Problem("flowers", f"{hand.flowers} flowers: a set has {MAX_FLOWERS} flower tiles, so 0 to {MAX_FLOWERS}")
        )
    # The package scores a fifth copy (Tile Hog 255 times) instead of refusing it.
    return problems + copy_problems(hand)


def _flag_problems(hand: TileHand, *, tsumo: bool) -> list[Problem]:
    """Flags the tiles contradict; the package would silently drop them or score both of a pair that excludes."""
    win = hand.win.kind
    in_concealed = sum(t.kind == win for t in hand.concealed)
    in_melds = sum(t.kind == win for m in hand.melds for t in m.tiles)
    problems: list[str] = []
    if "last_tile" in hand.flags and in_concealed:
        problems.append(
            f"last_tile: {hand.win} is not the last of its kind while the concealed tiles hold another {hand.win}"
        )
    if "kong" in hand.flags and tsumo and not any(m.kind in ("kan", "ankan") for m in hand.melds):
        problems.append(
            "kong on a self-drawn win is Out with Replacement Tile: the melds need the kong "
            "(kan or ankan) whose replacement tile won"
        )
    if "kong" in hand.flags and not tsumo:
        if in_concealed or in_melds:
            problems.append(
                f"kong on a win by discard is Robbing the Kong: the robbed {hand.win} is the fourth, "
                "three being in the robbed pung, so the hand cannot hold another"
            )
        if "wall_last" in hand.flags:
            problems.append(
                "kong and wall_last on a win by discard: Robbing the Kong wins on a tile added to a "
                "kong, Last Tile Claim on the final discard; one win cannot be both"
            )
    return [Problem("flags", message) for message in problems]


def _fans(hand: TileHand, context: WinContext) -> tuple[tuple[str, int], ...]:
    try:
        result = _calculate(
            pack=tuple(_pack(meld) for meld in hand.melds),
            hand=tuple(_code(t) for t in hand.concealed),
            winTile=_code(hand.win),
            flowerCount=0,
            isSelfDrawn=context.tsumo,
            is4thTile="last_tile" in hand.flags,
            isAboutKong="kong" in hand.flags,
            isWallLast="wall_last" in hand.flags,
            seatWind=_wind(context.seat_wind, hand),
            prevalentWind=_wind(context.round_wind, hand),
            verbose=True,
        )
    except TypeError as exc:
        # The package reports every refusal as a TypeError carrying an error code.
        if str(exc) == "ERROR_NOT_WIN":
            raise Refusal.one(
                "",
                "these tiles are not a winning hand: they make neither four sets and a pair "
                "nor a special hand (Seven Pairs, Thirteen Orphans, Nine Gates, Honors and "
                "Knitted Tiles, Knitted Straight)",
            ) from None
        raise Refusal.one("", f"pymahjonggb refused these tiles ({exc})") from None
    return tuple(
        (_NAMES.get(english, english), value) for value, count, _chinese, english in result for _ in range(count)
    )


def _calculate(**kwargs: Any) -> list[tuple[int, int, str, str]]:
    """The package's verbose result, typed: (fan value, times counted, Chinese name, English name)."""
    assert _PACKAGE is not None  # score_mcr refuses first when the package is missing
    return [
        (int(value), int(count), str(chinese), str(english))
        for value, count, chinese, english in _PACKAGE.MahjongFanCalculator(**kwargs)
    ]


def _code(tile: Tile) -> str:
    return _HONOR_CODES[tile.number - 1] if tile.suit == "z" else f"{_SUIT_CODES[tile.suit]}{tile.number}"


def _pack(meld: Meld) -> tuple[str, str, int]:
    """A meld as the package's (type, tile, offer); offer 0 means nobody gave it, which makes a kong concealed."""
    if meld.kind == "chi":
        # A chow is named by its middle tile; which of its tiles was claimed changes no fan.
        return ("CHI", _code(sorted(meld.tiles)[1]), 1)
    kind = "PENG" if meld.kind == "pon" else "GANG"
    return (kind, _code(meld.tiles[0]), 0 if meld.kind == "ankan" else 1)


def _wind(wind: int | None, hand: TileHand) -> int:
    """An honor number 1..4 as the package's 0..3; None gives a wind whose fan the hand cannot score."""
    if wind is not None:
        return wind - 1
    # A wind held fewer than three times makes no pung; all four held three times is Big Four Winds,
    # which scores no wind fan anyway.
    held = Counter(t.number for t in hand.all_tiles if t.suit == "z")
    return next((w - 1 for w in range(1, 5) if held[w] < 3), 0)
