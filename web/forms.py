"""The referee's hand entry form: a score-sheet hand (docs/score-sheet.md) as form fields, and back.

The form checks types only. Whether a hand is valid (a han/fu pair, a winner
who is also the loser, tiles that do not win) is the engine's call, made when
scoring.services.replay replays the game; web.refusals puts its messages next to
the fields they name (``problem_field``). ``hand_record`` builds the record from the cleaned data,
leaving out what is empty or belongs to another result; ``record_initial`` is
its inverse, to load a stored hand for editing.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from rules.hand_value import KAZOE_HAN
from rules.ruleset import Ruleset
from rules.solo import MAX_DRAWS
from scoring.edge.keys import KEY_LENGTH
from scoring.sheet.record import Field, Kind, Model, hand_fields, win_fields
from scoring.tiles.notation import MCR_FLAGS, RIICHI_FLAGS
from web.chips import chips, count_chips, counter, fu_chips, fu_rule, repeated_players
from web.presenters import wind_label

RESULT_NAMES: dict[str, Promise] = {
    "ron": _("Ron"),
    "tsumo": _("Tsumo"),
    "draw": _("Draw"),
    "abort": _("Abortive draw"),
    "chombo": _("Chombo"),
    "tenpai": _("Tenpai"),
    "noten": _("Noten (the wall ran out)"),
}
ABORT_NAMES: dict[str, Promise] = {
    "nine_terminals": _("Nine terminals"),
    "four_winds": _("Four winds"),
    "four_riichi": _("Four riichi"),
    "four_kans": _("Four kans"),
    "triple_ron": _("Triple ron"),
}
FOUR_PLAYERS = 4


def abort_name(reason: str, players: int) -> str:
    """The referee's word for an abortive draw; at a table of other than four, the rule as it counts there
    (seed 001's rule 0: the first N discards of one wind, all N in riichi, N - 1 rons on one discard)."""
    if reason == "all_others_ron":
        return _("%(count)s rons on one discard") % {"count": players - 1}
    if players != FOUR_PLAYERS and reason == "four_winds":
        return _("First %(count)s discards one wind") % {"count": players}
    if players != FOUR_PLAYERS and reason == "four_riichi":
        return _("All %(count)s in riichi") % {"count": players}
    return str(ABORT_NAMES[reason])


FLAG_NAMES: dict[str, Promise] = {
    "double_riichi": _("Double riichi"),
    "ippatsu": _("Ippatsu"),
    "rinshan": _("Rinshan (after a kan)"),
    "chankan": _("Chankan (robbing a kan)"),
    "haitei": _("Haitei (last draw)"),
    "houtei": _("Houtei (last discard)"),
    "tenhou": _("Tenhou"),
    "chiihou": _("Chiihou"),
    "last_tile": _("Last tile (the fourth of its kind)"),
    "kong": _("Kong (robbing or replacement draw)"),
    "wall_last": _("Last tile of the wall"),
}
# The referee's words for each field of the hand record (scoring.sheet.record): (label, help).
LABELS: dict[str, tuple[StrOrPromise, StrOrPromise]] = {
    "result": (_("Result"), ""),
    "draws": (_("Draws to tenpai"), _("after the 14 dealt tiles; 0 = tenpai as dealt")),
    "winner": (_("Winner"), ""),
    "loser": (_("Discarder (ron)"), ""),
    "han": (_("Han"), _("dora included")),
    "fu": (_("Fu"), ""),
    "yakuman": (_("Yakuman"), _("instead of han: 2 for a double")),
    "fan": (_("Fan"), _("without flowers")),
    "flowers": (_("Flowers"), ""),
    "pao": (_("Pao (liable for the yakuman)"), ""),
    "tiles": (_("Or type the winning tiles"), ""),
    "wins": (_("Multiple ron: more winners"), ""),
    "riichi": (_("Riichi"), _("every player who put a riichi stick out in this hand")),
    "tenpai": (_("Tenpai at the draw"), ""),
    "nagashi": (_("Nagashi mangan"), ""),
    "reason": (_("Reason"), ""),
    "player": (_("Chombo by"), ""),
    "false_wins": (_("False wins"), _("each pays the penalty; the hand went on")),
    "false_wins_live": (_("Played on after a false win"), _("not a dead hand: may still win it (the referee's call)")),
    "note": (_("Note"), _("a remark for the record; not scored")),
}
# Extra winners of a multiple ron: win2_winner, win2_han, … (the first winner uses the plain names).
EXTRA_WINS = (2, 3)


def win_prefix(number: int) -> str:
    """What the form fields of a hand's ``number``-th win start with: nothing for the first winner (han), win2_
    for the second (win2_han)."""
    return "" if number == 1 else f"win{number}_"


TILE_FIELDS = ("concealed", "win", "melds", "dora", "ura", "flags")


@dataclass(frozen=True, slots=True)
class SeatChoice:
    """A player as the form offers them: by id, shown with their seat wind in the hand being entered."""

    player_id: int
    name: str
    wind: str

    @property
    def label(self) -> str:
        return f"{wind_label(self.wind)} · {self.name}" if self.wind else self.name


Choices = list[tuple[Any, Any]]


def _player(label: Any, choices: Choices) -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=label, choices=choices, coerce=int, empty_value=None, required=False, widget=chips([], css="players")
    )


def _players(label: Any, choices: Choices, help_text: Any = "") -> forms.TypedMultipleChoiceField:
    return forms.TypedMultipleChoiceField(
        label=label,
        choices=choices,
        coerce=int,
        required=False,
        help_text=help_text,
        widget=forms.CheckboxSelectMultiple(attrs={"class": "choices chips players"}),
    )


def _count(label: Any, help_text: Any = "", *, least: int | None = None, most: int | None = None) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        help_text=help_text,
        min_value=least,
        max_value=most,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def _text(label: Any, help_text: Any = "", placeholder: str = "") -> forms.CharField:
    attrs = {"autocapitalize": "off", "autocomplete": "off", "spellcheck": "false"}
    if placeholder:
        attrs["placeholder"] = placeholder
    return forms.CharField(label=label, required=False, help_text=help_text, widget=forms.TextInput(attrs=attrs))


@dataclass(frozen=True, slots=True)
class _Offer:
    """What this game's entry offers: the results and the players to choose from."""

    ruleset: Ruleset
    results: tuple[str, ...]
    players: Choices

    @classmethod
    def of(cls, ruleset: Ruleset, seats: Sequence[SeatChoice]) -> _Offer:
        results = ["ron", "tsumo", "draw"]
        if ruleset.is_solo:  # an attempt of the solo race to tenpai (rules.solo)
            results = ["tenpai", "noten"]
        elif not ruleset.is_mcr:
            if ruleset.abort_reasons:
                results.append("abort")
            results.append("chombo")
        return cls(ruleset=ruleset, results=tuple(results), players=[(s.player_id, s.label) for s in seats])

    def offers(self, field: Field) -> bool:
        """Whether the form has this field: its scoring model, a result offered, and the rule it needs."""
        spec = field.spec
        # The solo game's tenpai hand is valued as a riichi hand: it takes the riichi value fields, but no riichi.
        models = (
            (Model.BOTH, Model.SOLO, Model.RIICHI)
            if self.ruleset.is_solo
            else (Model.BOTH, Model.MCR if self.ruleset.is_mcr else Model.RIICHI)
        )
        needs = {"pao": self.ruleset.pao, "nagashi": self.ruleset.nagashi_mangan, "riichi": not self.ruleset.is_solo}
        return spec.model in models and bool(spec.results & set(self.results)) and needs.get(field.name, True)

    def field(self, field: Field) -> forms.Field:
        """The form field for one field of the hand record, by what it holds."""
        label, help_text = LABELS[field.name]
        kind = field.spec.kind
        if kind is Kind.OUTCOME:
            return forms.ChoiceField(
                label=label, choices=[(r, RESULT_NAMES[r]) for r in self.results], widget=chips([], css="results")
            )
        if kind is Kind.PLAYER:
            optional = not field.spec.required_for and field.name != "winner"
            return _player(label, [("", _("nobody")), *self.players] if optional else self.players)
        if kind is Kind.PLAYERS and field.spec.each > 1:
            return repeated_players(label, self.players, help_text, each=field.spec.each)
        if kind is Kind.PLAYERS:
            return _players(label, self.players, help_text)
        if kind is Kind.FU:
            return fu_chips(label)
        if kind is Kind.DRAWS:
            return counter(label, help_text, least=field.spec.minimum or 0, most=MAX_DRAWS)
        if kind is Kind.COUNT and field.name in ("han", "yakuman") and field.spec.minimum and field.spec.maximum:
            # Chips, not a number box: one tap, no keyboard. 13 han stands for 13 or more.
            han = field.name == "han"
            return count_chips(
                label,
                help_text,
                least=field.spec.minimum,
                most=field.spec.maximum,
                shown=KAZOE_HAN if han else None,
                top_label=f"{KAZOE_HAN}+" if han else "",
            )
        if kind is Kind.COUNT:
            return _count(label, help_text, least=field.spec.minimum, most=field.spec.maximum)
        if kind is Kind.REASON:
            return forms.ChoiceField(
                label=label,
                required=False,
                widget=chips([]),
                choices=[(str(r), abort_name(r, self.ruleset.players)) for r in self.ruleset.abort_reasons],
            )
        return forms.CharField(label=label, required=False, max_length=field.spec.max_length, help_text=help_text)


class HandForm(forms.Form):
    """One hand; the fields offered follow the ruleset (riichi or MCR), the players their seat winds.

    The fields come from the hand record's declaration (scoring.sheet.record):
    each field a game offers becomes a form field by what it holds; the tiles
    and a multiple ron's further winners become groups of their own.
    """

    version = forms.IntegerField(widget=forms.HiddenInput)
    index = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    # One key per rendered form: the same form sent twice (a double tap, a resent page) saves one hand.
    key = forms.CharField(
        widget=forms.HiddenInput, required=False, max_length=KEY_LENGTH, initial=lambda: uuid.uuid4().hex
    )

    def __init__(self, *args: Any, seats: Sequence[SeatChoice], ruleset: Ruleset, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.mcr = ruleset.is_mcr
        self.seats = list(seats)
        self.fu_rule = {} if self.mcr else fu_rule(ruleset)
        offer = _Offer.of(ruleset, self.seats)
        # A further winner already given (a stored hand, a form sent) is kept, and shown, whatever the rules pay.
        declared = any((self.data or self.initial).get(win_prefix(k) + "winner") not in (None, "") for k in EXTRA_WINS)
        for field in hand_fields():
            if not offer.offers(field):
                continue
            if field.spec.kind is Kind.TILES:
                self.fields.update(_tile_fields(mcr=self.mcr))
            elif field.spec.kind is Kind.WINS:
                self.fields.update(_extra_win_fields(offer, declared=declared))
            else:
                self.fields[field.name] = offer.field(field)

    def fields_named(self, *names: str) -> list[forms.BoundField]:
        """The bound fields among ``names`` this form has (the ruleset decides which)."""
        return [self[name] for name in names if name in self.fields]

    def extra_wins(self) -> list[dict[str, Any]]:
        """The second and third winners of a multiple ron: their winner, value and pao fields."""
        values = [f.name for f in win_fields() if f.spec.kind in (Kind.COUNT, Kind.FU)]  # han, fu, yakuman
        return [
            {
                "winner": self[win_prefix(k) + "winner"],
                "values": self.fields_named(*(win_prefix(k) + name for name in values)),
                "pao": self[win_prefix(k) + "pao"] if win_prefix(k) + "pao" in self.fields else None,
            }
            for k in EXTRA_WINS
            if win_prefix(k) + "winner" in self.fields
        ]

    def tiles_fields(self) -> list[forms.BoundField]:
        return self.fields_named(*(f"tiles_{n}" for n in TILE_FIELDS))

    def tiles_open(self) -> bool:
        """Show the tiles part opened: the referee typed tiles, or the engine refused them."""
        names = [name for name in self.fields if name.startswith("tiles_")]
        return any(self[name].value() or self[name].errors for name in names)

    def extra_wins_open(self) -> bool:
        """Show the multiple-ron part opened: a second winner is given, or refused."""
        names = [name for name in self.fields if name.startswith("win") and name != "winner"]
        return any(self[name].errors for name in names) or any(
            self[name].value() not in (None, "") for name in names if name.endswith("_winner")
        )


def _tile_fields(*, mcr: bool) -> dict[str, forms.Field]:
    """Tiles instead of the value: the engine computes it (docs/score-sheet.md "Tiles")."""
    fields: dict[str, forms.Field] = {
        "tiles_concealed": _text(
            _("Concealed tiles"), _("without the winning tile; 0 is a red five"), "234m456m345p67s88p"
        ),
        "tiles_win": _text(_("Winning tile"), "", "8s"),
        "tiles_melds": _text(_("Called sets"), _("separated by commas"), "pon 777z, chi 345m"),
    }
    if not mcr:
        fields["tiles_dora"] = _text(_("Dora indicators"), "", "3m")
        fields["tiles_ura"] = _text(_("Ura dora indicators"), "", "")
    flags = MCR_FLAGS if mcr else RIICHI_FLAGS
    fields["tiles_flags"] = forms.MultipleChoiceField(
        label=_("Special wins"),
        required=False,
        choices=[(k, FLAG_NAMES.get(k, k)) for k in flags],
        widget=forms.CheckboxSelectMultiple(attrs={"class": "choices"}),
    )
    return fields


def _extra_win_fields(offer: _Offer, *, declared: bool) -> dict[str, forms.Field]:
    """The second and third winner of a multiple ron, each with the fields of a win (riichi only): offered where
    the rules may pay them, kept where a hand already declares them (a head bump then says who is paid)."""
    fields: dict[str, forms.Field] = {}
    if offer.ruleset.is_mcr or not (offer.ruleset.pays_several_rons or declared):
        return fields
    for k in EXTRA_WINS[: offer.ruleset.players - 2]:
        for field in win_fields():
            if field.spec.kind is Kind.TILES or not offer.offers(field):
                continue
            form_field = offer.field(field)
            if field.name == "winner":
                form_field = _player(_("Winner %(n)s") % {"n": k}, [("", _("nobody")), *offer.players])
            fields[win_prefix(k) + field.name] = form_field
    return fields


class DeleteForm(forms.Form):
    index = forms.IntegerField(min_value=0)
    version = forms.IntegerField()


# --- the engine's problems next to the fields ---------------------------------------


def problem_field(field: str) -> str:
    """The form field a problem of the hand names: ``fu`` -> fu, ``wins[1].han`` -> win2_han,
    ``tiles.melds[1]`` -> tiles_melds, ``riichi[0]`` -> riichi; "" for the hand as a whole."""
    prefix = ""
    match = re.fullmatch(r"wins(?:\[(\d+)\])?(?:\.(.+))?", field)
    if match:
        position = int(match.group(1) or 0)
        prefix = "" if position == 0 else f"win{position + 1}_"
        field = match.group(2) or "winner"
    if field == "tiles" or field.startswith("tiles."):
        rest = re.split(r"[.\[]", field[len("tiles.") :], maxsplit=1)[0] if field != "tiles" else ""
        if rest == "flowers":
            return prefix + "flowers"
        return prefix + "tiles_" + (rest if rest in TILE_FIELDS else "concealed")
    return prefix + re.split(r"[.\[]", field, maxsplit=1)[0] if field else ""
