"""The organiser's stage form: who enters a stage, what they carry in, how its rounds are seated and how many."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from rules.errors import Problem
from tournament.models import Event, Stage
from tournament.services.events import MAX_ROUNDS
from web import refusals

CARRIES = (("none", _("nothing")), ("half", _("half")), ("all", _("all")), ("share", _("a share:")))
SEATINGS = {
    "random": _("random, few repeats"),
    "swiss": _("swiss, by the standings"),
    "rank": _("by rank: 1st to 4th at table 1, 5th to 8th at table 2, …"),
}
WINDS = {"rank": _("by rank: the best of a table sits East"), "drawn": _("drawn")}
# The service's fields as this form names them.
FIELDS = {"entry.also": "entry_also", "entry": "entry_top", "entry.top": "entry_top"}


class StageForm(forms.Form):
    """A stage's settings (stage 1 takes everyone and carries nothing: it has no entry or carry fields)."""

    name = forms.CharField(label=_("Name"), max_length=60, help_text=_("such as Qualifying, Semi-final, Final"))
    entry_top = forms.IntegerField(
        label=_("Players going on"),
        required=False,
        min_value=1,
        max_value=10_000,
        help_text=_("the top N of the stage before; empty: everyone"),
    )
    entry_also = forms.TypedMultipleChoiceField(
        label=_("Wildcards"),
        required=False,
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("go on whatever their rank: a defending champion, a host's pick"),
    )
    carry = forms.ChoiceField(label=_("Points carried in"), choices=CARRIES, initial="none", widget=forms.RadioSelect)
    carry_share = forms.CharField(
        label=_("Share carried"),
        required=False,
        max_length=20,
        help_text=_("a fraction from 0 to 1, such as 1/3 or 0.25"),
    )
    carry_table_points = forms.BooleanField(label=_("Carry table points, not points"), required=False)
    seating = forms.ChoiceField(
        label=_("Seating"), choices=list(SEATINGS.items()), initial="random", widget=forms.RadioSelect
    )
    winds = forms.ChoiceField(
        label=_("Seat winds when seated by rank"), choices=list(WINDS.items()), initial="rank", widget=forms.RadioSelect
    )
    rounds_planned = forms.IntegerField(
        label=_("Hanchan"),
        required=False,
        min_value=1,
        max_value=MAX_ROUNDS,
        help_text=_("how many rounds the stage plays"),
    )

    def __init__(self, *args: Any, event: Event, stage: Stage | None = None, **kwargs: Any) -> None:
        if stage is not None and "initial" not in kwargs:
            kwargs["initial"] = initial_of(stage)
        super().__init__(*args, **kwargs)
        self.first = stage is not None and stage.number == 1
        if self.first:
            for name in ("entry_top", "entry_also", "carry", "carry_share", "carry_table_points"):
                del self.fields[name]
            return
        also = self.fields["entry_also"]
        assert isinstance(also, forms.TypedMultipleChoiceField)
        also.choices = entrant_choices(event)
        if event.entrants == Event.Entrants.TEAMS:
            self.fields["entry_top"].label = _("Teams going on")
        if not event.ruleset().is_mcr:
            del self.fields["carry_table_points"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("carry") == "share" and not (cleaned.get("carry_share") or "").strip():
            self.add_error("carry_share", _("give the share, such as 1/3"))
        return cleaned

    def data_for_service(self) -> dict[str, Any]:
        """The settings as scoring.services.stages takes them."""
        data = self.cleaned_data
        out = {
            "name": data["name"],
            "seating": data["seating"],
            "winds": data["winds"],
            "rounds_planned": data["rounds_planned"],
        }
        if not self.first:
            carry = data["carry_share"].strip() if data["carry"] == "share" else data["carry"]
            out.update(
                entry_top=data["entry_top"],
                entry_also=list(data["entry_also"]),
                carry=carry,
                carry_table_points=bool(data.get("carry_table_points")),
            )
        return out

    def add_service_problems(self, problems: Sequence[Problem]) -> None:
        """The service's refusals beside this form's fields (a carry share's beside the share)."""
        share = self.cleaned_data.get("carry") == "share"
        moved = [
            p.moved("carry_share" if p.field == "carry" and share else FIELDS.get(p.field, p.field)) for p in problems
        ]
        refusals.on_form(self, moved)


def initial_of(stage: Stage) -> dict[str, Any]:
    named = stage.carry in {"none", "half", "all"}
    return {
        "name": stage.name,
        "entry_top": stage.entry_top,
        "entry_also": list(stage.entry_also or []),
        "carry": stage.carry if named else "share",
        "carry_share": "" if named else stage.carry,
        "carry_table_points": stage.carry_table_points,
        "seating": stage.seating,
        "winds": stage.winds,
        "rounds_planned": stage.rounds_planned,
    }


def entrant_choices(event: Event) -> list[tuple[int, str]]:
    """Who may be a wildcard: the event's registered players, or a team league's teams."""
    if event.entrants == Event.Entrants.TEAMS:
        return list(event.teams.order_by("name").values_list("pk", "name"))
    return list(event.registrations.order_by("player__name").values_list("player_id", "player__name"))


class CutForm(forms.Form):
    """The organiser's decision on a tie at the line: exactly as many of the tied as there are places."""

    through = forms.TypedMultipleChoiceField(
        label=_("Who goes on"), required=False, coerce=int, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, tied: Sequence[tuple[int, str]] = (), places: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.places = places
        field = self.fields["through"]
        assert isinstance(field, forms.TypedMultipleChoiceField)
        field.choices = list(tied)

    def clean_through(self) -> list[int]:
        chosen: list[int] = self.cleaned_data.get("through") or []
        tied = self.fields["through"]
        if getattr(tied, "choices", None) and len(chosen) != self.places:
            raise forms.ValidationError(
                ngettext(
                    "tick %(places)s of the tied players (%(n)s ticked)",
                    "tick %(places)s of the tied players (%(n)s ticked)",
                    self.places,
                )
                % {"places": self.places, "n": len(chosen)}
            )
        return chosen

    def add_service_problems(self, problems: Sequence[Problem]) -> None:
        refusals.on_form(self, problems)
