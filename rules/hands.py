"""What a referee writes down for one hand, as the engine takes it.

Players are numbers: their place in the game's player list (0 = the first
dealer). Seats can change during an MCR game; players never do.
"""

from __future__ import annotations

from dataclasses import dataclass, field


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
    false_wins: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Tsumo:
    win: Win
    riichi: frozenset[int] = frozenset()
    false_wins: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Draw:
    """Exhaustive draw: who was tenpai, and who made nagashi mangan."""

    tenpai: frozenset[int] = frozenset()
    nagashi: tuple[int, ...] = ()
    riichi: frozenset[int] = frozenset()
    false_wins: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Abort:
    reason: str | None = None
    riichi: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Chombo:
    player: int
    riichi: frozenset[int] = frozenset()


HandResult = Ron | Tsumo | Draw | Abort | Chombo

ABORT_REASONS = ("nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron")


@dataclass(frozen=True, slots=True)
class Payment:
    """One movement of points. ``None`` on either side is the table (riichi deposits)."""

    payer: int | None
    payee: int | None
    amount: int
    reason: str  # hand, honba, pao, riichi, deposits, noten, nagashi, chombo, false_win


@dataclass(frozen=True, slots=True)
class WinOutcome:
    """How a win was valued and whether it stood (a head-bumped win does not)."""

    winner: int
    han: int
    fu: int | None
    yakuman: int
    base: int
    limit: str | None
    fan: int = 0  # MCR, without flowers
    flowers: int = 0
    stood: bool = True
    items: tuple[tuple[str, int], ...] = ()  # yaku or fans, when the value came from tiles


@dataclass(frozen=True, slots=True)
class Settlement:
    """Everything one hand changes at the table."""

    kind: str  # ron, tsumo, draw, abort, chombo
    deltas: tuple[int, ...]
    payments: tuple[Payment, ...]
    deposits_after: int  # riichi sticks left on the table
    dealer_stays: bool
    honba_after: int
    replay: bool = False  # a chombo: the same hand is played again
    wins: tuple[WinOutcome, ...] = ()
    abortive: str | None = None  # why the hand ended as an abortive draw
    chombo_player: int | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
