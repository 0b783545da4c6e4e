"""The ruleset's choices of strings, one ``StrEnum`` each (docs/score-sheet.md).

A member is the string a ruleset's JSON form writes (``Ties.SPLIT == "split"``),
so callers that compare with the plain string keep working. ``PARAMETERS``
(rules.parameters) takes each parameter's allowed values from its enum here,
so an option is added in one place.
"""

from __future__ import annotations

from enum import StrEnum


class Scoring(StrEnum):
    """The hand value model: riichi han/fu, MCR fan (docs/rules.md §6), or the solo race to tenpai (seed 001
    "1인 마작": draws, then the hand's riichi value)."""

    RIICHI = "riichi"
    MCR = "mcr"
    SOLO = "solo"


class Ties(StrEnum):
    """Tied end scores share uma and oka, or rank by seat, the first dealer highest (docs/rules.md §5)."""

    SPLIT = "split"
    SEAT_ORDER = "seat_order"


class DepositsAtEnd(StrEnum):
    """Riichi sticks left on the table when the game ends."""

    FIRST_PLACE = "first_place"
    LOST = "lost"


class MultipleRon(StrEnum):
    """Several rons on one discard (seed 000 §3.5 options 1, 1.1, 2, 3, 4)."""

    HEAD_BUMP = "head_bump"  # option 1: the first in turn after the discarder wins alone
    HEAD_BUMP_YAKUMAN_EXCEPTION = "head_bump_yakuman_exception"  # option 1.1: a yakuman is never bumped
    DOUBLE_HEAD_BUMP_TRIPLE_ABORT = "double_head_bump_triple_abort"  # option 2
    ALL = "all"  # option 3: every ron stands
    DOUBLE_ONLY_TRIPLE_ABORT = "double_only_triple_abort"  # option 4: a double ron stands, a triple aborts


class MultipleRonHonba(StrEnum):
    """Who gets the honba bonus on a multiple ron."""

    EACH_WINNER = "each_winner"
    FIRST_WINNER = "first_winner"


class MultipleRonDeposits(StrEnum):
    """Who takes the riichi sticks on a multiple ron."""

    OWN_BACK_REST_FIRST = "own_back_rest_first"
    FIRST_WINNER = "first_winner"


class Renchan(StrEnum):
    """The dealer keeps the seat when tenpai at a draw, only on a win, or never (docs/rules.md §3)."""

    TENPAI = "tenpai"
    WIN = "win"
    NONE = "none"


class DealerMultipleRonRenchan(StrEnum):
    """Renchan when the dealer is among several winners on one discard."""

    ALWAYS = "always"
    IF_FIRST = "if_first"
    NEVER = "never"


class Extension(StrEnum):
    """Whether the game continues into the next wind until someone reaches ``goal_points``."""

    NONE = "none"
    UNTIL_GOAL = "until_goal"


class AbortiveDrawRules(StrEnum):
    """Which abortive draws a ruleset with ``abortive_draws`` has (docs/rules.md §3, §7)."""

    USUAL = "usual"  # nine terminals, four winds, four riichi, four kans
    # Seed 001's rule 0 for N players: the first N discards one wind, all N in riichi, N - 1 rons on one discard.
    RULE_0 = "rule_0"


class ChomboPayment(StrEnum):
    """What a chombo pays at the table (docs/rules.md §4)."""

    NONE = "none"
    REVERSE_MANGAN = "reverse_mangan"
    FLAT = "flat"


class TsumoPayment(StrEnum):
    """How a tsumo is shared by the other players (docs/rules.md §2, §7; seed 001)."""

    STANDARD = "standard"
    EQUAL_SHARES = "equal_shares"
    FIVE_PLAYER_RULE_2 = "five_player_rule_2"


class SeatRotation(StrEnum):
    """Whether players change seats between round winds (seed 002 §2)."""

    NONE = "none"
    MCR = "mcr"


class FinalRounding(StrEnum):
    """End scores exact, or rounded to the nearest 1000 with a 500 away from zero (Tenhou)."""

    EXACT = "exact"
    NEAREST_THOUSAND = "nearest_thousand"


class PaoScope(StrEnum):
    """What the liable player covers when the hand holds more than the fed yakuman."""

    FED_YAKUMAN = "fed_yakuman"  # only the fed yakuman (seed 000 §5.1, JPML)
    WHOLE_HAND = "whole_hand"  # the whole hand, honba included (Tenhou's records)


class SoloRanking(StrEnum):
    """What ranks a player of the solo race to tenpai who makes several attempts (seed 001 "1인 마작" ranks one
    attempt: fewest draws, then the higher value; the organiser chooses how several count)."""

    BEST_ATTEMPT = "best_attempt"  # the player's best attempt
    SUM_OF_ATTEMPTS = "sum_of_attempts"  # the draws (then the values) added up over solo_attempts attempts
