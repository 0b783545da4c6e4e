"""Riichi hand value: han/fu or yakuman to base points and payments (docs/rules.md §2).

Base points b = fu × 2^(han+2), capped by the limit hands; every single payment
is rounded up to the next 100. Which seat pays how much on a tsumo depends on
the ruleset's ``tsumo_payment`` (seed 001 for tables other than four).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.errors import Refusal
from rules.hands import Limit
from rules.messages import multiple_yakuman
from rules.options import TsumoPayment
from rules.ruleset import Ruleset

# Base points of the limit hands (docs/rules.md §2).
MANGAN = 2000
HANEMAN = 3000
BAIMAN = 4000
SANBAIMAN = 6000
YAKUMAN = 8000
VALID_FU = (20, 25, *range(30, 120, 10))

LIMIT_NAMES = {
    MANGAN: Limit.MANGAN,
    HANEMAN: Limit.HANEMAN,
    BAIMAN: Limit.BAIMAN,
    SANBAIMAN: Limit.SANBAIMAN,
}

LIMIT_HAN = 5  # from 5 han a hand is a limit hand whatever its fu, so the fu may be left out
KAZOE_HAN = 13  # from 13 han: kazoe yakuman, or sanbaiman without it
# The limit of a hand from LIMIT_HAN to KAZOE_HAN − 1: the lowest han of each limit, highest first.
LIMITS_BY_HAN = ((11, SANBAIMAN), (8, BAIMAN), (6, HANEMAN), (LIMIT_HAN, MANGAN))
# Kiriage mangan: 4 han 30 fu and 3 han 60 fu (7700, a dealer 11600 on a ron) are rounded up to mangan.
KIRIAGE_HANDS = ((4, 30), (3, 60))
PINFU_TSUMO_FU = 20  # only pinfu tsumo has 20 fu ...
PINFU_TSUMO_HAN = 2  # ... and it is 2 han: pinfu and menzen tsumo
CHIITOITSU_FU = 25  # only chiitoitsu has 25 fu ...
CHIITOITSU_HAN = 2  # ... and it is 2 han, 3 with menzen tsumo

# A payment is a multiple of the base points: the dealer's ron 6b, another's 4b; the dealer pays 2b
# on a non-dealer's tsumo, the others b.
DEALER_RON = 6
NON_DEALER_RON = 4
DEALER_SHARE = 2
PAYMENT_UNIT = 100  # every payment is rounded up to a multiple of it


def round_up_100(points: int | Fraction) -> int:
    """Payments are rounded UP to the next 100 (docs/rules.md §2)."""
    return int(-(-points // PAYMENT_UNIT) * PAYMENT_UNIT)


@dataclass(frozen=True, slots=True)
class HandValue:
    """What a win is worth: base points and the limit it reached, if any."""

    base: int
    limit: str | None  # a Limit, or "2x yakuman", … for a counted multiple yakuman
    yakuman: int  # yakuman counted (kazoe included); 0 for a normal hand
    han: int
    fu: int | None

    @property
    def is_yakuman(self) -> bool:
        return self.yakuman > 0


def check_han_fu(*, han: int, fu: int | None, tsumo: bool) -> None:
    """Refuse han/fu pairs that no hand can have (docs/score-sheet.md "Invalid input").

    20 fu needs at least 2 han (pinfu tsumo); 25 fu only comes from
    chiitoitsu (2 han on a ron, 3 with menzen tsumo). Above 4 han the fu do
    not change the value and may be left out.
    """
    if han < 1:
        raise Refusal.of("han", "han_at_least_1")
    if fu is None:
        if han < LIMIT_HAN:
            raise Refusal.of("fu", "han_needs_fu", han=han)
        return
    if fu not in VALID_FU:
        raise Refusal.of("fu", "no_such_fu", fu=fu)
    if fu == PINFU_TSUMO_FU and han < PINFU_TSUMO_HAN:
        # 20 fu only comes with pinfu tsumo (2 han). docs/score-sheet.md lists
        # 1 han 20 fu as impossible but not a 20-fu ron, and other systems'
        # tables price 2+ han 20 fu rons, so those are accepted.
        raise Refusal.of("fu", "fu_20_needs_2_han")
    if fu == CHIITOITSU_FU:
        needed = CHIITOITSU_HAN + 1 if tsumo else CHIITOITSU_HAN
        if han < needed:
            raise Refusal.of("fu", "fu_25_tsumo" if tsumo else "fu_25_ron", han=needed)


def accepted_fu(*, han: int, tsumo: bool) -> tuple[int, ...]:
    """The fu ``check_han_fu`` takes with ``han``: what the entry page lets through before it sends a hand."""
    accepted = []
    for fu in VALID_FU:
        try:
            check_han_fu(han=han, fu=fu, tsumo=tsumo)
        except Refusal:
            continue
        accepted.append(fu)
    return tuple(accepted)


def hand_value(*, ruleset: Ruleset, han: int = 0, fu: int | None = None, yakuman: int = 0) -> HandValue:
    """Base points of a win (docs/rules.md §2 table), applying kiriage, kazoe and multiple yakuman."""
    if yakuman:
        counted = yakuman if ruleset.multiple_yakuman else 1
        limit = Limit.YAKUMAN if counted == 1 else multiple_yakuman(counted)
        return HandValue(base=YAKUMAN * counted, limit=limit, yakuman=counted, han=0, fu=fu)
    if han >= KAZOE_HAN:
        if ruleset.kazoe_yakuman:
            return HandValue(base=YAKUMAN, limit=Limit.KAZOE_YAKUMAN, yakuman=1, han=han, fu=fu)
        return HandValue(base=SANBAIMAN, limit=Limit.SANBAIMAN, yakuman=0, han=han, fu=fu)
    if han >= LIMIT_HAN:
        base = next(base for lowest, base in LIMITS_BY_HAN if han >= lowest)
        return HandValue(base=base, limit=LIMIT_NAMES[base], yakuman=0, han=han, fu=fu)
    assert fu is not None, "check_han_fu runs first"
    base = fu * 2 ** (han + 2)
    if base >= MANGAN or (ruleset.kiriage_mangan and (han, fu) in KIRIAGE_HANDS):
        return HandValue(base=MANGAN, limit=Limit.MANGAN, yakuman=0, han=han, fu=fu)
    return HandValue(base=base, limit=None, yakuman=0, han=han, fu=fu)


def ron_value(*, ruleset: Ruleset, base: int, dealer: bool) -> int:
    """What the discarder pays on a ron, before honba: 6b for a dealer, 4b otherwise."""
    dealer = dealer and ruleset.dealer_bonus
    return round_up_100(base * (DEALER_RON if dealer else NON_DEALER_RON))


def tsumo_shares(*, ruleset: Ruleset, base: int, winner: int, dealer: int, players: int) -> dict[int, int]:
    """What each other player pays on a tsumo, before honba (docs/rules.md §2, §7; seed 001).

    standard: a dealer winner gets 2b from each; a non-dealer winner 2b from
    the dealer and b from the others. equal_shares: the winner's ron value
    (6b dealer, 4b otherwise) split equally among the others. Rule 2 of the
    five-player game: a dealer's 6b in four parts, a non-dealer's 2b from
    the dealer and b from each other. Each share is rounded up once, from
    the unrounded value, as seed 001 computes it (1440 → 360 → 400 all).
    """
    payers = [p for p in range(players) if p != winner]
    winner_is_dealer = winner == dealer and ruleset.dealer_bonus
    if ruleset.tsumo_payment == TsumoPayment.EQUAL_SHARES or (
        winner_is_dealer and ruleset.tsumo_payment != TsumoPayment.STANDARD
    ):
        ron = base * (DEALER_RON if winner_is_dealer else NON_DEALER_RON)
        return dict.fromkeys(payers, round_up_100(Fraction(ron, len(payers))))
    if winner_is_dealer:
        return {p: round_up_100(DEALER_SHARE * base) for p in payers}
    return {p: round_up_100(DEALER_SHARE * base if p == dealer else base) for p in payers}
