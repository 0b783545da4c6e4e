"""The description of every ruleset parameter: its type, its allowed values, what it means.

``PARAMETERS`` is the one description of each parameter (docs/score-sheet.md).
Validation, the JSON form of a ruleset and the documentation all read it, so a
parameter is added in one place; a choice takes its values from its enum in
rules.options.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from rules import options
from rules.errors import Refusal
from rules.messages import _

# Bounds the rules set on the integer parameters.
MIN_PLAYERS = 1  # the solo race to tenpai (seed 001 "1인 마작"); two players and up: docs/rules.md §7
# Seed 001 names tables up to nine players "or more" (9인 마작, 또는 그 이상): presets go to twelve.
MAX_PLAYERS = 12
MAX_ROUND_WINDS = 7  # a seven-player table's distinct winds: E S W N and three dragons (docs/rules.md §7)
MAX_MIN_HAN = 13  # the top of the han table: from 13 han a hand is kazoe yakuman (or sanbaiman)
# Bounds the rules do not give (docs/bounds.md), far above every federation's values, chosen so that a game
# of the longest allowed length (300 hands) keeps every score inside a 32-bit integer and every final
# result inside the database's columns.
SCORE_LIMIT = 10_000_000  # a start, return or goal score; a start score either way
PAYMENT_LIMIT = 10_000  # a riichi stick, a flat chombo payment (1000 and 4000 in the presets)
HONBA_POINTS_LIMIT = 1_000  # per honba (300 or 400 in the presets); 400 honba at most in a 300-hand game
NOTEN_LIMIT = 100_000  # noten payments at a draw, all together (3000 or so)
BASE_PAYMENT_LIMIT = 1_000  # MCR: the base every player pays a winner (8)
MAX_MIN_FAN = 1_000  # MCR: the smallest winning hand in fan (8), at most the largest fan a win may record
POINTS_LIMIT = 1_000  # uma, table points and a chombo penalty, in points, either way
SOLO_ATTEMPTS_LIMIT = 100  # attempts in one solo game (a session of the race to tenpai: a handful in practice)
DOUBLE_WIND_PAIR_FU = (2, 4)  # a pair of the double wind is 2 fu (JPML practice) or 4 fu (most rules)


@dataclass(frozen=True, slots=True)
class UmaByPlusCount:
    """Uma chosen by how many players end at or above the return points (JPML, seed 000 §5.1)."""

    tables: tuple[tuple[int, tuple[Fraction, ...]], ...]
    default: tuple[Fraction, ...]

    def for_plus_count(self, count: int) -> tuple[Fraction, ...]:
        for plus, uma in self.tables:
            if plus == count:
                return uma
        return self.default


Uma = tuple[Fraction, ...] | UmaByPlusCount


class ParamKind(StrEnum):
    """The type of a parameter's value, as JSON writes it."""

    INT = "int"
    BOOL = "bool"
    CHOICE = "choice"  # one of the values of the parameter's enum
    NUMBER = "number"
    UMA = "uma"
    POINTS_LIST = "points_list"


@dataclass(frozen=True, slots=True)
class Param:
    kind: ParamKind
    help: str
    options: type[StrEnum] | None = None  # for a choice: the enum whose values are allowed
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False

    @property
    def choices(self) -> tuple[str, ...]:
        """The allowed values of a choice, as JSON writes them; () for the other kinds."""
        return tuple(option.value for option in self.options) if self.options is not None else ()

    def parse(self, value: Any) -> Any:
        """The parameter's value from its JSON form; a choice becomes its enum member."""
        parser = _PARSERS[self.kind]
        if value is None:
            if self.nullable:
                return None
            raise Refusal.of("", "not_null")
        return parser(self, value)

    def dump(self, value: Any) -> Any:
        """The JSON form of a value: plain numbers, lists and strings (a choice is its enum's value)."""
        if value is None:
            return None
        if self.kind == ParamKind.CHOICE:
            return str(value)
        if self.kind == ParamKind.NUMBER:
            return number_json(value)
        if self.kind == ParamKind.POINTS_LIST:
            return [number_json(v) for v in value]
        if self.kind == ParamKind.UMA:
            if isinstance(value, UmaByPlusCount):
                table = {str(plus): [number_json(v) for v in uma] for plus, uma in value.tables}
                table["default"] = [number_json(v) for v in value.default]
                return {"by_plus_count": table}
            return [number_json(v) for v in value]
        return value

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema fragment for this parameter's override value."""
        schema: dict[str, Any]
        bounds = {
            key: value for key, value in (("minimum", self.minimum), ("maximum", self.maximum)) if value is not None
        }
        number = {"type": "number", **bounds}
        points = {"type": "array", "items": number, "maxItems": MAX_PLAYERS}
        if self.kind == ParamKind.INT:
            schema = {"type": "integer", **bounds}
        elif self.kind == ParamKind.BOOL:
            schema = {"type": "boolean"}
        elif self.kind == ParamKind.CHOICE:
            schema = {"enum": list(self.choices)}
        elif self.kind == ParamKind.NUMBER:
            schema = number
        elif self.kind == ParamKind.POINTS_LIST:
            schema = points
        else:
            schema = {
                "oneOf": [
                    points,
                    {
                        "type": "object",
                        "required": ["by_plus_count"],
                        "additionalProperties": False,
                        "properties": {"by_plus_count": {"type": "object", "additionalProperties": points}},
                    },
                ]
            }
        if self.nullable:
            schema = {"anyOf": [schema, {"type": "null"}]}
        schema["description"] = self.help
        return schema


def number_json(value: Fraction | int) -> int | float:
    """A number as JSON shows it: whole numbers without a decimal point."""
    frac = Fraction(value)
    return int(frac) if frac.denominator == 1 else float(frac)


# --- parsers ----------------------------------------------------------------


def _to_fraction(spec: Param, value: Any) -> Fraction:
    # JSON numbers only: a string such as "1e999999999" would make Fraction build a number with a billion digits.
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Refusal.of("", "a_number")
    try:
        number = Fraction(str(value))
    except ValueError:
        raise Refusal.of("", "a_number") from None
    _check_bounds(spec, number)
    return number


def _check_bounds(spec: Param, value: int | Fraction) -> None:
    if spec.minimum is not None and value < spec.minimum:
        raise Refusal.of("", "at_least", minimum=spec.minimum)
    if spec.maximum is not None and value > spec.maximum:
        raise Refusal.of("", "at_most", maximum=spec.maximum)


def _parse_int(spec: Param, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise Refusal.of("", "a_whole_number")
    _check_bounds(spec, value)
    return int(value)


def _parse_bool(spec: Param, value: Any) -> bool:
    if not isinstance(value, bool):
        raise Refusal.of("", "true_or_false")
    return value


def _parse_choice(spec: Param, value: Any) -> StrEnum:
    assert spec.options is not None, "a choice parameter names its enum"
    if value not in spec.choices:
        raise Refusal.of("", "one_of", choices=", ".join(spec.choices))
    return spec.options(value)


def _parse_number(spec: Param, value: Any) -> Fraction:
    return _to_fraction(spec, value)


def _parse_points_list(spec: Param, value: Any) -> tuple[Fraction, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) > MAX_PLAYERS:
        raise Refusal.of("", "points_list", count=MAX_PLAYERS)
    return tuple(_to_fraction(spec, v) for v in value)


def _parse_uma(spec: Param, value: Any) -> Uma:
    if isinstance(value, Mapping):
        if set(value) != {"by_plus_count"} or not isinstance(value["by_plus_count"], Mapping):
            raise Refusal.of("", "uma_form")
        tables: list[tuple[int, tuple[Fraction, ...]]] = []
        default: tuple[Fraction, ...] | None = None
        for count, uma in value["by_plus_count"].items():
            parsed = _parse_points_list(spec, uma)
            if count == "default":
                default = parsed
            elif str(count) in _PLUS_COUNTS:
                tables.append((int(count), parsed))
            else:
                raise Refusal.of("", "plus_count_key", key=count)
        if default is None:
            raise Refusal.of("", "plus_count_default")
        return UmaByPlusCount(tables=tuple(sorted(tables)), default=default)
    return _parse_points_list(spec, value)


_PLUS_COUNTS = frozenset(str(n) for n in range(MAX_PLAYERS + 1))

_PARSERS: dict[ParamKind, Callable[[Param, Any], Any]] = {
    ParamKind.INT: _parse_int,
    ParamKind.BOOL: _parse_bool,
    ParamKind.CHOICE: _parse_choice,
    ParamKind.NUMBER: _parse_number,
    ParamKind.POINTS_LIST: _parse_points_list,
    ParamKind.UMA: _parse_uma,
}

# --- the parameters ---------------------------------------------------------

PARAMETERS: dict[str, Param] = {
    "players": Param(ParamKind.INT, _("How many players sit at a table."), minimum=MIN_PLAYERS, maximum=MAX_PLAYERS),
    "scoring": Param(
        ParamKind.CHOICE,
        _("How hands are valued: riichi (han and fu), MCR (fan) or the solo race."),
        options=options.Scoring,
    ),
    "start_points": Param(
        ParamKind.INT, _("The score every player starts the game with."), minimum=0, maximum=SCORE_LIMIT
    ),
    "return_points": Param(
        ParamKind.INT,
        _(
            "The score taken back from each player at the end; above the start points,"
            " the difference goes to first place (oka)."
        ),
        minimum=0,
        maximum=SCORE_LIMIT,
    ),
    "uma": Param(
        ParamKind.UMA,
        _("Points added or taken by final rank, first to last."),
        minimum=-POINTS_LIMIT,
        maximum=POINTS_LIMIT,
    ),
    "ties": Param(ParamKind.CHOICE, _("What happens when players end on the same score."), options=options.Ties),
    "deposits_at_end": Param(
        ParamKind.CHOICE, _("Riichi sticks still on the table when the game ends."), options=options.DepositsAtEnd
    ),
    "honba_points": Param(
        ParamKind.INT,
        _("Bonus a winner gets for each honba (on a tsumo, shared by the payers)."),
        minimum=0,
        maximum=HONBA_POINTS_LIMIT,
    ),
    "riichi_deposit": Param(ParamKind.INT, _("What one riichi stick is worth."), minimum=0, maximum=PAYMENT_LIMIT),
    "noten_payment_total": Param(
        ParamKind.INT,
        _("Points the noten players pay the tenpai players at an exhaustive draw, in all; 0 for none."),
        minimum=0,
        maximum=NOTEN_LIMIT,
    ),
    "kiriage_mangan": Param(ParamKind.BOOL, _("4 han 30 fu and 3 han 60 fu are paid as a mangan.")),
    "kazoe_yakuman": Param(ParamKind.BOOL, _("13 han or more counts as a yakuman (otherwise as a sanbaiman).")),
    "multiple_yakuman": Param(
        ParamKind.BOOL, _("Double and triple yakuman pay double and triple (otherwise one yakuman at most).")
    ),
    "multiple_ron": Param(
        ParamKind.CHOICE, _("When several players call ron on the same discard."), options=options.MultipleRon
    ),
    "multiple_ron_honba": Param(
        ParamKind.CHOICE,
        _("Who gets the honba bonus when several players win on one discard."),
        options=options.MultipleRonHonba,
    ),
    "multiple_ron_deposits": Param(
        ParamKind.CHOICE,
        _("Who takes the riichi sticks when several players win on one discard."),
        options=options.MultipleRonDeposits,
    ),
    "renchan": Param(ParamKind.CHOICE, _("When the dealer keeps the deal for another hand."), options=options.Renchan),
    "dealer_multiple_ron_renchan": Param(
        ParamKind.CHOICE,
        _("Whether the dealer keeps the deal when among several winners on one discard."),
        options=options.DealerMultipleRonRenchan,
    ),
    "abortive_draws": Param(
        ParamKind.BOOL, _("Abortive draws are allowed: the hand is replayed with one more honba, the dealer stays.")
    ),
    "abortive_draw_rules": Param(
        ParamKind.CHOICE, _("Which abortive draws there are."), options=options.AbortiveDrawRules
    ),
    "nagashi_mangan": Param(ParamKind.BOOL, _("Nagashi mangan is paid as a mangan tsumo.")),
    "busting": Param(ParamKind.BOOL, _("The game ends when a player's score goes below zero.")),
    "agari_yame": Param(ParamKind.BOOL, _("The game ends when the last dealer wins while in first place.")),
    "tenpai_yame": Param(
        ParamKind.BOOL,
        _("With agari-yame, the last dealer in first place who is tenpai at a draw may also end the game."),
    ),
    "round_winds": Param(
        ParamKind.INT,
        _("How long a game is: 1 for East only, 2 for East and South, 4 for a full game."),
        minimum=1,
        maximum=MAX_ROUND_WINDS,
    ),
    "extension": Param(
        ParamKind.CHOICE,
        _("Whether the game goes on into the next wind when nobody has reached the goal points."),
        options=options.Extension,
    ),
    "goal_points": Param(ParamKind.INT, _("The score that ends an extended game."), minimum=0, maximum=SCORE_LIMIT),
    "chombo_penalty": Param(
        ParamKind.NUMBER,
        _("Points taken from a player's result for each chombo, e.g. −20."),
        minimum=-POINTS_LIMIT,
        maximum=POINTS_LIMIT,
    ),
    "chombo_payment": Param(ParamKind.CHOICE, _("What a chombo pays at the table."), options=options.ChomboPayment),
    "chombo_flat_amount": Param(
        ParamKind.INT, _("With a fixed amount: what a chombo pays each other player."), minimum=0, maximum=PAYMENT_LIMIT
    ),
    "chombo_ends_game": Param(ParamKind.BOOL, _("A chombo ends the game.")),
    "false_win_dead_hand": Param(
        ParamKind.BOOL,
        _("MCR: after a false win the offender's hand is dead and cannot win (the referee may let them play on)."),
    ),
    "pao": Param(ParamKind.BOOL, _("A player who fed the tiles of a yakuman pays for it (pao).")),
    "pao_scope": Param(
        ParamKind.CHOICE,
        _("What the liable player pays for when the hand is worth more than the fed yakuman."),
        options=options.PaoScope,
    ),
    "min_han": Param(ParamKind.INT, _("The smallest winning hand, in han."), minimum=1, maximum=MAX_MIN_HAN),
    "yakuman_only": Param(
        ParamKind.BOOL, _("Only yakuman may win (counted yakuman too, where 13 han counts as yakuman).")
    ),
    "dealer_bonus": Param(ParamKind.BOOL, _("The dealer scores 1.5 times; off, everyone scores as a non-dealer.")),
    "tsumo_payment": Param(ParamKind.CHOICE, _("How the others share a tsumo."), options=options.TsumoPayment),
    "min_fan": Param(
        ParamKind.INT, _("MCR: the smallest winning hand in fan, flowers not counted."), minimum=0, maximum=MAX_MIN_FAN
    ),
    "base_payment": Param(
        ParamKind.INT,
        _("MCR: what every other player pays a winner before the fan."),
        minimum=0,
        maximum=BASE_PAYMENT_LIMIT,
    ),
    "table_points": Param(
        ParamKind.POINTS_LIST,
        _("MCR: table points by rank, first to last; ties share them."),
        minimum=-POINTS_LIMIT,
        maximum=POINTS_LIMIT,
        nullable=True,
    ),
    "seat_rotation": Param(
        ParamKind.CHOICE, _("Whether players change seats between round winds."), options=options.SeatRotation
    ),
    "final_rounding": Param(
        ParamKind.CHOICE, _("End scores as played, or rounded to the nearest 1,000."), options=options.FinalRounding
    ),
    "last_dealer_may_stop": Param(ParamKind.BOOL, _("The last dealer may end the game after a win.")),
    "double_wind_pair_fu": Param(
        ParamKind.INT,
        _(
            "Fu for a pair of the wind that is both the seat and the round wind "
            "(when hands are scored from their tiles)."
        ),
        minimum=min(DOUBLE_WIND_PAIR_FU),
        maximum=max(DOUBLE_WIND_PAIR_FU),
    ),
    "solo_ranking": Param(
        ParamKind.CHOICE, _("What ranks the players when each plays several attempts."), options=options.SoloRanking
    ),
    "solo_attempts": Param(
        ParamKind.INT,
        _("How many attempts make one game; empty: any number, each counting from the first."),
        minimum=1,
        maximum=SOLO_ATTEMPTS_LIMIT,
        nullable=True,
    ),
}
