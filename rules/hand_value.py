"""Riichi hand value: han/fu or yakuman to base points and payments (RULES.md §2).

Base points b = fu × 2^(han+2), capped by the limit hands; every single payment
is rounded up to the next 100. Which seat pays how much on a tsumo depends on
the ruleset's ``tsumo_payment`` (seed 001 for tables other than four).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.errors import RuleError
from rules.ruleset import Ruleset

MANGAN = 2000
YAKUMAN = 8000
VALID_FU = (20, 25, *range(30, 120, 10))

LIMIT_NAMES = {
    2000: "mangan",
    3000: "haneman",
    4000: "baiman",
    6000: "sanbaiman",
}


def round_up_100(points: int | Fraction) -> int:
    """Payments are rounded UP to the next 100 (RULES.md §2)."""
    return int(-(-points // 100) * 100)


@dataclass(frozen=True, slots=True)
class HandValue:
    """What a win is worth: base points and the limit it reached, if any."""

    base: int
    limit: str | None
    yakuman: int  # yakuman counted (kazoe included); 0 for a normal hand
    han: int
    fu: int | None

    @property
    def is_yakuman(self) -> bool:
        return self.yakuman > 0


def check_han_fu(*, han: int, fu: int | None, tsumo: bool) -> None:
    """Refuse han/fu pairs that no hand can have (SCORE_SHEET.md "Invalid input").

    20 fu needs at least 2 han (pinfu tsumo); 25 fu only comes from
    chiitoitsu (2 han on a ron, 3 with menzen tsumo). Above 4 han the fu do
    not change the value and may be left out.
    """
    if han < 1:
        raise RuleError.one("han", "a win needs at least 1 han")
    if fu is None:
        if han < 5:
            raise RuleError.one("fu", f"{han} han needs fu (fu may be left out from 5 han up)")
        return
    if fu not in VALID_FU:
        raise RuleError.one("fu", f"{fu} fu does not exist: fu are 20, 25 or a multiple of 10 up to 110")
    if fu == 20 and han < 2:
        # 20 fu only comes with pinfu tsumo (2 han). SCORE_SHEET.md lists
        # 1 han 20 fu as impossible but not a 20-fu ron, and other systems'
        # tables price 2+ han 20 fu rons, so those are accepted.
        raise RuleError.one("fu", "20 fu is only possible with 2 han or more (pinfu and menzen tsumo)")
    if fu == 25:
        needed = 3 if tsumo else 2
        if han < needed:
            kind = "a tsumo" if tsumo else "a ron"
            raise RuleError.one("fu", f"25 fu is only possible with {needed} han or more on {kind} (chiitoitsu)")


def hand_value(*, ruleset: Ruleset, han: int = 0, fu: int | None = None, yakuman: int = 0) -> HandValue:
    """Base points of a win (RULES.md §2 table), applying kiriage, kazoe and multiple yakuman."""
    if yakuman:
        counted = yakuman if ruleset.multiple_yakuman else 1
        return HandValue(base=YAKUMAN * counted, limit="yakuman" if counted == 1 else f"{counted}x yakuman",
                         yakuman=counted, han=0, fu=fu)
    if han >= 13:
        if ruleset.kazoe_yakuman:
            return HandValue(base=YAKUMAN, limit="kazoe yakuman", yakuman=1, han=han, fu=fu)
        return HandValue(base=6000, limit="sanbaiman", yakuman=0, han=han, fu=fu)
    if han >= 5:
        base = 2000 if han == 5 else 3000 if han <= 7 else 4000 if han <= 10 else 6000
        return HandValue(base=base, limit=LIMIT_NAMES[base], yakuman=0, han=han, fu=fu)
    assert fu is not None, "check_han_fu runs first"
    base = fu * 2 ** (han + 2)
    if base >= MANGAN or (ruleset.kiriage_mangan and (han, fu) in ((4, 30), (3, 60))):
        return HandValue(base=MANGAN, limit="mangan", yakuman=0, han=han, fu=fu)
    return HandValue(base=base, limit=None, yakuman=0, han=han, fu=fu)


def ron_value(*, ruleset: Ruleset, base: int, dealer: bool) -> int:
    """What the discarder pays on a ron, before honba: 6b for a dealer, 4b otherwise."""
    dealer = dealer and ruleset.dealer_bonus
    return round_up_100(base * (6 if dealer else 4))


def tsumo_shares(*, ruleset: Ruleset, base: int, winner: int, dealer: int, players: int) -> dict[int, int]:
    """What each other player pays on a tsumo, before honba (RULES.md §2, §7; seed 001).

    standard: a dealer winner gets 2b from each; a non-dealer winner 2b from
    the dealer and b from the others. equal_shares: the winner's ron value
    (6b dealer, 4b otherwise) split equally among the others. Rule 2 of the
    five-player game: a dealer's 6b in four parts, a non-dealer's 2b from
    the dealer and b from each other. Each share is rounded up once, from
    the unrounded value, as seed 001 computes it (1440 → 360 → 400 all).
    """
    payers = [p for p in range(players) if p != winner]
    winner_is_dealer = winner == dealer and ruleset.dealer_bonus
    if ruleset.tsumo_payment == "equal_shares" or (winner_is_dealer and ruleset.tsumo_payment != "standard"):
        share = round_up_100(Fraction(base * (6 if winner_is_dealer else 4), len(payers)))
        return dict.fromkeys(payers, share)
    if winner_is_dealer:
        return {p: round_up_100(2 * base) for p in payers}
    return {p: round_up_100(2 * base if p == dealer else base) for p in payers}
