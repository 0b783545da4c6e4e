"""What is played: an event's rounds, their tables, the games (one per table, or outside any round, as leagues
play them) and the seats."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules.presets import build_ruleset
from rules.ruleset import Ruleset
from tournament.models.events import Event, Team
from tournament.models.people import Player


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    stage = models.PositiveSmallIntegerField(default=1, help_text="the number of the event's stage it belongs to")
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
        """When the round's clock runs out; the hand in play is the last (docs/score-sheet.md `end: time`)."""
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


MAX_SEATS = 12  # the largest table the rules cover (docs/rules.md §7): rules.parameters.MAX_PLAYERS


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
    result = models.JSONField(
        default=dict, blank=True, help_text="the replayed score sheet's output, players by seat (derived)"
    )
    # An online game is scored by its platform's rules, not the event's: blank means the event's.
    ruleset_key = models.CharField(max_length=40, blank=True, help_text="blank: the event's ruleset")
    ruleset_overrides = models.JSONField(default=dict, blank=True)
    platform = models.CharField(
        max_length=20, blank=True, choices=Platform.choices, help_text="where an imported game was played"
    )
    log_id = models.CharField(max_length=80, blank=True, help_text="the platform's id of an imported game's log")
    log_check = models.CharField(
        max_length=10,
        blank=True,
        choices=LogCheck.choices,
        help_text="an imported game replayed against the numbers its log records",
    )
    log_differences = models.JSONField(default=list, blank=True, help_text="where the replay and the log differ")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-created_at", "-id")
        constraints = (
            models.UniqueConstraint(
                fields=("event", "log_id"), condition=~models.Q(log_id=""), name="one_game_per_log_per_event"
            ),
        )

    def __str__(self) -> str:
        return f"game {self.pk} ({self.event})"

    @property
    def is_finished(self) -> bool:
        return self.status == Game.Status.FINISHED

    @property
    def log_differs(self) -> bool:
        """An imported game whose replay differs from the numbers its log records."""
        return self.log_check == Game.LogCheck.DIFFERS

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
            models.CheckConstraint(condition=models.Q(position__lt=MAX_SEATS), name="seat_position_0_to_11"),
        )

    def __str__(self) -> str:
        return f"{self.player} in game {self.game_id}, seat {self.position}"


class TeamSeat(models.Model):
    """In a team league, the team at a seat of a round's table; who sits there is the team's lineup."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="team_seats")
    position = models.PositiveSmallIntegerField()
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ("table", "position")
        constraints = (
            models.UniqueConstraint(fields=("table", "position"), name="one_team_per_seat"),
            models.UniqueConstraint(fields=("table", "team"), name="one_seat_per_team_per_table"),
        )

    def __str__(self) -> str:
        return f"{self.team} at {self.table}, seat {self.position}"


class Lineup(models.Model):
    """Who plays for a team in a round of a team league, named by an organiser or the team's captain."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="lineups")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="lineups")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    named_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    named_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("round", "team")
        constraints = (models.UniqueConstraint(fields=("round", "team"), name="one_lineup_per_team_per_round"),)

    def __str__(self) -> str:
        return f"{self.player} for {self.team} in {self.round}"
