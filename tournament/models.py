"""The structure of an event: players, events with their ruleset, registrations, rounds, tables, games and seats.

What happens in a game (its hands, history, results and the standings) is
the scoring app's; a Game here carries the replayed result that scoring
stores on it, players named by seat, so that renaming a player changes no
stored row.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules.errors import Problem, RuleError
from rules.presets import build_ruleset
from rules.ruleset import Ruleset
from rules.seating import SWISS_SPREAD
from rules.text import PRINTABLE

# The one check of the text a person gives a player or a team, whichever path writes it (the console, the API,
# the admin, an imported log or sheet, a restore): what the score sheet takes, so an exported sheet reads back.
printable = RegexValidator(PRINTABLE, _("must be printable text (no control characters such as line breaks or tabs)"))


def validate_trimmed(value: str) -> None:
    if value != value.strip():
        raise ValidationError(_("must not begin or end with a space"), code="untrimmed")


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


class Player(models.Model):
    name = models.CharField(max_length=100, validators=[printable, validate_trimmed])
    federation_id = models.CharField(max_length=40, blank=True, help_text="e.g. an EMA number",
                                     validators=[printable])
    country = models.CharField(max_length=60, blank=True, validators=[printable])
    club = models.CharField(max_length=100, blank=True, validators=[printable])
    online_name = models.CharField(max_length=100, blank=True, help_text="the name played under on Tenhou or "
                                   "Mahjong Soul: imported game logs find the player by it", validators=[printable])
    user = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="player")

    class Meta:
        ordering = ("name", "id")
        constraints = (
            models.UniqueConstraint(fields=("online_name",), condition=~models.Q(online_name=""),
                                    name="one_player_per_online_name"),
        )

    def __str__(self) -> str:
        return self.name


class Tiebreak(models.TextChoices):
    """What breaks a tie on points, as an event lists them; players equal on all of them share the rank."""

    SCORE = "score", "higher sum of end scores"
    AVERAGE_RANK = "average_rank", "lower average placement"
    FIRST_PLACES = "first_places", "more first places"
    BEST_GAME = "best_game", "higher best single game"


def tiebreak_problems(value: Any) -> list[str]:
    names = ", ".join(Tiebreak.values)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return [f"must be a list of tiebreak names: {names}"]
    problems = [f"unknown tiebreak {v!r}; choose from {names}" for v in value if v not in Tiebreak.values]
    if len(set(value)) != len(value):
        problems.append("a tiebreak is listed twice")
    return problems


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
    best_games = models.PositiveIntegerField(null=True, blank=True,
                                             help_text="count only a player's best N games (leagues)")
    ranking = models.CharField(max_length=20, default=Ranking.TOTAL, choices=Ranking.choices)
    substitute_points = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True,
                                            help_text="a substitute's game counts these points for the absent "
                                            "player (EMA); empty: the substitute's real result")
    allow_byes = models.BooleanField(default=True, help_text="seat what fills tables and leave the rest out")
    count_unconfirmed = models.BooleanField(default=True, help_text="standings count a finished game before all "
                                            "its players confirmed it (marked as such); off: only confirmed games")
    swiss_spread = models.PositiveSmallIntegerField(
        null=True, blank=True, default=SWISS_SPREAD,
        help_text="swiss: how many tables a player may sit from the table his rank gives him, to avoid repeats "
                  "(0: strict pairing by rank; empty: any)")
    referee_invite = models.CharField(max_length=32, blank=True, help_text="the secret of the link that makes a "
                                      "signed-in user a referee of this event; blank: no link (revoked)")
    tiebreaks = models.JSONField(default=list, blank=True,
                                 help_text="after points (MCR: table points, then score), in order: "
                                 + ", ".join(f"{key} ({text})" for key, text in Tiebreak.choices))
    team_ranking = models.CharField(max_length=10, default=TeamRanking.NONE, choices=TeamRanking.choices,
                                    help_text=_("team standings: none, the sum of all members' points, or the sum "
                                                "of each team's best N members (substitutes never count)"))
    team_best = models.PositiveSmallIntegerField(null=True, blank=True,
                                                 validators=[MinValueValidator(1)],
                                                 help_text=_("N for the best-members team ranking"))

    class Meta:
        ordering = ("-starts_on", "name")
        constraints = (
            models.CheckConstraint(condition=models.Q(ends_on__isnull=True) | models.Q(starts_on__isnull=True)
                                   | models.Q(ends_on__gte=models.F("starts_on")), name="event_dates_in_order"),
        )

    def __str__(self) -> str:
        return self.name

    def ruleset(self) -> Ruleset:
        """The ruleset in force: the preset with this event's overrides (rules.presets)."""
        return build_ruleset(key=self.ruleset_key, overrides=self.ruleset_overrides)

    def clean(self) -> None:
        errors: dict[str, list[str]] = {}
        try:
            self.ruleset()
        except RuleError as exc:
            errors["ruleset_overrides" if self.ruleset_overrides else "ruleset_key"] = [str(p) for p in exc.problems]
        if problems := tiebreak_problems(self.tiebreaks):
            errors["tiebreaks"] = problems
        if self.team_ranking == Event.TeamRanking.BEST and not self.team_best:
            errors["team_best"] = [str(_("the best-members team ranking needs N, how many members count"))]
        stored = Event.objects.filter(pk=self.pk).first() if self.pk else None
        if stored is not None:
            for problem in stored.rules_change_problems(key=self.ruleset_key, overrides=self.ruleset_overrides):
                errors.setdefault("ruleset_key" if problem.field == "ruleset" else "ruleset_overrides",
                                  []).append(problem.message)
        if errors:
            raise ValidationError(errors)

    def rules_change_problems(self, *, key: str, overrides: Any) -> list[Problem]:
        """Why the event's rules may not become ``key`` with ``overrides``: once a round is seated or a game
        opened, every table and every stored result was made under the rules in force (seat count, winds,
        scoring), so they are fixed for the rest of the event."""
        changed = [field for field, old, new in (("ruleset", self.ruleset_key, key),
                                                 ("overrides", self.ruleset_overrides, overrides)) if old != new]
        if not changed:
            return []
        games = self.games.count()
        seated = self.rounds.filter(tables__isnull=False).distinct().count()
        if not games and not seated:
            return []
        why = (f"the rules are fixed once a round is seated or a game is opened (this event has {games} "
               f"game{'s' if games != 1 else ''} and {seated} seated round{'s' if seated != 1 else ''})")
        return [Problem(field, why) for field in changed]

    def rules_locked(self) -> bool:
        """Once a round is seated or a game opened, the rules no longer change (rules_change_problems)."""
        return self.games.exists() or self.rounds.filter(tables__isnull=False).exists()

    def is_organiser(self, user: Any) -> bool:
        return bool(user.is_authenticated and (user.is_superuser or self.organisers.filter(pk=user.pk).exists()))

    def can_score(self, user: Any) -> bool:
        """Organisers and the event's referees enter and correct hands."""
        return self.is_organiser(user) or bool(
            user.is_authenticated and self.referees.filter(pk=user.pk).exists())


class Team(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=100, validators=[printable, validate_trimmed])

    class Meta:
        constraints = (models.UniqueConstraint(fields=("event", "name"), name="team_name_unique_in_event"),)

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="members")
    substitute = models.BooleanField(default=False, help_text="fills a table; not ranked")
    withdrawn = models.BooleanField(default=False, help_text="left the event: keeps the games played, is not "
                                    "seated again")
    # Mixed into the player's confirmation code (scoring.services.confirmations.player_code): a reissue counts
    # it up, so the old code stops working and nobody else's changes. 0 is the first, shorter kind of code.
    code_version = models.PositiveIntegerField(default=1)
    code_reissued_at = models.DateTimeField(null=True, blank=True)
    code_reissued_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                         related_name="+")

    class Meta:
        constraints = (models.UniqueConstraint(fields=("event", "player"), name="one_registration_per_player"),)

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    starts_at = models.DateTimeField(null=True, blank=True)
    time_limit_minutes = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ("event", "number")
        constraints = (
            models.UniqueConstraint(fields=("event", "number"), name="round_number_unique_in_event"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_from_1"),
        )

    def __str__(self) -> str:
        return f"{self.event} round {self.number}"

    @property
    def clock_started(self) -> bool:
        """The round's clock is running or has run out (a planned start still to come is not)."""
        return self.starts_at is not None and self.starts_at <= timezone.now()

    def ends_at(self) -> datetime | None:
        """When the round's clock runs out; the hand in play is the last (SCORE_SHEET.md `end: time`)."""
        if self.starts_at is None or self.time_limit_minutes is None:
            return None
        return self.starts_at + timedelta(minutes=self.time_limit_minutes)


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField()
    # The table code (scoring.services.table_codes) is derived from the server's secret and this salt: a new
    # salt revokes the old code, blank means the table has none.
    code_salt = models.CharField(max_length=16, blank=True)

    class Meta:
        ordering = ("round", "number")
        constraints = (models.UniqueConstraint(fields=("round", "number"), name="table_number_unique_in_round"),)

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


MAX_SEATS = 8  # the largest table the rules cover (RULES.md §7)


class Game(models.Model):
    """One game at a table (or outside any round, as leagues play them); its players are its seats."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    class Platform(models.TextChoices):
        TENHOU = "tenhou", "Tenhou"
        MAHJONG_SOUL = "mahjong_soul", "Mahjong Soul"

    class LogCheck(models.TextChoices):
        MATCHES = "matches", _("matches the log")
        DIFFERS = "differs", _("differs from the log")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="games")
    table = models.OneToOneField(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="game")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PLAYING)
    # Bumped by every change to the game's hands: a write carrying an older one is refused (409).
    version = models.PositiveIntegerField(default=1)
    start = models.JSONField(default=dict, blank=True, help_text="the sheet's start: round, honba, deposits, scores")
    ended_by_time = models.BooleanField(default=False)
    played_on = models.DateField(default=timezone.localdate, help_text="a league counts the games in its date range")
    result = models.JSONField(default=dict, blank=True, help_text="the replayed score sheet's output, players by seat "
                              "(derived)")
    # An online game is scored by its platform's rules, not the event's: blank means the event's.
    ruleset_key = models.CharField(max_length=40, blank=True, help_text="blank: the event's ruleset")
    ruleset_overrides = models.JSONField(default=dict, blank=True)
    platform = models.CharField(max_length=20, blank=True, choices=Platform.choices,
                                help_text="where an imported game was played")
    log_id = models.CharField(max_length=80, blank=True, help_text="the platform's id of an imported game's log")
    log_check = models.CharField(max_length=10, blank=True, choices=LogCheck.choices,
                                 help_text="an imported game replayed against the numbers its log records")
    log_differences = models.JSONField(default=list, blank=True, help_text="where the replay and the log differ")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-created_at", "-id")
        constraints = (
            models.UniqueConstraint(fields=("event", "log_id"), condition=~models.Q(log_id=""),
                                    name="one_game_per_log_per_event"),
        )

    def __str__(self) -> str:
        return f"game {self.pk} ({self.event})"

    @property
    def recorded_by_scores(self) -> bool:
        """A game recorded by its end scores (a club night's): no hand, stopped by the clock at the scores it was
        taken up with (``scoring.services.games.game_record_totals``)."""
        return self.ended_by_time and "scores" in self.start and not self.result.get("hands")

    @property
    def log_label(self) -> str:
        """The log id as people read it: Tenhou's whole, a content hash cut to its first 12 digits."""
        return self.log_id[:19] + "…" if self.log_id.startswith("sha256:") else self.log_id

    def rules_source(self) -> tuple[str, dict[str, Any]]:
        """The preset key and overrides this game is scored by: its own (an online game's) or the event's."""
        if self.ruleset_key:
            return self.ruleset_key, self.ruleset_overrides
        return self.event.ruleset_key, self.event.ruleset_overrides

    def ruleset(self) -> Ruleset:
        key, overrides = self.rules_source()
        return build_ruleset(key=key, overrides=overrides)


class Seat(models.Model):
    """A player in a game; ``position`` 0 is East, the first dealer (the score sheet's player order)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    substitute = models.BooleanField(default=False, help_text="fills in for an absent player in this game")

    class Meta:
        ordering = ("game", "position")
        constraints = (
            models.UniqueConstraint(fields=("game", "position"), name="one_player_per_seat"),
            models.UniqueConstraint(fields=("game", "player"), name="one_seat_per_player_per_game"),
            models.CheckConstraint(condition=models.Q(position__lt=MAX_SEATS), name="seat_position_0_to_7"),
        )

    def __str__(self) -> str:
        return f"{self.player} in game {self.game_id}, seat {self.position}"
