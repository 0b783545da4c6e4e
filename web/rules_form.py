"""The event's rules as a form: one control per ruleset parameter, generated from rules.parameters.PARAMETERS.

The organiser starts from a preset and changes what the event plays
differently; what is saved is only what differs from the preset (the event's
overrides), so the preset's documentation still describes the rest.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules.errors import Refusal
from rules.parameters import PARAMETERS, Param, ParamKind, number_json
from rules.presets import build_ruleset, get_preset
from rules.ruleset import Ruleset
from web import refusals

# Where each parameter appears; the table size and the scoring model come with the preset (pick another
# preset to change them), so they are not in the form.
FIXED = frozenset({"players", "scoring"})
MCR_GROUP = ("min_fan", "base_payment", "table_points", "seat_rotation", "false_win_dead_hand")
SOLO_GROUP = ("solo_ranking", "solo_attempts")  # the solo race to tenpai has no points, sticks or winners
CHOMBO_GROUP = ("chombo_penalty", "chombo_payment", "chombo_flat_amount", "chombo_ends_game")
GROUPS: tuple[tuple[Any, tuple[str, ...]], ...] = (
    (
        _("Points and uma"),
        (
            "start_points",
            "return_points",
            "uma",
            "ties",
            "deposits_at_end",
            "riichi_deposit",
            "honba_points",
            "noten_payment_total",
            "final_rounding",
        ),
    ),
    (
        _("Length of a game"),
        (
            "round_winds",
            "busting",
            "agari_yame",
            "tenpai_yame",
            "extension",
            "goal_points",
            "renchan",
            "last_dealer_may_stop",
        ),
    ),
    (
        _("Hands"),
        (
            "min_han",
            "kiriage_mangan",
            "kazoe_yakuman",
            "multiple_yakuman",
            "yakuman_only",
            "dealer_bonus",
            "tsumo_payment",
            "double_wind_pair_fu",
            "abortive_draws",
            "abortive_draw_rules",
            "nagashi_mangan",
            "pao",
            "pao_scope",
        ),
    ),
    (
        _("Several winners on one discard"),
        ("multiple_ron", "multiple_ron_honba", "multiple_ron_deposits", "dealer_multiple_ron_renchan"),
    ),
    (_("Chombo"), CHOMBO_GROUP),
    (_("MCR"), MCR_GROUP),
    (_("The solo race to tenpai"), SOLO_GROUP),
)
LABELS: dict[str, Any] = {
    "start_points": _("Start points"),
    "return_points": _("Return points"),
    "uma": _("Uma by rank"),
    "ties": _("Tied end scores"),
    "deposits_at_end": _("Riichi sticks left at the end"),
    "riichi_deposit": _("Riichi stick"),
    "honba_points": _("Points per honba"),
    "noten_payment_total": _("Noten payments in all"),
    "final_rounding": _("End scores"),
    "round_winds": _("Round winds"),
    "busting": _("Game ends below zero"),
    "agari_yame": _("Agari-yame"),
    "tenpai_yame": _("Tenpai-yame"),
    "extension": _("Extension"),
    "goal_points": _("Goal points"),
    "renchan": _("Dealer repeats"),
    "last_dealer_may_stop": _("Last dealer may stop"),
    "min_han": _("Minimum han"),
    "kiriage_mangan": _("Kiriage mangan"),
    "kazoe_yakuman": _("Kazoe yakuman"),
    "multiple_yakuman": _("Double yakuman"),
    "yakuman_only": _("Yakuman only"),
    "dealer_bonus": _("Dealer bonus"),
    "tsumo_payment": _("Tsumo payment"),
    "double_wind_pair_fu": _("Double wind pair fu"),
    "abortive_draws": _("Abortive draws"),
    "abortive_draw_rules": _("Which abortive draws"),
    "nagashi_mangan": _("Nagashi mangan"),
    "pao": _("Pao"),
    "pao_scope": _("Pao covers"),
    "multiple_ron": _("Several rons"),
    "multiple_ron_honba": _("Honba goes to"),
    "multiple_ron_deposits": _("Riichi sticks go to"),
    "dealer_multiple_ron_renchan": _("Dealer among winners"),
    "chombo_penalty": _("Chombo penalty (points)"),
    "chombo_payment": _("Chombo paid at the table"),
    "chombo_flat_amount": _("Chombo flat amount"),
    "chombo_ends_game": _("Chombo ends the game"),
    "min_fan": _("Minimum fan"),
    "base_payment": _("Base payment"),
    "table_points": _("Table points by rank"),
    "seat_rotation": _("Seat rotation"),
    "false_win_dead_hand": _("A false win kills the hand"),
    "solo_ranking": _("Several attempts rank by"),
    "solo_attempts": _("Attempts per game"),
}
# Plainer words than the parameter table's, where it speaks of the JSON form.
HELP: dict[str, Any] = {
    "uma": _(
        "Points added or taken by final rank, first to last; empty: the preset's uma, set by how many players "
        "finish above the return points."
    ),
}
# The options' values as an organiser reads them, by parameter (the stored value is the enum's string,
# rules.options, and stays the API's).
CHOICE_WORDS: dict[tuple[str, str], Any] = {
    ("ties", "split"): _("tied players share the uma and oka"),
    ("ties", "seat_order"): _("the seat nearer the first dealer ranks higher"),
    ("deposits_at_end", "first_place"): _("go to first place"),
    ("deposits_at_end", "lost"): _("are lost"),
    ("multiple_ron", "head_bump"): _("only the first player after the discarder wins (head bump)"),
    ("multiple_ron", "head_bump_yakuman_exception"): _("head bump, but a yakuman always wins too"),
    ("multiple_ron", "double_head_bump_triple_abort"): _("head bump; a triple ron is an abortive draw"),
    ("multiple_ron", "all"): _("every player who calls ron wins"),
    ("multiple_ron", "double_only_triple_abort"): _("a double ron pays both; a triple ron is an abortive draw"),
    ("multiple_ron_honba", "each_winner"): _("every winner gets it"),
    ("multiple_ron_honba", "first_winner"): _("the first winner after the discarder"),
    ("multiple_ron_deposits", "own_back_rest_first"): _(
        "each winner takes back their own stick, the first winner the rest"
    ),
    ("multiple_ron_deposits", "first_winner"): _("the first winner after the discarder takes them all"),
    ("renchan", "tenpai"): _("on a win, or when tenpai at a draw"),
    ("renchan", "win"): _("only on a win"),
    ("renchan", "none"): _("never: the deal passes after every hand"),
    ("dealer_multiple_ron_renchan", "always"): _("the dealer keeps the deal"),
    ("dealer_multiple_ron_renchan", "if_first"): _("only if the dealer is the first winner"),
    ("dealer_multiple_ron_renchan", "never"): _("the deal passes"),
    ("abortive_draw_rules", "usual"): _("the usual four: nine terminals, four winds, four riichi, four kans"),
    ("abortive_draw_rules", "rule_0"): _(
        "for big tables: the first discards all one wind, everyone in riichi, all but one calling ron"
    ),
    ("extension", "none"): _("no: the game ends after its last hand"),
    ("extension", "until_goal"): _("into the next wind until someone reaches the goal points"),
    ("chombo_payment", "none"): _("nothing at the table"),
    ("chombo_payment", "reverse_mangan"): _("a mangan paid to the others"),
    ("chombo_payment", "flat"): _("a fixed amount to each other player"),
    ("pao_scope", "fed_yakuman"): _("only the yakuman they fed"),
    ("pao_scope", "whole_hand"): _("the whole hand"),
    ("tsumo_payment", "standard"): _("the dealer pays double, as usual"),
    ("tsumo_payment", "equal_shares"): _("equal shares from every other player"),
    ("tsumo_payment", "five_player_rule_2"): _("five-player rule 2: the dealer pays two shares"),
    ("seat_rotation", "none"): _("players keep their seats"),
    ("seat_rotation", "mcr"): _("players change seats after each round wind, as in MCR"),
    ("final_rounding", "exact"): _("as played"),
    ("final_rounding", "nearest_thousand"): _("rounded to the nearest 1,000"),
    ("solo_ranking", "best_attempt"): _("each player's best attempt"),
    ("solo_ranking", "sum_of_attempts"): _("the sum of all attempts"),
}
PLACES = 2  # decimals of a points value (uma and penalties are whole or half points in every rule book)


def shown(ruleset: Ruleset) -> list[tuple[Any, tuple[str, ...]]]:
    """The groups an MCR, a solo or a riichi event sets: MCR has no han, riichi sticks or uma; the solo race to
    tenpai only chooses how several attempts count."""
    if ruleset.is_solo:
        return [(title, names) for title, names in GROUPS if names == SOLO_GROUP]
    if ruleset.is_mcr:
        return [(title, names) for title, names in GROUPS if names in (MCR_GROUP, CHOMBO_GROUP)]
    return [(title, names) for title, names in GROUPS if names not in (MCR_GROUP, SOLO_GROUP)]


class RulesForm(forms.Form):
    """Every shown parameter of the event's ruleset, filled with the rules in force."""

    def __init__(self, *args: Any, key: str, overrides: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.key, self.overrides = key, overrides
        preset = get_preset(key)
        self.preset_values = preset.as_dict()
        current = build_ruleset(key=key, overrides=overrides).as_dict()
        self.players = preset.players
        self.groups: list[tuple[Any, list[str]]] = []
        for title, names in shown(preset):
            group = []
            for name in names:
                for field_name, field in _fields(name, PARAMETERS[name], self.players, current[name]).items():
                    self.fields[field_name] = field
                    group.append(field_name)
            self.groups.append((title, group))

    def grouped(self) -> list[tuple[Any, list[forms.BoundField]]]:
        return [(title, [self[name] for name in names]) for title, names in self.groups]

    def new_overrides(self) -> dict[str, Any]:
        """The overrides the form says: the earlier ones, each shown parameter set only where it differs."""
        overrides = {k: v for k, v in self.overrides.items() if k not in PARAMETERS or k in FIXED}
        for name in {n for _title, names in shown(get_preset(self.key)) for n in names}:
            value = _value(name, PARAMETERS[name], self.cleaned_data, self.players)
            if value is _KEEP:
                if name in self.overrides:
                    overrides[name] = self.overrides[name]
            elif value != self.preset_values[name]:
                overrides[name] = value
        return overrides

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not self.errors:
            try:
                build_ruleset(key=self.key, overrides=self.new_overrides())
            except Refusal as exc:
                refusals.on_form(self, exc, field=self._field_of)
        return cleaned

    def _field_of(self, path: str) -> str:
        """The field a parameter's problem goes beside: the parameter's, or the first of its list (uma_1)."""
        return path if path in self.fields else f"{path}_1" if f"{path}_1" in self.fields else ""


_KEEP = object()  # an uma given by the number of players above the return, left as it is


def _fields(name: str, spec: Param, players: int, value: Any) -> dict[str, forms.Field]:
    label, help_text = LABELS.get(name, name.replace("_", " ")), HELP.get(name) or gettext(spec.help)
    low, high = spec.minimum, spec.maximum
    if spec.kind in (ParamKind.UMA, ParamKind.POINTS_LIST):
        values = value if isinstance(value, list) else []
        return {
            f"{name}_{n}": forms.DecimalField(
                label=f"{label} {n}",
                required=False,
                decimal_places=PLACES,
                help_text=help_text if n == 1 else "",
                initial=values[n - 1] if n <= len(values) else None,
                min_value=low,
                max_value=high,
            )
            for n in range(1, players + 1)
        }
    field: forms.Field
    if spec.kind == ParamKind.INT:
        field = forms.IntegerField(min_value=low, max_value=high, required=not spec.nullable)
    elif spec.kind == ParamKind.BOOL:
        field = forms.BooleanField(required=False)
    elif spec.kind == ParamKind.CHOICE:
        field = forms.ChoiceField(choices=[(c, CHOICE_WORDS.get((name, c), c.replace("_", " "))) for c in spec.choices])
    else:
        field = forms.DecimalField(decimal_places=PLACES, min_value=low, max_value=high)
    field.label, field.help_text, field.initial = label, help_text, value
    return {name: field}


def _value(name: str, spec: Param, data: dict[str, Any], players: int) -> Any:
    if spec.kind in (ParamKind.UMA, ParamKind.POINTS_LIST):
        numbers = [data.get(f"{name}_{n}") for n in range(1, players + 1)]
        if all(v is None for v in numbers):
            return None if spec.nullable else _KEEP
        return [_number(v if v is not None else Decimal(0)) for v in numbers]
    if spec.kind == ParamKind.NUMBER:
        return _number(data[name])
    return data[name]


def _number(value: Decimal) -> int | float:
    return number_json(Fraction(str(value)))
