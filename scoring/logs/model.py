"""What one online game's log says: its sheet, and the numbers the platform recorded with it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from fractions import Fraction
from typing import Any

from rules.errors import Refusal
from scoring.sheet.document import MAX_INTEGER
from scoring.sheet.record import HandRecord

ROUND_WINDS = "ESWN"
# Every number a log holds, as text: an integer, or end points in tenths. Checked before any conversion, so
# that neither int() of thousands of digits nor Fraction("1e40000000") (a worker held for minutes) is reached.
_NUMBER = re.compile(r"[+-]?[0-9]{1,16}(?:\.[0-9]{1,4})?")
_WHOLE = re.compile(r"[+-]?[0-9]{1,16}")


class Platform(StrEnum):
    TENHOU = "tenhou"
    MAHJONG_SOUL = "mahjong_soul"


def log_number(value: Any, where: str) -> Fraction:
    """A number read from a log (mjlog's text, tenhou.net/6's JSON number or text), refused unless a plain
    decimal within ±``MAX_INTEGER``: Refusal naming ``where``."""
    # repr() of an int past 4300 digits raises: a JSON reader that let one through is answered here too.
    small = isinstance(value, float) or (isinstance(value, int) and abs(value) <= MAX_INTEGER)
    text = value.strip() if isinstance(value, str) else repr(value) if small else ""
    if not isinstance(value, bool) and _NUMBER.fullmatch(text):
        number = Fraction(text)
        if abs(number) <= MAX_INTEGER:
            return number
    shown = text if len(text) <= 20 else f"{text[:20]}… ({len(text)} characters)"
    raise Refusal.one(where, f"{shown!r} is not a number a game log holds (a decimal within ±{MAX_INTEGER:,})")


def log_int(value: Any, where: str) -> int:
    """A whole number read from a log, bounded as ``log_number``."""
    # Nearly every number of a log is a plain whole number: read it without the Fraction ``log_number`` makes.
    if isinstance(value, str) and _WHOLE.fullmatch(text := value.strip()) and abs(whole := int(text)) <= MAX_INTEGER:
        return whole
    if type(value) is int and abs(value) <= MAX_INTEGER:
        return value
    number = log_number(value, where)
    if number.denominator != 1:
        raise Refusal.one(where, f"{value!r} is not a whole number")
    return int(number)


@dataclass(frozen=True, slots=True)
class RecordedHand:
    """A hand as the platform recorded it: where it was played and each seat's change, riichi sticks included."""

    round: str  # "E1", "S3", …
    honba: int
    deposits: int  # riichi sticks on the table before the hand
    deltas: tuple[int, ...]


@dataclass(slots=True)
class OnlineGame:
    """One game read from a log: a score sheet naming the platform's players, and the platform's own numbers."""

    platform: Platform
    log_id: str
    names: list[str]
    ruleset: str
    overrides: dict[str, Any]
    hands: list[HandRecord] = field(default_factory=list)
    recorded: list[RecordedHand] = field(default_factory=list)
    final_scores: tuple[int, ...] | None = None  # end scores, sticks left to first place included
    final_points: tuple[Fraction, ...] | None = None
    start_scores: tuple[int, ...] | None = None

    @property
    def played_on(self) -> date | None:
        """The day a Tenhou log id gives (2019103023gm-…: 2019-10-30, Japan time), if it is one."""
        match = re.match(r"(\d{4})(\d{2})(\d{2})\d{2}gm-", self.log_id)
        if not match:
            return None
        try:
            return date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            return None

    def sheet(self) -> dict[str, Any]:
        """The score sheet (docs/score-sheet.md) of the game, players named as on the platform."""
        sheet: dict[str, Any] = {
            "ruleset": self.ruleset,
            "overrides": dict(self.overrides),
            "players": list(self.names),
            "hands": list(self.hands),
        }
        if self.start_scores is not None:
            sheet["start"] = {"scores": list(self.start_scores)}
        return sheet


def tenhou_overrides(*, three_players: bool, hanchan: bool) -> dict[str, Any]:
    """The ``tenhou`` preset's overrides for a lobby: East-only, and Tenhou's three-player values.

    Three players (real logs): 35000 start, 40000 return, uma +20/0/−20, the
    missing North's share of a tsumo lost, noten 2000 in all, honba 200 (100
    from each payer on a tsumo), extension until 40000.
    """
    overrides: dict[str, Any] = {}
    if not hanchan:
        overrides["round_winds"] = 1
    if three_players:
        overrides |= {
            "players": 3,
            "start_points": 35000,
            "return_points": 40000,
            "uma": [20, 0, -20],
            "noten_payment_total": 2000,
            "honba_points": 200,
            "goal_points": 40000,
        }
    return overrides


def rounding_overrides(points: tuple[Fraction, ...] | None) -> dict[str, Any]:
    """End points the log gives in tenths were not rounded: a 2023 tokujou record (mjlog2json-6) has +63.8."""
    if points is not None and any(p.denominator != 1 for p in points):
        return {"final_rounding": "exact"}
    return {}


def round_label(kyoku: int) -> str:
    """Tenhou's round counter (0 = East 1, 4 = South 1, …) as the sheet's round label."""
    return f"{ROUND_WINDS[(kyoku // 4) % 4]}{kyoku % 4 + 1}"
