"""The tile notation of a score sheet (docs/score-sheet.md "Tiles"), read into plain values.

Both tile adapters (``riichi_tiles`` over the ``mahjong`` package and
``mcr_tiles`` over ``pymahjonggb``) start from a ``TileHand``, so the notation
and its errors are the same whatever the scoring model: digits then the suit
letter (m, p, s, z), ``0`` a red five, melds written ``chi 345m``,
``pon 777z``, ``kan 1111p`` (open) or ``ankan 9999s``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.errors import Problem, Refusal

SUITS = "mpsz"
HONOR_NAMES = ("East", "South", "West", "North", "White", "Green", "Red")
MELD_KINDS = ("chi", "pon", "kan", "ankan")
HAND_TILES = 14  # a winning hand: its concealed tiles, the winning tile and 3 for each called set
COPIES = 4  # of each tile in a set
# What each scoring model can be told about how the hand was won.
RIICHI_FLAGS = ("double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei", "tenhou", "chiihou")
MCR_FLAGS = ("last_tile", "kong", "wall_last")

_GROUP = re.compile(r"(\d+)([mpsz])")


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    suit: str  # m, p, s or z
    number: int  # 1-9; honors 1-7 = East, South, West, North, White, Green, Red
    red: bool = False

    @property
    def kind(self) -> tuple[str, int]:
        """The tile without its colour: a red five is a five."""
        return (self.suit, self.number)

    def __str__(self) -> str:
        return f"{0 if self.red else self.number}{self.suit}"


@dataclass(frozen=True, slots=True)
class Meld:
    kind: str  # chi, pon, kan (open), ankan (concealed)
    tiles: tuple[Tile, ...]

    @property
    def is_open(self) -> bool:
        return self.kind != "ankan"


@dataclass(frozen=True, slots=True)
class TileHand:
    """A winning hand as typed: concealed tiles without the winning tile, the winning tile, the sets called."""

    concealed: tuple[Tile, ...]
    win: Tile
    melds: tuple[Meld, ...]
    dora: tuple[Tile, ...]
    ura: tuple[Tile, ...]
    flags: frozenset[str]
    flowers: int

    @property
    def all_tiles(self) -> tuple[Tile, ...]:
        return (*self.concealed, self.win, *(t for m in self.melds for t in m.tiles))


def parse_tiles(text: str, field: str) -> tuple[Tile, ...]:
    """``"234m0p77z"`` -> tiles; Refusal naming ``field`` for anything else."""
    compact = text.replace(" ", "")
    tiles: list[Tile] = []
    position = 0
    for match in _GROUP.finditer(compact):
        if match.start() != position:
            break
        digits, suit = match.groups()
        for digit in digits:
            number = int(digit)
            if suit == "z" and not 1 <= number <= 7:
                raise Refusal.one(
                    field, f"{digit}z is not a tile: honors are 1z to 7z (East, South, West, North, White, Green, Red)"
                )
            tiles.append(Tile(suit, number or 5, red=number == 0))
        position = match.end()
    if position != len(compact):
        raise Refusal.one(
            field, f"{text!r} is not in tile notation: digits then the suit letter (m, p, s or z), such as 234m456p77z"
        )
    return tuple(tiles)


def parse_meld(text: str, field: str) -> Meld:
    """``"pon 777z"`` -> a checked Meld."""
    parts = text.split()
    if len(parts) != 2 or parts[0] not in MELD_KINDS:
        raise Refusal.one(field, f"{text!r} is not a meld: write chi 345m, pon 777z, kan 1111p or ankan 9999s")
    kind, tiles = parts[0], parse_tiles(parts[1], field)
    kinds = sorted(t.kind for t in tiles)
    if kind == "chi":
        suit = kinds[0][0] if kinds else "z"
        ok = (
            len(kinds) == 3
            and suit != "z"
            and all(k[0] == suit for k in kinds)
            and [k[1] for k in kinds] == list(range(kinds[0][1], kinds[0][1] + 3))
        )
        if not ok:
            raise Refusal.one(field, f"{text!r}: a chi is three consecutive tiles of one suit, such as chi 345m")
    else:
        size = 3 if kind == "pon" else 4
        if len(kinds) != size or len(set(kinds)) != 1:
            raise Refusal.one(field, f"{text!r}: a {kind} is {size} identical tiles")
    return Meld(kind, tiles)


def copy_problems(hand: TileHand, *, max_copies: int = COPIES) -> list[Problem]:
    """More copies of a tile than a set holds; both packages would score such a hand instead of refusing it."""
    copies = Counter(t.kind for t in hand.all_tiles)
    return [
        Problem("concealed", f"{count} copies of {number}{suit}: a set has {max_copies}")
        for (suit, number), count in sorted(copies.items())
        if count > max_copies
    ]


def _count_problems(hand: TileHand) -> list[Problem]:
    in_hand = len(hand.concealed) + 1 + 3 * len(hand.melds)
    if in_hand == HAND_TILES:
        return []
    return [
        Problem(
            "concealed",
            f"the hand has {in_hand} tiles counting each meld as 3 and the "
            f"winning tile; a winning hand has {HAND_TILES} ({len(hand.concealed)} concealed + 1 "
            f"winning tile + {len(hand.melds)} melds)",
        )
    ]


def read_tile_hand(raw: Mapping[str, Any], *, flags: tuple[str, ...], max_copies: int = COPIES) -> TileHand:
    """Check a sheet's ``tiles`` object; problems are named relative to it (``concealed``, ``melds[1]``, …)."""
    problems: list[Problem] = []

    def attempt(field: str, parse: Any, *args: Any) -> Any:
        try:
            return parse(*args, field)
        except Refusal as exc:
            problems.extend(exc.problems)
            return None

    concealed = attempt("concealed", parse_tiles, raw.get("concealed", ""))
    win = attempt("win", parse_tiles, raw.get("win", ""))
    if win is not None and len(win) != 1:
        problems.append(Problem("win", f"is one tile, such as 8s (got {len(win)})"))
    melds = [attempt(f"melds[{i}]", parse_meld, text) for i, text in enumerate(raw.get("melds", []))]
    dora = attempt("dora", parse_tiles, raw.get("dora", ""))
    ura = attempt("ura", parse_tiles, raw.get("ura", ""))
    given_flags = raw.get("flags", [])
    problems += [
        Problem(f"flags[{i}]", f"unknown flag {flag!r}; this game's flags are: " + ", ".join(flags))
        for i, flag in enumerate(given_flags)
        if flag not in flags
    ]
    if problems:
        raise Refusal(problems)

    hand = TileHand(
        concealed=concealed,
        win=win[0],
        melds=tuple(melds),
        dora=dora,
        ura=ura,
        flags=frozenset(given_flags),
        flowers=int(raw.get("flowers", 0)),
    )
    problems += _count_problems(hand) + copy_problems(hand, max_copies=max_copies)
    if problems:
        raise Refusal(problems)
    return hand


@dataclass(frozen=True, slots=True)
class WinContext:
    """What the tiles do not say about a win; the game's state does."""

    seat_wind: int | None  # the winner's seat wind as an honor number (1 = East … 4 = North); None off E-S-W-N
    round_wind: int | None  # the round wind, likewise (None for the five-player Flower round)
    dealer: bool
    tsumo: bool
    riichi: bool  # the winner declared riichi in this hand


@dataclass(frozen=True, slots=True)
class TileScore:
    """A hand's value as computed from its tiles, in the engine's terms."""

    han: int = 0  # riichi, dora included; 0 for a yakuman
    fu: int | None = None
    yakuman: int = 0  # riichi: how many yakuman (a kazoe yakuman counts 1)
    fan: int = 0  # MCR, flowers not included
    flowers: int = 0
    items: tuple[tuple[str, int], ...] = ()  # riichi yaku (name, han) or MCR fans (name, fan), one per count
