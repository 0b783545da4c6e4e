"""The hand record: one hand as a score sheet writes it (docs/score-sheet.md "Input"), declared once.

``HandRecord`` and ``WinRecord`` are the type the code passes around; each
field's ``Annotated`` spec says what it holds, which results take it and which
scoring model offers it. Everything that describes a hand elsewhere is
derived from these two declarations through ``hand_fields``/``win_fields``:
the JSON Schema (``scoring.sheet.schema``), the fields the reader allows per
result (``allowed_fields``), the referee's entry form and the API serializer.
A new outcome field is added here and nowhere else.

Players are named by the sheet's names in a score sheet and by player id
when stored: ``PlayerRef`` is either.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Annotated, Any, NotRequired, Required, TypedDict, cast, get_args, get_origin, get_type_hints

from rules.hand_value import VALID_FU
from rules.hands import ABORT_REASONS, Outcome
from rules.mcr import FALSE_WINS_EACH
from rules.solo import MAX_DRAWS

PlayerRef = str | int


class Kind(StrEnum):
    """What a field holds, which decides its schema, its form widget and its API type."""

    OUTCOME = "outcome"
    PLAYER = "player"
    PLAYERS = "players"
    COUNT = "count"
    DRAWS = "draws"  # the solo game's draw counter
    FU = "fu"
    TILES = "tiles"
    WINS = "wins"
    REASON = "reason"
    TEXT = "text"


class Model(StrEnum):
    """Which scoring model offers a field (the ruleset's ``scoring``); ``BOTH`` for every game."""

    BOTH = "both"
    RIICHI = "riichi"
    MCR = "mcr"
    SOLO = "solo"


WINS_TAKEN = frozenset({Outcome.RON, Outcome.TSUMO})
VALUED = WINS_TAKEN | {Outcome.TENPAI}  # the results that carry a hand's value: a win, a solo attempt's tenpai hand
EVERY_RESULT = frozenset(Outcome)
FU_MINIMUM, FU_MAXIMUM = VALID_FU[0], VALID_FU[-1]  # the smallest and largest fu a hand can have (docs/rules.md §2)
# Bounds the rules do not give, so that no entry is beyond a real hand (docs/bounds.md).
# Any han from 13 up is "13 or more" (kazoe yakuman, or sanbaiman without it: the ruleset decides); the han
# written stays as written (a log's 15 han is shown as 15 han, kazoe yakuman). Tools and logs count dora past
# 13, so the bound only keeps out numbers no hand reaches: two digits, above any hand ever recorded.
HAN_MAXIMUM = 99
YAKUMAN_MAXIMUM = 6  # the most ever counted on one hand (a sextuple yakuman)
FAN_MAXIMUM = 1000  # MCR: far above any real hand's fan (a few hundred at the very most)
FLOWERS_MAXIMUM = 8  # the eight flower and season tiles
NOTE_LENGTH = 500  # characters of a referee's note


@dataclass(frozen=True, slots=True)
class Spec:
    """One field of a hand record."""

    kind: Kind
    help: str
    results: frozenset[Outcome] = WINS_TAKEN  # the results that take the field
    model: Model = Model.BOTH  # the games whose entry form offers it (a sheet may carry it in any game)
    required_for: frozenset[Outcome] = frozenset()  # results for which it must be given
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = None  # text: the most characters (printable ones only, scoring.sheet.document)
    in_win: bool = False  # part of one winner's win: also allowed in a ron's ``wins`` entries
    each: int = 1  # players: how many times one player may be listed


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    spec: Spec


_WINNER = Spec(Kind.PLAYER, "the player who won", required_for=frozenset({Outcome.TSUMO}), in_win=True)
_HAN = Spec(
    Kind.COUNT,
    "riichi: han, dora included (from 13: kazoe yakuman, or sanbaiman)",
    results=VALUED,
    model=Model.RIICHI,
    minimum=1,
    maximum=HAN_MAXIMUM,
    in_win=True,
)
_FU = Spec(
    Kind.FU,
    "riichi: fu (may be left out from 5 han)",
    results=VALUED,
    model=Model.RIICHI,
    minimum=FU_MINIMUM,
    maximum=FU_MAXIMUM,
    in_win=True,
)
_YAKUMAN = Spec(
    Kind.COUNT,
    "riichi: number of yakuman (2 = double)",
    results=VALUED,
    model=Model.RIICHI,
    minimum=1,
    maximum=YAKUMAN_MAXIMUM,
    in_win=True,
)
_FAN = Spec(Kind.COUNT, "MCR: fan without flowers", model=Model.MCR, minimum=0, maximum=FAN_MAXIMUM, in_win=True)
_FLOWERS = Spec(
    Kind.COUNT, "MCR: flower tiles, 1 fan each", model=Model.MCR, minimum=0, maximum=FLOWERS_MAXIMUM, in_win=True
)
_PAO = Spec(Kind.PLAYER, "the player liable for a fed yakuman", model=Model.RIICHI, in_win=True)
_TILES = Spec(
    Kind.TILES,
    "the winning hand's tiles, to compute its value (docs/score-sheet.md 'Tiles'); solo: the 13 "
    "tenpai tiles and, as win, the tile they wait on",
    results=VALUED,
    in_win=True,
)


class TilesRecord(TypedDict, total=False):
    """A win's tiles (docs/score-sheet.md "Tiles"); ``scoring.tiles.notation`` reads them."""

    concealed: Required[str]
    win: Required[str]
    melds: list[str]
    dora: str
    ura: str
    flags: list[str]
    flowers: int


class ValueRecord(TypedDict, total=False):
    """A win's value as written: han and fu or yakuman, MCR's fan and flowers, the liable player, or the tiles."""

    han: Annotated[int, _HAN]
    fu: Annotated[int, _FU]
    yakuman: Annotated[int, _YAKUMAN]
    fan: Annotated[int, _FAN]
    flowers: Annotated[int, _FLOWERS]
    pao: Annotated[PlayerRef, _PAO]
    tiles: Annotated[TilesRecord, _TILES]


class WinRecord(ValueRecord, total=False):
    """One winner of a multiple ron: who won and the value (or tiles) of the win."""

    winner: Required[Annotated[PlayerRef, _WINNER]]


class HandRecord(ValueRecord, total=False):
    """One hand as the referee writes it down."""

    result: Required[
        Annotated[
            str,
            Spec(
                Kind.OUTCOME,
                "how the hand ended (solo: how the attempt ended, tenpai if left out)",
                results=EVERY_RESULT,
            ),
        ]
    ]
    draws: Annotated[
        int,
        Spec(
            Kind.DRAWS,
            f"solo: the draws after the 14 dealt tiles until tenpai, 0 to "
            f"{MAX_DRAWS} (34 tiles less the 14 dealt and the dead wall of 2)",
            results=frozenset({Outcome.TENPAI}),
            model=Model.SOLO,
            required_for=frozenset({Outcome.TENPAI}),
            minimum=0,
        ),
    ]
    winner: NotRequired[Annotated[PlayerRef, _WINNER]]
    loser: Annotated[
        PlayerRef,
        Spec(
            Kind.PLAYER,
            "ron: the player who dealt in",
            results=frozenset({Outcome.RON}),
            required_for=frozenset({Outcome.RON}),
        ),
    ]
    wins: Annotated[
        list[WinRecord],
        Spec(
            Kind.WINS,
            "a multiple ron: one entry per player who called ron; where "
            "the ruleset's multiple_ron head-bumps a call, the result keeps it with "
            "stood false and bumped_by the player paid",
            results=frozenset({Outcome.RON}),
        ),
    ]
    riichi: Annotated[
        Sequence[PlayerRef],
        Spec(Kind.PLAYERS, "players who put a riichi stick out in this hand", results=EVERY_RESULT, model=Model.RIICHI),
    ]
    tenpai: Annotated[
        Sequence[PlayerRef],
        Spec(Kind.PLAYERS, "draw: players tenpai", results=frozenset({Outcome.DRAW}), model=Model.RIICHI),
    ]
    nagashi: Annotated[
        Sequence[PlayerRef],
        Spec(Kind.PLAYERS, "draw: players with nagashi mangan", results=frozenset({Outcome.DRAW}), model=Model.RIICHI),
    ]
    reason: Annotated[str, Spec(Kind.REASON, "abort: why", results=frozenset({Outcome.ABORT}), model=Model.RIICHI)]
    player: Annotated[
        PlayerRef,
        Spec(
            Kind.PLAYER,
            "chombo: the offender",
            results=frozenset({Outcome.CHOMBO}),
            model=Model.RIICHI,
            required_for=frozenset({Outcome.CHOMBO}),
        ),
    ]
    false_wins: Annotated[
        Sequence[PlayerRef],
        Spec(
            Kind.PLAYERS,
            "MCR: players charged a false win in this hand, once "
            "per false win (a player charged twice is listed twice)",
            results=frozenset({Outcome.RON, Outcome.TSUMO, Outcome.DRAW}),
            model=Model.MCR,
            each=FALSE_WINS_EACH,
        ),
    ]
    false_wins_live: Annotated[
        Sequence[PlayerRef],
        Spec(
            Kind.PLAYERS,
            "MCR: players of false_wins whose hand is not "
            "dead: they play on and may still win the hand (the referee's "
            "choice; the ruleset's false_win_dead_hand otherwise)",
            results=WINS_TAKEN,
            model=Model.MCR,
        ),
    ]
    note: Annotated[
        str, Spec(Kind.TEXT, "a referee's remark; not scored", results=EVERY_RESULT, max_length=NOTE_LENGTH)
    ]


REASONS: tuple[str, ...] = tuple(ABORT_REASONS)


def _fields(record: type[Any]) -> tuple[Field, ...]:
    out = []
    for name, hint in get_type_hints(record, include_extras=True).items():
        while get_origin(hint) in (Required, NotRequired):
            hint = get_args(hint)[0]
        specs = [arg for arg in getattr(hint, "__metadata__", ()) if isinstance(arg, Spec)]
        if specs:
            out.append(Field(name, specs[0]))
    order = list(_ORDER)
    return tuple(sorted(out, key=lambda f: order.index(f.name) if f.name in order else len(order)))


# The order fields are listed in (schema, form, API): the order a referee reads a hand in.
_ORDER = (
    "result",
    "draws",
    "winner",
    "loser",
    "han",
    "fu",
    "yakuman",
    "fan",
    "flowers",
    "pao",
    "tiles",
    "wins",
    "riichi",
    "tenpai",
    "nagashi",
    "reason",
    "player",
    "false_wins",
    "false_wins_live",
    "note",
)


@cache
def hand_fields() -> tuple[Field, ...]:
    """Every field of a hand record, in reading order."""
    return _fields(HandRecord)


@cache
def win_fields() -> tuple[Field, ...]:
    """The fields of one win in a multiple ron's ``wins``."""
    return _fields(WinRecord)


@cache
def allowed_fields() -> dict[Outcome, frozenset[str]]:
    """The fields each result may carry."""
    return {outcome: frozenset(f.name for f in hand_fields() if outcome in f.spec.results) for outcome in Outcome}


def player_fields() -> tuple[frozenset[str], frozenset[str]]:
    """The names of the fields that hold one player, and of those that hold a list of players."""
    fields = (*hand_fields(), *win_fields())
    return (
        frozenset(f.name for f in fields if f.spec.kind is Kind.PLAYER),
        frozenset(f.name for f in fields if f.spec.kind is Kind.PLAYERS),
    )


def with_win(hand: HandRecord, win: ValueRecord) -> HandRecord:
    """The hand with a single win written on it, as a sheet writes a tsumo or a single ron (a win's fields are
    all hand fields: the type checker cannot see it through ``**``)."""
    return cast(HandRecord, {**hand, **win})


def map_players(record: HandRecord, convert: Callable[[Any], Any]) -> HandRecord:
    """The record with every player reference passed through ``convert`` (names <-> ids <-> seats)."""
    return cast(HandRecord, _mapped(record, convert))  # the same fields, only the players named otherwise


def _mapped(record: Mapping[str, Any], convert: Callable[[Any], Any]) -> dict[str, Any]:
    one, many = player_fields()
    out: dict[str, Any] = {}
    for key, value in record.items():
        if key in one:
            out[key] = convert(value)
        elif key in many and isinstance(value, list):
            out[key] = [convert(v) for v in value]
        elif key == "wins" and isinstance(value, list):
            out[key] = [_mapped(w, convert) if isinstance(w, Mapping) else w for w in value]
        else:
            out[key] = value
    return out
