"""The organiser's forms: a new event from a preset, its settings, its players, a round's seating and clock."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules.presets import preset_keys
from tournament.models import Event, Player, Tiebreak, printable
from tournament.services.events import MAX_ROUNDS
from web.preset_words import PRESET_WORDS

MAX_UPLOAD = 512 * 1024  # a player list of a thousand lines is a few dozen KB
TIEBREAK_SLOTS = len(Tiebreak.values)
# The model's choices are stored words; these are what an organiser reads.
TIEBREAK_WORDS = {
    "score": _("higher sum of end scores"),
    "average_rank": _("lower average placement"),
    "first_places": _("more first places"),
    "best_game": _("higher best single game"),
}
RANKING_WORDS = {"total": _("total points"), "average": _("average points per game")}
DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
ENTRANTS_HELP = _(
    "a team league seats teams; each team's captain or you name who plays each round. Fixed once a round is seated."
)


def preset_choices() -> list[tuple[str, Any]]:
    """Each preset in a sentence for the organiser: who plays it, its points and uma, what sets it apart."""
    return [(key, PRESET_WORDS.get(key, key)) for key in preset_keys()]


class EventCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200, validators=Event._meta.get_field("name").validators)
    kind = forms.ChoiceField(label=_("Kind"), choices=Event.Kind.choices, initial=Event.Kind.TOURNAMENT)
    ruleset_key = forms.ChoiceField(
        label=_("Rules"),
        choices=preset_choices,
        initial="wrc-2025",
        help_text=_("a federation's rules; change any of them afterwards"),
    )
    starts_on = forms.DateField(label=_("First day"), required=False, widget=DATE, initial=timezone.localdate)
    ends_on = forms.DateField(label=_("Last day"), required=False, widget=DATE)
    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=0,
        max_value=MAX_ROUNDS,
        initial=4,
        help_text=_("a league may start with none and add rounds as it goes"),
    )
    first_start = forms.DateTimeField(label=_("First round starts"), required=False, widget=DATETIME)
    time_limit_minutes = forms.IntegerField(
        label=_("Minutes per round"), required=False, min_value=1, max_value=24 * 60, initial=90
    )
    break_minutes = forms.IntegerField(
        label=_("Break between rounds (minutes)"), min_value=0, max_value=24 * 60, initial=15
    )
    entrants = forms.ChoiceField(
        label=_("Who plays"),
        choices=Event.Entrants.choices,
        required=False,
        initial=Event.Entrants.PLAYERS,
        widget=forms.RadioSelect,
        help_text=ENTRANTS_HELP,
    )
    public = forms.BooleanField(
        label=_("Public now"), required=False, help_text=_("otherwise only you see it until you publish it")
    )
    players = forms.CharField(
        label=_("Players"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "optional: one name per line, or CSV: name, federation id, country, club, "
            "team, substitute; or add them later"
        ),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        starts, ends = cleaned.get("starts_on"), cleaned.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("the last day comes before the first"))
        cleaned["entrants"] = cleaned.get("entrants") or Event.Entrants.PLAYERS  # none chosen: the default
        if cleaned["entrants"] == Event.Entrants.TEAMS:
            cleaned["team_ranking"] = Event.TeamRanking.SUM  # a team league ranks its teams
        return cleaned


class EventSettingsForm(forms.ModelForm[Event]):
    """The event's own settings; the rules are the RulesForm beside it."""

    class Meta:
        model = Event
        fields = (
            "name",
            "kind",
            "entrants",
            "starts_on",
            "ends_on",
            "min_games",
            "best_games",
            "ranking",
            "substitute_points",
            "team_ranking",
            "team_best",
            "swiss_spread",
            "allow_byes",
            "count_unconfirmed",
            "mers",
            "mers_weight",
            "rating",
        )
        widgets: ClassVar[dict[str, forms.Widget]] = {
            "starts_on": DATE,
            "ends_on": DATE,
            "entrants": forms.RadioSelect(),
        }
        labels: ClassVar[dict[str, Any]] = {
            "name": _("Name"),
            "kind": _("Kind"),
            "entrants": _("Who plays"),
            "starts_on": _("First day"),
            "ends_on": _("Last day"),
            "min_games": _("Games to be ranked"),
            "best_games": _("Best games counted"),
            "ranking": _("Ranked by"),
            "substitute_points": _("Points for a substitute's game"),
            "team_ranking": _("Team standings"),
            "team_best": _("Members counted per team"),
            "swiss_spread": _("Swiss: tables a player may move"),
            "allow_byes": _("Byes: seat full tables, the rest sit out"),
            "count_unconfirmed": _("Count games before all players confirm them"),
            "mers": _("EMA ranking (MERS)"),
            "mers_weight": _("Weight the EMA published"),
            "rating": _("Rating"),
        }
        help_texts: ClassVar[dict[str, Any]] = {
            "entrants": ENTRANTS_HELP,
            "min_games": _("leagues: fewer games, not ranked"),
            "best_games": _("leagues: only a player's best N"),
            "substitute_points": _("EMA: what a substitute's game counts for the absent player; empty: its result"),
            "team_best": _("with the best-members team standings"),
            "swiss_spread": _("0: strict pairing by rank; empty: any table"),
            "allow_byes": "",
            "count_unconfirmed": _("off: only confirmed games count"),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entrants"].required = False
        ranking = self.fields["ranking"]
        assert isinstance(ranking, forms.ChoiceField)
        ranking.choices = [(value, RANKING_WORDS.get(value, label)) for value, label in Event.Ranking.choices]
        chosen = list(self.instance.tiebreaks)
        for n in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{n}"] = forms.ChoiceField(
                label=_("Tie broken by, %(n)s.") % {"n": n},
                required=False,
                choices=[
                    ("", _("(nothing more)")),
                    *((v, TIEBREAK_WORDS.get(v, label)) for v, label in Tiebreak.choices),
                ],
                initial=chosen[n - 1] if n <= len(chosen) else "",
            )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        picked = [p for n in range(1, TIEBREAK_SLOTS + 1) if (p := cleaned.get(f"tiebreak_{n}"))]
        cleaned["tiebreaks"] = picked
        cleaned["entrants"] = cleaned.get("entrants") or self.instance.entrants  # a form without it keeps it
        if cleaned.get("entrants") == Event.Entrants.TEAMS and cleaned.get("team_ranking") == Event.TeamRanking.NONE:
            cleaned["team_ranking"] = Event.TeamRanking.SUM  # a team league ranks its teams
        for n, name in enumerate(picked, start=1):
            if name in picked[: n - 1]:
                self.add_error(f"tiebreak_{n}", _("a tiebreak is chosen twice"))
        if len(set(picked)) == len(picked):  # the model checks the list as well, where the form has no field for it
            self.instance.tiebreaks = picked
        return cleaned

    def settings(self) -> dict[str, Any]:
        """The values to save, tiebreaks included."""
        return {name: self.cleaned_data[name] for name in (*self.Meta.fields, "tiebreaks")}


class PlayersForm(forms.Form):
    text = forms.CharField(
        label=_("Players"),
        required=False,
        widget=forms.Textarea(
            attrs={
                # Translators: an example roster, names and places as your players have them; keep the commas and "yes".
                "rows": 8,
                "placeholder": _("Ann Lee\nBo Kim, 04120001, Korea, Seoul club, Team A\nCy Park, , , , , yes"),
            }
        ),
        help_text=_("one name per line, or CSV: name, federation id, country, club, team, substitute"),
    )
    file = forms.FileField(label=_("or a file (CSV or text)"), required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        upload = cleaned.get("file")
        if upload is not None:
            if upload.size > MAX_UPLOAD:
                self.add_error("file", _("the file is over 512 KB"))
                return cleaned
            try:
                cleaned["text"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("file", _("the file is not UTF-8 text (save the sheet as CSV UTF-8)"))
        if not (cleaned.get("text") or "").strip() and not self.errors:
            self.add_error("text", _("paste the players or choose a file"))
        return cleaned


class PlayerEditForm(forms.ModelForm[Player]):
    team = forms.CharField(label=_("Team"), max_length=100, required=False, validators=[printable])
    substitute = forms.BooleanField(label=_("Substitute"), required=False, help_text=_("fills a table; not ranked"))

    class Meta:
        model = Player
        fields = ("name", "federation_id", "country", "club", "online_name")

    def __init__(self, *args: Any, shared: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in self.Meta.fields if shared else ():
            self.fields[name].disabled = True
            self.fields[name].help_text = _("also plays in events you do not run: his organisers change it")


class CaptainForm(forms.Form):
    captain = forms.CharField(
        label=_("Captain"),
        max_length=150,
        required=False,
        help_text=_("their user name on this site; empty: no captain"),
    )


SEAT_METHODS = (
    ("random", _("random, few repeats")),
    ("swiss", _("swiss, by the standings")),
    ("rank", _("by rank in the stage: 1st to 4th at table 1, 5th to 8th at table 2, …")),
    ("named", _("as typed below")),
)


class SeatForm(forms.Form):
    method = forms.ChoiceField(label=_("Seating"), choices=SEAT_METHODS, initial="random", widget=forms.RadioSelect)
    seed = forms.IntegerField(required=False, widget=forms.HiddenInput, min_value=0)
    tables = forms.CharField(
        label=_("Tables"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("one table per line, its players East first, by name or federation id"),
    )
    unsettled_ok = forms.BooleanField(
        label=_("Seat by these standings"),
        required=False,
        help_text=_("an earlier round is still being played: swiss seats by the standings as they are now"),
    )

    def __init__(self, *args: Any, teams: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if teams:  # a team league seats its teams (by draw or standings); who plays is each team's lineup
            method = self.fields["method"]
            assert isinstance(method, forms.ChoiceField)
            method.choices = [choice for choice in SEAT_METHODS if choice[0] != "named"]
            del self.fields["tables"]


class ClockForm(forms.Form):
    minutes = forms.IntegerField(label=_("Minutes"), min_value=1, max_value=24 * 60)


class TotalsForm(forms.Form):
    """A game by its end scores: the players in seat order (East first), their scores, the sticks left."""

    deposits_left = forms.IntegerField(label=_("Riichi sticks left on the table"), min_value=0, max_value=99, initial=0)
    played_on = forms.DateField(label=_("Played on"), widget=DATE)

    def __init__(
        self,
        *args: Any,
        players: list[tuple[int, str]],
        seats: list[str],
        sticks: bool = True,
        fixed: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if not sticks:  # MCR and other rules without riichi sticks
            del self.fields["deposits_left"]
        if fixed:  # a correction: the players stay in their seats, the day as it was (what a form posts is ignored)
            self.fields["played_on"].disabled = True
        choices = [("", "—"), *((str(pid), name) for pid, name in players)]
        self.seats = []
        for n, wind in enumerate(seats, start=1):
            self.fields[f"player_{n}"] = forms.TypedChoiceField(label=wind, choices=choices, coerce=int, disabled=fixed)
            self.fields[f"score_{n}"] = forms.IntegerField(
                label=_("End score"), min_value=-10_000_000, max_value=10_000_000
            )
            self.seats.append((self[f"player_{n}"], self[f"score_{n}"]))

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        chosen = [cleaned.get(f"player_{n}") for n in range(1, len(self.seats) + 1)]
        for n, pid in enumerate(chosen, start=1):
            if pid is not None and pid in chosen[: n - 1]:
                self.add_error(f"player_{n}", _("this player is already at the table"))
        return cleaned

    def players(self) -> list[int]:
        return [self.cleaned_data[f"player_{n}"] for n in range(1, len(self.seats) + 1)]

    def scores(self) -> list[int]:
        return [self.cleaned_data[f"score_{n}"] for n in range(1, len(self.seats) + 1)]


class SubstituteForm(forms.Form):
    game = forms.IntegerField(widget=forms.HiddenInput)
    seat = forms.IntegerField(label=_("Seat"), min_value=0, max_value=7)
    player = forms.IntegerField(label=_("Substitute"))
