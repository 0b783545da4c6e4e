"""An event with its ruleset and standings options, its teams and its registrations."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from rules.errors import Problem, Refusal
from rules.presets import build_ruleset
from rules.ruleset import Ruleset
from rules.seating import SWISS_SPREAD
from rules.standings import Tiebreak as RankTiebreak
from tournament.models.people import Player, printable, validate_trimmed

if TYPE_CHECKING:
    from tournament.users import RequestUser


def text_problems(row: models.Model) -> list[Problem]:
    """What the validators above find wrong with a player's or a team's text, one Problem per field (none for
    other rows): for the paths that write rows without a form (a roster, an imported log, a restore)."""
    if not isinstance(row, Player | Team):
        return []
    try:
        row.clean_fields(exclude=[f.name for f in row._meta.fields if not isinstance(f, models.CharField)])
    except ValidationError as exc:
        return [Problem(field, " ".join(str(m) for m in messages)) for field, messages in exc.message_dict.items()]
    return []


class Tiebreak(models.TextChoices):
    """What breaks a tie on points, as an event lists them; players equal on all of them share the rank."""

    SCORE = RankTiebreak.SCORE.value, "higher sum of end scores"
    AVERAGE_RANK = RankTiebreak.AVERAGE_RANK.value, "lower average placement"
    FIRST_PLACES = RankTiebreak.FIRST_PLACES.value, "more first places"
    BEST_GAME = RankTiebreak.BEST_GAME.value, "higher best single game"


def tiebreak_problems(value: Any) -> list[str]:
    names = ", ".join(Tiebreak.values)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return [f"must be a list of tiebreak names: {names}"]
    problems = [f"unknown tiebreak {v!r}; choose from {names}" for v in value if v not in Tiebreak.values]
    if len(set(value)) != len(value):
        problems.append("a tiebreak is listed twice")
    return problems


# The keys of the EMA's rankings (docs/rankings.md): a rated event's own rating is listed under its slug, so these
# slugs cannot carry a rating.
MERS_KEYS = ("ema", "ema-mcr")


class Event(models.Model):
    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", _("tournament")
        LEAGUE = "league", _("league")

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class Ranking(models.TextChoices):
        TOTAL = "total", "total points"
        AVERAGE = "average", "average points per game"

    class Mers(models.TextChoices):
        NONE = "", _("not counted")
        CERTIFIED = "certified", _("an EMA-certified tournament")
        CHAMPIONSHIP = "championship", _("a European championship (weight + 1)")

    class Rating(models.TextChoices):
        NONE = "", _("none")
        TENHOU = "tenhou", _("Tenhou-style rating (3 or 4 players)")
        ELO = "elo", _("Elo (two players)")

    class Entrants(models.TextChoices):
        PLAYERS = "players", _("players")
        TEAMS = "teams", _("teams (a team league: tables seat teams, each names who plays)")

    class TeamRanking(models.TextChoices):
        NONE = "none", _("no team standings")
        SUM = "sum", _("sum of all members' points")
        BEST = "best", _("sum of each team's best N members")

    name = models.CharField(max_length=200, validators=[printable, validate_trimmed])
    slug = models.SlugField(max_length=80, unique=True)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.TOURNAMENT)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    ruleset_key = models.CharField(max_length=40, default="wrc-2025")
    ruleset_overrides = models.JSONField(default=dict, blank=True)
    public = models.BooleanField(default=False)
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organised_events", blank=True)
    referees = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="refereed_events", blank=True)
    # Standings options (leagues): who is ranked and on what.
    min_games = models.PositiveIntegerField(default=0, help_text="games needed to be ranked (leagues)")
    best_games = models.PositiveIntegerField(
        null=True, blank=True, help_text="count only a player's best N games (leagues)"
    )
    ranking = models.CharField(max_length=20, default=Ranking.TOTAL, choices=Ranking.choices)
    substitute_points = models.DecimalField(
        max_digits=8,
        decimal_places=2,
        null=True,
        blank=True,
        help_text="a substitute's game counts these points for the absent "
        "player (EMA); empty: the substitute's real result",
    )
    allow_byes = models.BooleanField(default=True, help_text="seat what fills tables and leave the rest out")
    count_unconfirmed = models.BooleanField(
        default=True,
        help_text="standings count a finished game before all "
        "its players confirmed it (marked as such); off: only confirmed games",
    )
    swiss_spread = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        default=SWISS_SPREAD,
        help_text="swiss: how many tables a player may sit from the table his rank gives him, to avoid repeats "
        "(0: strict pairing by rank; empty: any)",
    )
    referee_invite = models.CharField(
        max_length=32,
        blank=True,
        help_text="the secret of the link that makes a "
        "signed-in user a referee of this event; blank: no link (revoked)",
    )
    organiser_invite = models.CharField(
        max_length=32,
        blank=True,
        help_text="the secret of the link that makes its holder a co-organiser of this event; blank: no link (revoked)",
    )
    tiebreaks = models.JSONField(
        default=list,
        blank=True,
        help_text="after points (MCR: table points, then score), in order: "
        + ", ".join(f"{key} ({text})" for key, text in Tiebreak.choices),
    )
    entrants = models.CharField(
        max_length=10,
        default=Entrants.PLAYERS,
        choices=Entrants.choices,
        help_text=_(
            "who is seated and ranked: players, or teams (a team league, ranked by the sum of the team's game points)"
        ),
    )
    team_ranking = models.CharField(
        max_length=10,
        default=TeamRanking.NONE,
        choices=TeamRanking.choices,
        help_text=_(
            "team standings: none, the sum of all members' points, or the sum "
            "of each team's best N members (substitutes never count)"
        ),
    )
    team_best = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)], help_text=_("N for the best-members team ranking")
    )
    mers = models.CharField(
        max_length=12,
        blank=True,
        default=Mers.NONE,
        choices=Mers.choices,
        help_text=_("whether the EMA ranking (MERS) takes this event's final ranking once it is finished"),
    )
    mers_weight = models.DecimalField(
        max_digits=4,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0.5")), MaxValueValidator(10)],
        help_text=_("the weight the EMA published for it; empty: computed from its days, players and countries"),
    )
    rating = models.CharField(
        max_length=10,
        blank=True,
        default=Rating.NONE,
        choices=Rating.choices,
        help_text=_("a rating updated game by game, listed under the event's address"),
    )

    class Meta:
        ordering = ("-starts_on", "name")
        constraints = (
            models.CheckConstraint(
                condition=models.Q(ends_on__isnull=True)
                | models.Q(starts_on__isnull=True)
                | models.Q(ends_on__gte=models.F("starts_on")),
                name="event_dates_in_order",
            ),
        )

    def __str__(self) -> str:
        return self.name

    # What the templates ask of the event's choices, so that no template compares against a choice's value.
    @property
    def is_draft(self) -> bool:
        return self.status == Event.Status.DRAFT

    @property
    def is_running(self) -> bool:
        return self.status == Event.Status.RUNNING

    @property
    def is_finished(self) -> bool:
        return self.status == Event.Status.FINISHED

    @property
    def has_teams(self) -> bool:
        """A team league: its tables seat teams."""
        return self.entrants == Event.Entrants.TEAMS

    @property
    def ranks_teams(self) -> bool:
        return self.team_ranking != Event.TeamRanking.NONE

    @property
    def counts_best_members(self) -> bool:
        """A team's points are its best ``team_best`` members' (not every member's)."""
        return self.team_ranking == Event.TeamRanking.BEST

    def ruleset(self) -> Ruleset:
        """The ruleset in force: the preset with this event's overrides (rules.presets)."""
        return build_ruleset(key=self.ruleset_key, overrides=self.ruleset_overrides)

    def clean(self) -> None:
        errors: dict[str, list[str]] = {}
        try:
            self.ruleset()
        except Refusal as exc:
            errors["ruleset_overrides" if self.ruleset_overrides else "ruleset_key"] = [str(p) for p in exc.problems]
        if problems := tiebreak_problems(self.tiebreaks):
            errors["tiebreaks"] = problems
        if self.entrants == Event.Entrants.TEAMS and self.team_ranking == Event.TeamRanking.NONE:
            errors["team_ranking"] = [str(_("a team league ranks its teams: choose how"))]
        if self.team_ranking == Event.TeamRanking.BEST and not self.team_best:
            errors["team_best"] = [str(_("the best-members team ranking needs N, how many members count"))]
        for why in self.rating_problems(self.rating):
            errors.setdefault("rating", []).append(why)
        stored = Event.objects.filter(pk=self.pk).first() if self.pk else None
        if stored is not None:
            for problem in stored.rules_change_problems(key=self.ruleset_key, overrides=self.ruleset_overrides):
                errors.setdefault("ruleset_key" if problem.field == "ruleset" else "ruleset_overrides", []).append(
                    problem.message
                )
        if errors:
            raise ValidationError(errors)

    def rules_change_problems(self, *, key: str, overrides: Any) -> list[Problem]:
        """Why the event's rules may not become ``key`` with ``overrides``: once a round is seated or a game
        opened, every table and every stored result was made under the rules in force (seat count, winds,
        scoring), so they are fixed for the rest of the event."""
        changed = [
            field
            for field, old, new in (
                ("ruleset", self.ruleset_key, key),
                ("overrides", self.ruleset_overrides, overrides),
            )
            if old != new
        ]
        if not changed:
            return []
        games = self.games.count()
        seated = self.rounds.filter(tables__isnull=False).distinct().count()
        if not games and not seated:
            return []
        why = (
            f"the rules are fixed once a round is seated or a game is opened (this event has {games} "
            f"game{'s' if games != 1 else ''} and {seated} seated round{'s' if seated != 1 else ''})"
        )
        return [Problem(field, why) for field in changed]

    def rating_problems(self, rating: str, ruleset: Ruleset | None = None) -> list[str]:
        """Why the event may not have ``rating``: Tenhou's R rates tables of 3 or 4, Elo two players, and the
        EMA's keys are not an event's."""
        if not rating:
            return []
        problems = []
        try:
            players = (ruleset or self.ruleset()).players
        except Refusal:
            players = 0  # the rules' own field says why
        if rating == Event.Rating.TENHOU and players not in (3, 4):
            problems.append(str(_("Tenhou's rating is for tables of 3 or 4 players")))
        if rating == Event.Rating.ELO and players != 2:
            problems.append(str(_("Elo is for two-player games")))
        if self.slug in MERS_KEYS:
            problems.append(
                str(
                    _("the address %(slug)s is the EMA ranking's: an event under it has no rating")
                    % {"slug": self.slug}
                )
            )
        return problems

    def rules_locked(self) -> bool:
        """Once a round is seated or a game opened, the rules no longer change (rules_change_problems)."""
        return self.games.exists() or self.rounds.filter(tables__isnull=False).exists()

    def has_stages(self) -> bool:
        """More than the one stage every event has (tournament.models.stages): a cut into a later one."""
        return self.stages.filter(number__gte=2).exists()

    def is_organiser(self, user: RequestUser) -> bool:
        return bool(user.is_authenticated and (user.is_superuser or self.organisers.filter(pk=user.pk).exists()))

    def can_score(self, user: RequestUser) -> bool:
        """Organisers and the event's referees enter and correct hands. Every hand write asks it: one query, or none
        when the write read the answer with the game (``tournament.selectors.with_scorer``)."""
        if not user.is_authenticated:
            return False
        known = self.__dict__.get("_scorer")
        if known is not None and known[0] == user.pk:
            return bool(user.is_superuser or known[1])
        return (
            user.is_superuser or Event.objects.filter(Q(organisers=user.pk) | Q(referees=user.pk), pk=self.pk).exists()
        )

    def scorer_read(self, user_pk: int, scores: bool) -> None:
        """What a query that read the event already says of ``can_score`` for the user ``user_pk``."""
        self.__dict__["_scorer"] = (user_pk, scores)


class Team(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=100, validators=[printable, validate_trimmed])
    captain = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="captained_teams",
        help_text=_("names who plays for the team in a team league's rounds"),
    )

    class Meta:
        constraints = (models.UniqueConstraint(fields=("event", "name"), name="team_name_unique_in_event"),)

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="members")
    substitute = models.BooleanField(default=False, help_text="fills a table; not ranked")
    withdrawn = models.BooleanField(
        default=False, help_text="left the event: keeps the games played, is not seated again"
    )
    # Mixed into the player's confirmation code (scoring.services.confirmations.player_code): a reissue counts
    # it up, so the old code stops working and nobody else's changes. 0 is the first, shorter kind of code.
    code_version = models.PositiveIntegerField(default=1)
    code_reissued_at = models.DateTimeField(null=True, blank=True)
    code_reissued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = (models.UniqueConstraint(fields=("event", "player"), name="one_registration_per_player"),)

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"
