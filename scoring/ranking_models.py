"""Rankings across events (docs/rankings.md): the results the EMA ranking takes, its dated snapshots, and the
leagues' ratings game by game. Everything here is derived from events and results and rebuilt by a task
(scoring.tasks) when they change, except the results of events run elsewhere, which an organiser imports."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import Event, Game, Player


class MersList(models.TextChoices):
    """The EMA keeps one ranking per rule set."""

    RIICHI = "ema", _("EMA ranking (MERS), riichi")
    MCR = "ema-mcr", _("EMA ranking (MERS), MCR")


class RankedEvent(models.Model):
    """An event the EMA ranking takes: a finished event of this server (``event``) or one run elsewhere, imported
    with ``manage.py import_results`` (``external_id``)."""

    ranking = models.CharField(max_length=10, choices=MersList.choices)
    event = models.OneToOneField(Event, null=True, blank=True, on_delete=models.CASCADE, related_name="ranked")
    external_id = models.CharField(max_length=40, blank=True, help_text="the imported file's event_id")
    name = models.CharField(max_length=200)
    starts_on = models.DateField()
    days = models.PositiveSmallIntegerField()
    players = models.PositiveIntegerField(help_text="N: the players ranked and up to 3 substitutes")
    countries = models.PositiveSmallIntegerField()
    championship = models.BooleanField(default=False)
    weight = models.DecimalField(
        max_digits=4, decimal_places=2, null=True, blank=True, help_text="as the EMA published it; empty: computed"
    )

    class Meta:
        ordering = ("ranking", "-starts_on", "name")
        constraints = (
            models.UniqueConstraint(
                fields=("ranking", "external_id"), condition=~models.Q(external_id=""), name="one_imported_event_per_id"
            ),
            models.CheckConstraint(
                condition=models.Q(event__isnull=False) | ~models.Q(external_id=""), name="ranked_event_has_a_source"
            ),
        )

    def __str__(self) -> str:
        return f"{self.name} ({self.starts_on})"

    @property
    def key(self) -> str:
        """The event's key in the ranking's explanations: this server's event by its slug, an imported one by its
        id in the file."""
        return f"event:{self.event_id}" if self.event_id else f"import:{self.external_id}"


class RankedResult(models.Model):
    """A player's final place in a ranked event, with the name, EMA number and country as the event gave them."""

    ranked_event = models.ForeignKey(RankedEvent, on_delete=models.CASCADE, related_name="results")
    federation_id = models.CharField(max_length=40)
    name = models.CharField(max_length=100)
    country = models.CharField(max_length=60, blank=True)
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="this server's player, for its events",
    )
    place = models.PositiveIntegerField()

    class Meta:
        ordering = ("ranked_event", "place", "federation_id")
        constraints = (
            models.UniqueConstraint(fields=("ranked_event", "federation_id"), name="one_result_per_federation_id"),
        )
        indexes = (models.Index(fields=("federation_id",)),)

    def __str__(self) -> str:
        return f"{self.place}. {self.name} ({self.federation_id})"


class RankingState(models.Model):
    """How current a ranking's snapshots are: each change to its results counts one; a snapshot built from an
    older count is rebuilt before it is shown."""

    key = models.CharField(max_length=80, primary_key=True)
    version = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.key} v{self.version}"


class RankingSnapshot(models.Model):
    """A ranking as published for one week (its Monday), built from the results of one version."""

    key = models.CharField(max_length=80)
    week = models.DateField()
    version = models.PositiveBigIntegerField()
    computed_at = models.DateTimeField(default=timezone.now)
    countries = models.JSONField(default=list, help_text="each country's figure: the mean of its 3 best")
    left = models.JSONField(default=list, help_text="the players listed the week before and not this week")

    class Meta:
        ordering = ("key", "-week")
        constraints = (models.UniqueConstraint(fields=("key", "week"), name="one_snapshot_per_week"),)

    def __str__(self) -> str:
        return f"{self.key} of {self.week} (v{self.version})"


class RankingLine(models.Model):
    """A player's line in a snapshot, with its explanation: the results counted and dropped, and the change
    since the week before."""

    snapshot = models.ForeignKey(RankingSnapshot, on_delete=models.CASCADE, related_name="lines")
    rank = models.PositiveIntegerField()
    federation_id = models.CharField(max_length=40)
    name = models.CharField(max_length=100)
    country = models.CharField(max_length=60, blank=True)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    score = models.DecimalField(max_digits=7, decimal_places=2)
    part_a = models.DecimalField(max_digits=7, decimal_places=2)
    part_b = models.DecimalField(max_digits=7, decimal_places=2)
    results = models.JSONField(
        default=list, help_text="the active results, best first, each with the parts it counts in"
    )
    previous_rank = models.PositiveIntegerField(null=True)
    previous_score = models.DecimalField(max_digits=7, decimal_places=2, null=True)
    changes = models.JSONField(
        default=list, help_text="results entered, halved, expired, dropped since the week before"
    )

    class Meta:
        ordering = ("snapshot", "rank", "federation_id")

    def __str__(self) -> str:
        return f"{self.rank}. {self.name} {self.score}"


class RatingChange(models.Model):
    """One player's rating through one game of a rated event (derived: replayed from the games in order)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    sequence = models.PositiveIntegerField(help_text="the game's place in the order the games were played")
    played_on = models.DateField()
    rank = models.DecimalField(max_digits=4, decimal_places=2)
    before = models.DecimalField(max_digits=8, decimal_places=2)
    after = models.DecimalField(max_digits=8, decimal_places=2)
    games = models.PositiveIntegerField(help_text="games rated before this one")
    factor = models.DecimalField(max_digits=6, decimal_places=3, help_text="Tenhou's k, or Elo's K")
    points = models.DecimalField(max_digits=6, decimal_places=2, help_text="Tenhou's S, or Elo's S")
    reference = models.DecimalField(
        max_digits=8, decimal_places=2, help_text="Tenhou: the table's mean rating used; Elo: the opponent's rating"
    )

    class Meta:
        ordering = ("event", "sequence", "player_id")
        constraints = (models.UniqueConstraint(fields=("game", "player"), name="one_rating_change_per_seat"),)
        indexes = (models.Index(fields=("event", "played_on")),)

    def __str__(self) -> str:
        return f"{self.player} {self.before} → {self.after} in game {self.game_id}"
