"""The ruleset: every parameter a federation's rules can set (SCORE_SHEET.md).

``PARAMETERS`` is the one description of each parameter: its type, its allowed
values and what it means. Validation, the JSON form of a ruleset and the
documentation all read it, so a parameter is added in one place.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.errors import Problem, RuleError

Number = Fraction

# Seat winds by table size (RULES.md §7, seed 001): five players add the
# Flower wind, six and seven the dragons, eight sit two to each wind.
WINDS = ("East", "South", "West", "North")
SEAT_WINDS: dict[int, tuple[str, ...]] = {
    5: (*WINDS, "Flower"),
    6: (*WINDS, "White", "Green"),
    7: (*WINDS, "White", "Green", "Red"),
    8: tuple(w for w in WINDS for _ in range(2)),
}
# One letter per wind for round labels (E1, F3, G2): White is B (blank), as W is West.
WIND_LETTERS = {"East": "E", "South": "S", "West": "W", "North": "N", "Flower": "F", "White": "B",
                "Green": "G", "Red": "R"}


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


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One federation's rules, frozen. Build it with ``Ruleset.build``; presets live in rules.presets."""

    key: str = "custom"
    players: int = 4
    scoring: str = "riichi"
    start_points: int = 30000
    return_points: int = 30000
    uma: Uma = (Fraction(15), Fraction(5), Fraction(-5), Fraction(-15))
    ties: str = "split"
    deposits_at_end: str = "first_place"
    honba_points: int = 300
    riichi_deposit: int = 1000
    noten_payment_total: int = 3000
    kiriage_mangan: bool = False
    kazoe_yakuman: bool = True
    multiple_yakuman: bool = True
    multiple_ron: str = "head_bump"
    multiple_ron_honba: str = "first_winner"
    multiple_ron_deposits: str = "first_winner"
    renchan: str = "tenpai"
    dealer_multiple_ron_renchan: str = "always"
    abortive_draws: bool = False
    nagashi_mangan: bool = False
    busting: bool = False
    agari_yame: bool = False
    round_winds: int = 2
    extension: str = "none"
    goal_points: int = 30000
    chombo_penalty: Fraction = Fraction(-20)
    chombo_payment: str = "none"
    chombo_flat_amount: int = 0
    chombo_ends_game: bool = False
    pao: bool = True
    min_han: int = 1
    yakuman_only: bool = False
    dealer_bonus: bool = True
    tsumo_payment: str = "standard"
    min_fan: int = 8
    base_payment: int = 8
    table_points: tuple[Fraction, ...] | None = None
    seat_rotation: str = "none"
    final_rounding: str = "exact"
    last_dealer_may_stop: bool = False
    double_wind_pair_fu: int = 4

    @property
    def oka(self) -> int:
        """Oka: (return − start) × players, to first place (RULES.md §5)."""
        return (self.return_points - self.start_points) * self.players

    @property
    def is_mcr(self) -> bool:
        return self.scoring == "mcr"

    @property
    def seat_winds(self) -> tuple[str, ...]:
        """The seat winds in seat order, East (the dealer) first (RULES.md §7)."""
        return SEAT_WINDS.get(self.players, WINDS[: self.players])

    @property
    def round_wind_names(self) -> tuple[str, ...]:
        """Round winds in play order: the table's distinct seat winds (RULES.md §7)."""
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
    def build(cls, *, base: Ruleset | None = None, overrides: Mapping[str, Any] | None = None,
              key: str | None = None) -> Ruleset:
        """``base`` with ``overrides`` (JSON values) applied, checked as a whole.

        Raises RuleError naming every bad parameter; a ruleset that is
        returned is consistent (see ``_cross_checks``).
        """
        base = base or cls()
        problems: list[Problem] = []
        changes: dict[str, Any] = {}
        for name, value in (overrides or {}).items():
            spec = PARAMETERS.get(name)
            if spec is None:
                problems.append(Problem(name, "unknown ruleset parameter"))
                continue
            try:
                changes[name] = spec.parse(value)
            except ValueError as exc:
                problems.append(Problem(name, str(exc)))
        if problems:
            raise RuleError(problems)
        ruleset = dataclasses.replace(base, **changes, key=key or base.key)
        problems = list(_cross_checks(ruleset))
        if problems:
            raise RuleError(problems)
        return ruleset


# --- parameter descriptions -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Param:
    kind: str  # "int", "bool", "choice", "number", "uma", "points_list"
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False

    def parse(self, value: Any) -> Any:
        parser = _PARSERS[self.kind]
        if value is None:
            if self.nullable:
                return None
            raise ValueError("must not be null")
        return parser(self, value)

    def dump(self, value: Any) -> Any:
        if value is None:
            return None
        if self.kind == "number":
            return number_json(value)
        if self.kind == "points_list":
            return [number_json(v) for v in value]
        if self.kind == "uma":
            if isinstance(value, UmaByPlusCount):
                table = {str(plus): [number_json(v) for v in uma] for plus, uma in value.tables}
                table["default"] = [number_json(v) for v in value.default]
                return {"by_plus_count": table}
            return [number_json(v) for v in value]
        return value

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema fragment for this parameter's override value."""
        schema: dict[str, Any]
        if self.kind == "int":
            schema = {"type": "integer"}
            if self.minimum is not None:
                schema["minimum"] = self.minimum
            if self.maximum is not None:
                schema["maximum"] = self.maximum
        elif self.kind == "bool":
            schema = {"type": "boolean"}
        elif self.kind == "choice":
            schema = {"enum": list(self.choices)}
        elif self.kind == "number":
            schema = {"type": "number"}
        elif self.kind == "points_list":
            schema = {"type": "array", "items": {"type": "number"}}
        else:
            schema = {"oneOf": [
                {"type": "array", "items": {"type": "number"}},
                {"type": "object", "required": ["by_plus_count"], "additionalProperties": False,
                 "properties": {"by_plus_count": {"type": "object", "additionalProperties":
                                                  {"type": "array", "items": {"type": "number"}}}}},
            ]}
        if self.nullable:
            schema = {"anyOf": [schema, {"type": "null"}]}
        schema["description"] = self.help
        return schema


def number_json(value: Fraction | int) -> int | float:
    """A number as JSON shows it: whole numbers without a decimal point."""
    frac = Fraction(value)
    return int(frac) if frac.denominator == 1 else float(frac)


def _to_fraction(value: Any) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError("must be a number")
    try:
        return Fraction(str(value))
    except ValueError:
        raise ValueError("must be a number") from None


def _parse_int(spec: Param, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise ValueError("must be a whole number")
    if spec.minimum is not None and value < spec.minimum:
        raise ValueError(f"must be at least {spec.minimum}")
    if spec.maximum is not None and value > spec.maximum:
        raise ValueError(f"must be at most {spec.maximum}")
    return int(value)


def _parse_bool(spec: Param, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("must be true or false")
    return value


def _parse_choice(spec: Param, value: Any) -> str:
    if value not in spec.choices:
        raise ValueError("must be one of: " + ", ".join(spec.choices))
    return str(value)


def _parse_number(spec: Param, value: Any) -> Fraction:
    return _to_fraction(value)


def _parse_points_list(spec: Param, value: Any) -> tuple[Fraction, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise ValueError("must be a list of numbers")
    return tuple(_to_fraction(v) for v in value)


def _parse_uma(spec: Param, value: Any) -> Uma:
    if isinstance(value, Mapping):
        if set(value) != {"by_plus_count"} or not isinstance(value["by_plus_count"], Mapping):
            raise ValueError('must be a list such as [15, 5, -5, -15] or {"by_plus_count": {...}}')
        tables: list[tuple[int, tuple[Fraction, ...]]] = []
        default: tuple[Fraction, ...] | None = None
        for count, uma in value["by_plus_count"].items():
            parsed = _parse_points_list(spec, uma)
            if count == "default":
                default = parsed
            elif str(count).isdigit():
                tables.append((int(count), parsed))
            else:
                raise ValueError(f'by_plus_count keys are player counts or "default", not {count!r}')
        if default is None:
            raise ValueError('by_plus_count needs a "default" list')
        return UmaByPlusCount(tables=tuple(sorted(tables)), default=default)
    return _parse_points_list(spec, value)


_PARSERS: dict[str, Callable[[Param, Any], Any]] = {
    "int": _parse_int,
    "bool": _parse_bool,
    "choice": _parse_choice,
    "number": _parse_number,
    "points_list": _parse_points_list,
    "uma": _parse_uma,
}

PARAMETERS: dict[str, Param] = {
    "players": Param("int", "seats at a table", minimum=2, maximum=8),
    "scoring": Param("choice", "hand value model", choices=("riichi", "mcr")),
    "start_points": Param("int", "score of every player at the start", minimum=0),
    "return_points": Param("int", "score subtracted at the end; oka = (return - start) x players", minimum=0),
    "uma": Param("uma", "points by rank, e.g. [15, 5, -5, -15], or {\"by_plus_count\": {...}}"),
    "ties": Param("choice", "tied end scores share uma and oka, or rank by seat (first dealer highest)",
                  choices=("split", "seat_order")),
    "deposits_at_end": Param("choice", "riichi sticks left when the game ends",
                             choices=("first_place", "lost")),
    "honba_points": Param("int", "bonus per honba to a winner (tsumo: shared by the payers)", minimum=0),
    "riichi_deposit": Param("int", "value of one riichi stick", minimum=0),
    "noten_payment_total": Param("int", "total of noten payments at an exhaustive draw; 0 = none",
                                 minimum=0),
    "kiriage_mangan": Param("bool", "4 han 30 fu and 3 han 60 fu are mangan"),
    "kazoe_yakuman": Param("bool", "13+ han is yakuman (else sanbaiman)"),
    "multiple_yakuman": Param("bool", "double/triple yakuman count (else capped at one)"),
    "multiple_ron": Param("choice", "several rons on one discard (seed 000 §3.5 options 1, 1.1, 2, 3, 4)",
                          choices=("head_bump", "head_bump_yakuman_exception",
                                   "double_head_bump_triple_abort", "all", "double_only_triple_abort")),
    "multiple_ron_honba": Param("choice", "who gets the honba bonus on a multiple ron",
                                choices=("each_winner", "first_winner")),
    "multiple_ron_deposits": Param("choice", "who takes the riichi sticks on a multiple ron",
                                   choices=("own_back_rest_first", "first_winner")),
    "renchan": Param("choice", "dealer keeps the seat when tenpai at a draw, only on a win, or never",
                     choices=("tenpai", "win", "none")),
    "dealer_multiple_ron_renchan": Param("choice", "renchan when the dealer is among several winners",
                                         choices=("always", "if_first", "never")),
    "abortive_draws": Param("bool", "abortive draws allowed (honba +1, dealer stays)"),
    "nagashi_mangan": Param("bool", "nagashi mangan paid as a mangan tsumo"),
    "busting": Param("bool", "the game ends when a score goes below 0"),
    "agari_yame": Param("bool", "the game ends when the last dealer wins or is tenpai while first"),
    "round_winds": Param("int", "1 = East only, 2 = East-South, 4 = full game", minimum=1, maximum=7),
    "extension": Param("choice", "continue into the next wind until someone reaches goal_points",
                       choices=("none", "until_goal")),
    "goal_points": Param("int", "score that ends an extended game", minimum=0),
    "chombo_penalty": Param("number", "points added to the offender's final points per chombo (e.g. -20)"),
    "chombo_payment": Param("choice", "paid at the table: reverse mangan, a flat amount to each, or none",
                            choices=("none", "reverse_mangan", "flat")),
    "chombo_flat_amount": Param("int", "for chombo_payment flat: paid to each other player", minimum=0),
    "chombo_ends_game": Param("bool", "a chombo ends the game"),
    "pao": Param("bool", "liability payments for fed yakuman"),
    "min_han": Param("int", "smallest winning hand in han", minimum=1, maximum=13),
    "yakuman_only": Param("bool", "only yakuman may win (counted yakuman where kazoe_yakuman)"),
    "dealer_bonus": Param("bool", "false: everyone scores as a non-dealer"),
    "tsumo_payment": Param("choice", "how a tsumo is shared (seed 001)",
                           choices=("standard", "equal_shares", "five_player_rule_2")),
    "min_fan": Param("int", "MCR: smallest winning hand in fan, flowers not counted", minimum=0),
    "base_payment": Param("int", "MCR: what every other player pays a winner before fan", minimum=0),
    "table_points": Param("points_list", "MCR table points by rank (4/2/1/0), shared on ties", nullable=True),
    "seat_rotation": Param("choice", "players change seats between round winds (MCR)",
                           choices=("none", "mcr")),
    "final_rounding": Param("choice", "end scores exact, or rounded to the nearest 1000 (Tenhou)",
                            choices=("exact", "nearest_thousand")),
    "last_dealer_may_stop": Param("bool", "the last dealer may end the game after a win; a sheet that stops "
                                  "there is finished (five-player rule 2)"),
    "double_wind_pair_fu": Param("int", "fu for a pair of the wind that is both seat and round wind "
                                 "(scoring from tiles)", minimum=2, maximum=4),
}


def _cross_checks(r: Ruleset) -> list[Problem]:
    """Consistency between parameters; each message names the parameter to fix."""
    problems: list[Problem] = []
    n = r.players
    if isinstance(r.uma, UmaByPlusCount):
        for plus, _uma in r.uma.tables:
            if not 0 <= plus <= n:
                problems.append(Problem(f"uma.by_plus_count.{plus}", f"a plus count is 0 to {n}"))
        for label, uma in (*((str(p), u) for p, u in r.uma.tables), ("default", r.uma.default)):
            if len(uma) != n:
                problems.append(Problem(f"uma.by_plus_count.{label}", f"needs {n} values, one per rank"))
    elif r.uma and len(r.uma) != n:
        problems.append(Problem("uma", f"needs {n} values, one per rank (or [] for none)"))
    if r.table_points is not None and len(r.table_points) != n:
        problems.append(Problem("table_points", f"needs {n} values, one per rank"))
    if r.round_winds > len(r.round_wind_letters):
        problems.append(Problem("round_winds", f"a {n}-player game has at most {len(r.round_wind_letters)}"))
    if r.return_points < r.start_points and r.uma != ():
        # Negative oka is legal arithmetic but almost always a typo: say so.
        problems.append(Problem("return_points", "must not be below start_points"))
    if r.chombo_penalty > 0:
        problems.append(Problem("chombo_penalty", "is added to the offender's points: use 0 or a negative "
                                "number such as -20"))
    if r.chombo_payment == "flat" and r.chombo_flat_amount <= 0:
        problems.append(Problem("chombo_flat_amount", "must be above 0 when chombo_payment is flat"))
    if not r.dealer_bonus and r.tsumo_payment != "equal_shares":
        problems.append(Problem("tsumo_payment", "must be equal_shares when dealer_bonus is false "
                                "(nobody pays a dealer's double share)"))
    if r.tsumo_payment == "five_player_rule_2" and n != 5:
        problems.append(Problem("tsumo_payment", "five_player_rule_2 is for 5 players"))
    if r.is_mcr:
        if r.seat_rotation == "mcr" and n != 4:
            problems.append(Problem("seat_rotation", "the MCR seat rotation is for 4 players"))
    elif r.seat_rotation != "none":
        problems.append(Problem("seat_rotation", "only MCR games rotate seats"))
    if r.double_wind_pair_fu not in (2, 4):
        problems.append(Problem("double_wind_pair_fu", "must be 2 or 4"))
    if r.riichi_deposit == 0 and r.scoring == "riichi":
        problems.append(Problem("riichi_deposit", "must be above 0 in riichi"))
    return problems
