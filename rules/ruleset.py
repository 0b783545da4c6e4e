"""The ruleset: every parameter a federation's rules can set (docs/score-sheet.md).

A ``Ruleset`` is frozen data; ``Ruleset.build`` applies JSON overrides to a
base and checks the result as a whole. ``PARAMETERS`` (rules.parameters) is
the one description of each parameter: its type, its allowed values and what
it means. Validation, the JSON form of a ruleset and the documentation all
read it, so a parameter is added in one place.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from rules.errors import Problem, Refusal
from rules.hands import AbortReason
from rules.options import (
    AbortiveDrawRules,
    ChomboPayment,
    DealerMultipleRonRenchan,
    DepositsAtEnd,
    Extension,
    FinalRounding,
    MultipleRon,
    MultipleRonDeposits,
    MultipleRonHonba,
    PaoScope,
    Renchan,
    Scoring,
    SeatRotation,
    SoloRanking,
    Ties,
    TsumoPayment,
)
from rules.parameters import DOUBLE_WIND_PAIR_FU, MAX_PLAYERS

# Defined in rules.parameters; callers import them from here, where they were first defined.
from rules.parameters import PARAMETERS as PARAMETERS
from rules.parameters import Uma as Uma
from rules.parameters import UmaByPlusCount as UmaByPlusCount
from rules.parameters import number_json as number_json

# The multiple_ron options under which a triple ron is an abortive draw (seed 000 §3.5 options 2 and 4).
_TRIPLE_RON_ABORTS = (MultipleRon.DOUBLE_HEAD_BUMP_TRIPLE_ABORT, MultipleRon.DOUBLE_ONLY_TRIPLE_ABORT)
# The multiple_ron options that may pay more than one ron on a discard (seed 000 §3.5 options 1.1, 3 and 4).
_SEVERAL_RONS_PAID = (MultipleRon.HEAD_BUMP_YAKUMAN_EXCEPTION, MultipleRon.ALL, MultipleRon.DOUBLE_ONLY_TRIPLE_ABORT)

Number = Fraction

# Seat winds by table size (docs/rules.md §7, seed 001): five players add the
# Flower wind, six and seven the dragons, eight sit two to each wind.
WINDS = ("East", "South", "West", "North")


def winds_in_runs(players: int) -> tuple[str, ...]:
    """Past the seven honors, each of the four winds takes a run of seats, the first winds one more when the
    seats do not share out evenly: eight players sit E E S S W W N N (seed 001), nine E E E S S W W N N (?)."""
    runs = [players // len(WINDS) + (1 if i < players % len(WINDS) else 0) for i in range(len(WINDS))]
    return tuple(wind for wind, run in zip(WINDS, runs, strict=True) for _ in range(run))


SEAT_WINDS: dict[int, tuple[str, ...]] = {
    5: (*WINDS, "Flower"),
    6: (*WINDS, "White", "Green"),
    7: (*WINDS, "White", "Green", "Red"),
    **{players: winds_in_runs(players) for players in range(8, MAX_PLAYERS + 1)},
}
# One letter per wind for round labels (E1, F3, G2): White is B (blank), as W is West.
WIND_LETTERS = {
    "East": "E",
    "South": "S",
    "West": "W",
    "North": "N",
    "Flower": "F",
    "White": "B",
    "Green": "G",
    "Red": "R",
}

TWO_PLAYERS = 2  # rule 0's exception (seed 001): two players in riichi play on
FIVE_PLAYERS = 5  # tsumo_payment five_player_rule_2 is seed 001's rule for five-player tables
MCR_PLAYERS = 4  # the MCR seat rotation (seed 002 §2) moves four players


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One federation's rules, frozen. Build it with ``Ruleset.build``; presets live in rules.presets."""

    key: str = "custom"
    players: int = 4
    scoring: Scoring = Scoring.RIICHI
    start_points: int = 30000
    return_points: int = 30000
    uma: Uma = (Fraction(15), Fraction(5), Fraction(-5), Fraction(-15))
    ties: Ties = Ties.SPLIT
    deposits_at_end: DepositsAtEnd = DepositsAtEnd.FIRST_PLACE
    honba_points: int = 300
    riichi_deposit: int = 1000
    noten_payment_total: int = 3000
    kiriage_mangan: bool = False
    kazoe_yakuman: bool = True
    multiple_yakuman: bool = True
    multiple_ron: MultipleRon = MultipleRon.HEAD_BUMP
    multiple_ron_honba: MultipleRonHonba = MultipleRonHonba.FIRST_WINNER
    multiple_ron_deposits: MultipleRonDeposits = MultipleRonDeposits.FIRST_WINNER
    renchan: Renchan = Renchan.TENPAI
    dealer_multiple_ron_renchan: DealerMultipleRonRenchan = DealerMultipleRonRenchan.ALWAYS
    abortive_draws: bool = False
    abortive_draw_rules: AbortiveDrawRules = AbortiveDrawRules.USUAL
    nagashi_mangan: bool = False
    busting: bool = False
    agari_yame: bool = False
    tenpai_yame: bool = True
    round_winds: int = 2
    extension: Extension = Extension.NONE
    goal_points: int = 30000
    chombo_penalty: Fraction = Fraction(-20)
    chombo_payment: ChomboPayment = ChomboPayment.NONE
    chombo_flat_amount: int = 0
    chombo_ends_game: bool = False
    false_win_dead_hand: bool = True
    pao: bool = True
    pao_scope: PaoScope = PaoScope.FED_YAKUMAN
    min_han: int = 1
    yakuman_only: bool = False
    dealer_bonus: bool = True
    tsumo_payment: TsumoPayment = TsumoPayment.STANDARD
    min_fan: int = 8
    base_payment: int = 8
    table_points: tuple[Fraction, ...] | None = None
    seat_rotation: SeatRotation = SeatRotation.NONE
    final_rounding: FinalRounding = FinalRounding.EXACT
    last_dealer_may_stop: bool = False
    double_wind_pair_fu: int = 4
    solo_ranking: SoloRanking = SoloRanking.BEST_ATTEMPT
    solo_attempts: int | None = None

    @property
    def oka(self) -> int:
        """Oka: (return − start) × players, to first place (docs/rules.md §5)."""
        return (self.return_points - self.start_points) * self.players

    @property
    def abort_reasons(self) -> tuple[AbortReason, ...]:
        """The abortive draws a hand may record: the usual ones or rule 0's where the rules have abortive
        draws, and a triple ron only where ``multiple_ron`` makes it one (seed 000 §3.5 options 2 and 4)."""
        reasons: list[AbortReason] = []
        if self.abortive_draws and self.abortive_draw_rules == AbortiveDrawRules.RULE_0:
            reasons.append(AbortReason.FOUR_WINDS)
            if self.players > TWO_PLAYERS:
                # Seed 001 lets two players both declare riichi and play on (its one exception to rule 0);
                # and one ron on a discard of two players is no abortive draw.
                reasons += [AbortReason.FOUR_RIICHI, AbortReason.ALL_OTHERS_RON]
        elif self.abortive_draws:
            reasons += [
                AbortReason.NINE_TERMINALS,
                AbortReason.FOUR_WINDS,
                AbortReason.FOUR_RIICHI,
                AbortReason.FOUR_KANS,
            ]
        if self.multiple_ron in _TRIPLE_RON_ABORTS:
            reasons.append(AbortReason.TRIPLE_RON)
        return tuple(reasons)

    @property
    def aborts_on_all_others_ron(self) -> bool:
        """Seed 001's rule 0: N - 1 rons on one discard are an abortive draw, whatever ``multiple_ron`` says."""
        return AbortReason.ALL_OTHERS_RON in self.abort_reasons

    @property
    def aborts_on_all_riichi(self) -> bool:
        """Rule 0: the hand ends, drawn, once the last of the N riichi declarations has passed."""
        return self.abortive_draw_rules == AbortiveDrawRules.RULE_0 and AbortReason.FOUR_RIICHI in self.abort_reasons

    @property
    def pays_several_rons(self) -> bool:
        """Whether a discard may pay more than one ron (seed 000 §3.5): under head bump (option 1) and a double
        ron by head bump (option 2) only the first player in turn after the discarder is ever paid, and a
        table of two has only one player who can ron."""
        return self.players > 2 and self.multiple_ron in _SEVERAL_RONS_PAID

    @property
    def is_mcr(self) -> bool:
        return self.scoring == Scoring.MCR

    @property
    def is_solo(self) -> bool:
        """The solo race to tenpai (seed 001 "1인 마작"): one player, attempts ranked by draws, then value."""
        return self.scoring == Scoring.SOLO

    @property
    def seat_winds(self) -> tuple[str, ...]:
        """The seat winds in seat order, East (the dealer) first (docs/rules.md §7)."""
        return SEAT_WINDS.get(self.players, WINDS[: self.players])

    @property
    def round_wind_names(self) -> tuple[str, ...]:
        """Round winds in play order: the table's distinct seat winds (docs/rules.md §7)."""
        return tuple(dict.fromkeys(self.seat_winds))

    @property
    def round_wind_letters(self) -> str:
        """One letter per round wind, as round labels write it (E1, F3, G2)."""
        return "".join(WIND_LETTERS[w] for w in self.round_wind_names)

    def as_dict(self) -> dict[str, Any]:
        """Every parameter in force, in its JSON form (the score sheet's ``ruleset`` output)."""
        out: dict[str, Any] = {"key": self.key}
        for name, spec in PARAMETERS.items():
            out[name] = spec.dump(getattr(self, name))
        return out

    @classmethod
    def build(
        cls, *, base: Ruleset | None = None, overrides: Mapping[str, Any] | None = None, key: str | None = None
    ) -> Ruleset:
        """``base`` with ``overrides`` (JSON values) applied, checked as a whole.

        Raises Refusal naming every bad parameter; a ruleset that is
        returned is consistent (see ``_cross_checks``).
        """
        base = base or cls()
        problems: list[Problem] = []
        changes: dict[str, Any] = {}
        for name, value in (overrides or {}).items():
            spec = PARAMETERS.get(name)
            if spec is None:
                problems.append(Problem.of(name, "unknown_parameter"))
                continue
            try:
                changes[name] = spec.parse(value)
            except Refusal as exc:
                problems += exc.at(name).problems
            except ValueError as exc:
                problems.append(Problem(name, str(exc)))
        if problems:
            raise Refusal(problems)
        ruleset = dataclasses.replace(base, **changes, key=key or base.key)
        problems = list(_cross_checks(ruleset))
        if problems:
            raise Refusal(problems)
        return ruleset


def _cross_checks(r: Ruleset) -> list[Problem]:
    """Consistency between parameters; each message names the parameter to fix."""
    problems = _uma_checks(r)
    problems += [Problem.of(c.field, c.code, **c.params(r)) for c in _CROSS_CHECKS if c.broken(r)]
    return problems + _solo_checks(r)


def _uma_checks(r: Ruleset) -> list[Problem]:
    """One uma per rank; a table by plus count has a count the table can have, and one uma per rank in each row."""
    n = r.players
    if not isinstance(r.uma, UmaByPlusCount):
        return [Problem.of("uma", "uma_per_rank", players=n)] if r.uma and len(r.uma) != n else []
    problems = [
        Problem.of(f"uma.by_plus_count.{plus}", "plus_count_range", players=n)
        for plus, _uma in r.uma.tables
        if not 0 <= plus <= n
    ]
    for label, uma in (*((str(p), u) for p, u in r.uma.tables), ("default", r.uma.default)):
        if len(uma) != n:
            problems.append(Problem.of(f"uma.by_plus_count.{label}", "values_per_rank", players=n))
    return problems


def _no_params(_r: Ruleset) -> dict[str, object]:
    return {}


def _players(r: Ruleset) -> dict[str, object]:
    return {"players": r.players}


class _CrossCheck(NamedTuple):
    field: str  # the parameter the message names (the one to fix)
    code: str  # rules.messages
    broken: Callable[[Ruleset], bool]
    params: Callable[[Ruleset], dict[str, object]] = _no_params


# In the order the problems are listed.
_CROSS_CHECKS = (
    _CrossCheck(
        "table_points",
        "values_per_rank",
        lambda r: r.table_points is not None and len(r.table_points) != r.players,
        _players,
    ),
    _CrossCheck(
        "round_winds",
        "round_winds_max",
        lambda r: r.round_winds > len(r.round_wind_letters),
        lambda r: {"players": r.players, "count": len(r.round_wind_letters)},
    ),
    # Negative oka is legal arithmetic but almost always a typo: say so.
    _CrossCheck("return_points", "return_below_start", lambda r: r.return_points < r.start_points and r.uma != ()),
    _CrossCheck("chombo_penalty", "chombo_penalty_sign", lambda r: r.chombo_penalty > 0),
    _CrossCheck(
        "chombo_flat_amount",
        "chombo_flat_amount",
        lambda r: r.chombo_payment == ChomboPayment.FLAT and r.chombo_flat_amount <= 0,
    ),
    _CrossCheck(
        "tsumo_payment",
        "tsumo_equal_shares",
        lambda r: not r.dealer_bonus and r.tsumo_payment != TsumoPayment.EQUAL_SHARES,
    ),
    _CrossCheck(
        "tsumo_payment",
        "five_player_rule",
        lambda r: r.tsumo_payment == TsumoPayment.FIVE_PLAYER_RULE_2 and r.players != FIVE_PLAYERS,
        lambda _r: {"players": FIVE_PLAYERS},
    ),
    _CrossCheck(
        "seat_rotation",
        "mcr_rotation_players",
        lambda r: r.is_mcr and r.seat_rotation == SeatRotation.MCR and r.players != MCR_PLAYERS,
        lambda _r: {"players": MCR_PLAYERS},
    ),
    _CrossCheck("seat_rotation", "rotation_mcr_only", lambda r: not r.is_mcr and r.seat_rotation != SeatRotation.NONE),
    _CrossCheck(
        "double_wind_pair_fu",
        "either_value",
        lambda r: r.double_wind_pair_fu not in DOUBLE_WIND_PAIR_FU,
        lambda _r: {"choices": " or ".join(map(str, DOUBLE_WIND_PAIR_FU))},
    ),
    _CrossCheck(
        "riichi_deposit", "riichi_deposit_positive", lambda r: r.riichi_deposit == 0 and r.scoring == Scoring.RIICHI
    ),
)


def _solo_checks(r: Ruleset) -> list[Problem]:
    """One player exactly when the scoring is solo; the sum of attempts needs their number."""
    problems: list[Problem] = []
    if r.is_solo != (r.players == 1):
        problems.append(
            Problem.of("players", "solo_players") if r.is_solo else Problem.of("players", "one_player_is_solo")
        )
    if not r.is_solo:
        changed = [name for name in ("solo_ranking", "solo_attempts") if getattr(r, name) != getattr(_DEFAULT, name)]
        problems += [Problem.of(name, "solo_only") for name in changed]
    elif r.solo_ranking == SoloRanking.SUM_OF_ATTEMPTS and r.solo_attempts is None:
        problems.append(Problem.of("solo_attempts", "solo_sum_needs_attempts"))
    return problems


_DEFAULT = Ruleset()
