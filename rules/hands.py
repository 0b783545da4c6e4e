"""What a referee writes down for one hand, as the engine takes it.

Players are numbers: their place in the game's player list (0 = the first
dealer). Seats can change during an MCR game; players never do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Outcome(StrEnum):
    """How a hand ended: ``Settlement.kind``."""

    RON = "ron"
    TSUMO = "tsumo"
    DRAW = "draw"  # exhaustive draw
    ABORT = "abort"  # abortive draw
    CHOMBO = "chombo"
    # The solo race to tenpai (seed 001 "1인 마작"): an attempt reached tenpai, or the wall ran out first.
    TENPAI = "tenpai"
    NOTEN = "noten"


SOLO_RESULTS = frozenset({Outcome.TENPAI, Outcome.NOTEN})


class AbortReason(StrEnum):
    """Why a hand was aborted (docs/rules.md §3; a triple ron where multiple_ron aborts it, seed 000 §3.5).

    Under seed 001's rule 0 for N players, four_winds stands for the first N discards of one wind and
    four_riichi for all N players in riichi; all_others_ron is N - 1 rons on one discard.
    """

    NINE_TERMINALS = "nine_terminals"
    FOUR_WINDS = "four_winds"
    FOUR_RIICHI = "four_riichi"
    FOUR_KANS = "four_kans"
    TRIPLE_RON = "triple_ron"
    ALL_OTHERS_RON = "all_others_ron"


class PaymentReason(StrEnum):
    """What one payment is for."""

    HAND = "hand"
    HONBA = "honba"
    PAO = "pao"
    RIICHI = "riichi"  # a stick put on the table
    DEPOSITS = "deposits"  # the sticks on the table taken by a winner
    NOTEN = "noten"
    NAGASHI = "nagashi"
    CHOMBO = "chombo"
    FALSE_WIN = "false_win"  # MCR


class Limit(StrEnum):
    """The named limit hands (docs/rules.md §2); a counted multiple yakuman is written "2x yakuman", …"""

    MANGAN = "mangan"
    HANEMAN = "haneman"
    BAIMAN = "baiman"
    SANBAIMAN = "sanbaiman"
    YAKUMAN = "yakuman"
    KAZOE_YAKUMAN = "kazoe yakuman"


@dataclass(frozen=True, slots=True)
class Win:
    """One winner's hand: han/fu, a yakuman count, or MCR fan (+ flowers)."""

    winner: int
    han: int = 0
    fu: int | None = None
    yakuman: int = 0
    fan: int = 0
    flowers: int = 0
    pao: int | None = None
    # A win typed as tiles: the score sheet's tile hand, valued before the hand
    # is settled (the engine never reads it, so it stays free of tile packages).
    tiles: object | None = None
    # What the value was made of when computed from tiles: (yaku or fan name, han or fan).
    items: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Ron:
    """A win on a discard; several ``wins`` when more than one player called it."""

    loser: int
    wins: tuple[Win, ...]
    riichi: frozenset[int] = frozenset()
    false_wins: tuple[int, ...] = ()  # one entry per false win: a player charged twice is there twice
    false_wins_live: frozenset[int] = frozenset()  # of them, those who play on (not a dead hand)


@dataclass(frozen=True, slots=True)
class Tsumo:
    win: Win
    riichi: frozenset[int] = frozenset()
    false_wins: tuple[int, ...] = ()
    false_wins_live: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Draw:
    """Exhaustive draw: who was tenpai, and who made nagashi mangan."""

    tenpai: frozenset[int] = frozenset()
    nagashi: tuple[int, ...] = ()
    riichi: frozenset[int] = frozenset()
    false_wins: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Abort:
    # As the referee wrote it: check_hand refuses anything but an AbortReason.
    reason: str | None = None
    riichi: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Chombo:
    player: int
    riichi: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Attempt:
    """One attempt of the solo race to tenpai (rules.solo): the draws it took and the tenpai hand's value
    (``win``, its winner the only player); no ``win`` when the wall ran out before tenpai (noten)."""

    draws: int
    win: Win | None = None
    riichi: frozenset[int] = frozenset()  # always empty: the hand results share the field (rules.solo says why)


HandResult = Ron | Tsumo | Draw | Abort | Chombo | Attempt

# The reasons as plain strings, for the score sheet's schema and the referee's form.
ABORT_REASONS = tuple(reason.value for reason in AbortReason)


@dataclass(frozen=True, slots=True)
class Payment:
    """One movement of points. ``None`` on either side is the table (riichi deposits)."""

    payer: int | None
    payee: int | None
    amount: int
    reason: PaymentReason


@dataclass(frozen=True, slots=True)
class WinOutcome:
    """How a win was valued and whether it stood (a head-bumped win does not)."""

    winner: int
    han: int
    fu: int | None
    yakuman: int
    base: int
    limit: str | None  # a Limit, or "2x yakuman", "3x yakuman", … for a counted multiple yakuman
    fan: int = 0  # MCR, without flowers
    flowers: int = 0
    stood: bool = True
    items: tuple[tuple[str, int], ...] = ()  # yaku or fans, when the value came from tiles


@dataclass(frozen=True, slots=True)
class Settlement:
    """Everything one hand changes at the table."""

    kind: Outcome
    deltas: tuple[int, ...]
    payments: tuple[Payment, ...]
    deposits_after: int  # riichi sticks left on the table
    dealer_stays: bool
    honba_after: int
    replay: bool = False  # a chombo: the same hand is played again
    wins: tuple[WinOutcome, ...] = ()
    abortive: str | None = None  # why the hand ended as an abortive draw: an AbortReason or "abortive draw"
    chombo_player: int | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
