"""Moving ranks instead of ranking again: what a change to a few lines does to everyone else's rank.

A stage's standings rank a line by its key (``rules.stages.StageLine.key``, higher is better) and equal keys share
the rank, the first position of their group (``rules.stages.stage_standings``). So a line's rank is one more than
the number of lines with a better key, and nothing else: when a few lines change (a game's four players), every
other line's rank moves by how many of them passed it minus how many it passed, and those lines' ranks follow from
the counts of lines better than them. These are that rule's consequences, for ranking in storage: the key as bytes
whose order is the ranking's (the smallest first), the shifts of the lines nobody touched, and the touched lines'
ranks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

SCALE = 10**6  # each value of a key to the millionth: the standings' values are hundredths or whole numbers
_WIDTH = 16  # bytes a value takes: a signed value below 2**127 / SCALE in magnitude
_MIDDLE = 2 ** (8 * _WIDTH - 1)


def sort_key(key: Sequence[Fraction]) -> bytes | None:
    """``key`` (higher is better) as bytes in the opposite order: a better key is a smaller one, an equal key the
    same. None when a value is not a whole number of millionths or is out of range: not ranked that way."""
    parts = []
    for value in key:
        scaled = value * SCALE
        if scaled.denominator != 1 or abs(scaled.numerator) >= _MIDDLE:
            return None
        parts.append((_MIDDLE - 1 - scaled.numerator).to_bytes(_WIDTH, "big"))
    return b"".join(parts)


@dataclass(frozen=True, slots=True)
class Shift:
    """The lines nobody touched whose key is after ``after`` and up to ``upto`` (None: to the last) move ``by``
    places (positive: down)."""

    after: bytes
    upto: bytes | None
    by: int


# A touched line's key before the change and after it; None: not ranked (too few games, or no line).
Move = tuple[bytes | None, bytes | None]


def rank_shifts(moves: Sequence[Move]) -> list[Shift]:
    """How the untouched lines' ranks move: a line with key k has one place more for each touched line now
    better than it, one fewer for each that was. Between two consecutive keys of the moves that count is the same,
    so the shifts are ranges of keys; ranges that do not move are left out."""
    bounds = sorted({key for move in moves for key in move if key is not None})
    shifts = []
    for i, after in enumerate(bounds):
        by = sum(1 for _, new in moves if new is not None and new <= after)
        by -= sum(1 for old, _ in moves if old is not None and old <= after)
        if by:
            shifts.append(Shift(after, bounds[i + 1] if i + 1 < len(bounds) else None, by))
    return shifts


def better_before(rank: int, key: bytes, old_keys: Sequence[bytes | None]) -> int:
    """The untouched lines better than an untouched line of ``rank`` and ``key`` (as stored before the change):
    every line better than it, less the touched ones that were."""
    return rank - 1 - sum(1 for old in old_keys if old is not None and old < key)


def touched_ranks(new_keys: Mapping[int, bytes | None], untouched_better: Mapping[int, int]) -> dict[int, int | None]:
    """Each touched player's rank: one more than the untouched lines better than their new key
    (``untouched_better``) and the other touched lines better than it; None for a line not ranked."""
    ranks: dict[int, int | None] = {}
    for player, key in new_keys.items():
        if key is None:
            ranks[player] = None
            continue
        touched = sum(1 for other in new_keys.values() if other is not None and other < key)
        ranks[player] = 1 + untouched_better[player] + touched
    return ranks
