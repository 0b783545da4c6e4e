"""What happens in a game: its hands (score-sheet records), their history, penalties, results and standings.

A Hand row stores one hand exactly as the score sheet writes it, with players
named by their Player id; ``scoring.services.replay`` turns rows into a sheet
and replays the game through rules/. GameResult and Standing rows (and the
game's stored result) are derived: recomputed from the hands, never edited.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import Event, Game, Player


class Hand(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    index = models.PositiveIntegerField()
    record = models.JSONField(help_text="the score-sheet hand, players by id")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("game", "index")
        constraints = (models.UniqueConstraint(fields=("game", "index"), name="unique_hand_index_per_game"),)

    def __str__(self) -> str:
        return f"game {self.game_id} hand {self.index}"


class HandChange(models.Model):
    """The history of a game's hands: who changed what, when, before and after. Never deleted."""

    class Action(models.TextChoices):
        ADD = "add"
        CHANGE = "change"
        DELETE = "delete"
        SHEET = "sheet"
        GAME = "game"  # the game's clock or substitutes
        IMPORT = "import"  # a whole game from an online platform's log
        CONFIRM = "confirm"  # a player confirmed or disputed the game's result
        SEAL = "seal"  # changes nothing: seals, with the history key, a chain written before keys were used

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    index = models.PositiveIntegerField(null=True, blank=True)
    action = models.CharField(max_length=10, choices=Action.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The username as it was: the hash covers it, and deleting the account must not break the chain.
    author = models.CharField(max_length=150, blank=True, help_text="who made the change; blank for a script")
    at = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(help_text="the game's version after the change")
    previous = models.CharField(
        max_length=64, blank=True, help_text="the hash of the game's entry before this one; blank for the first"
    )
    # What besides the hands decides the result, after the change (chain.game_terms): sealed, so that seats, the
    # start, the rules, the end and the penalties cannot be changed outside the history. Null before it was sealed.
    terms = models.JSONField(null=True, blank=True)
    # The id of the key that sealed the entry (never the key): blank for entries written before keyed seals.
    key = models.CharField(max_length=16, blank=True, help_text="the id of the history key that sealed this entry")
    hash = models.CharField(
        max_length=64,
        blank=True,
        help_text="HMAC-SHA256 under the history key over this "
        "entry's content and the previous seal (scoring.services.chain)",
    )

    class Meta:
        ordering = ("game", "at", "id")

    def __str__(self) -> str:
        return f"{self.action} hand {self.index} of game {self.game_id} (v{self.version})"


class Confirmation(models.Model):
    """A player's word on a finished game's result, given with their personal code; a correction clears it."""

    class Verdict(models.TextChoices):
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="confirmations")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="confirmations")
    verdict = models.CharField(max_length=10, choices=Verdict.choices)
    reason = models.CharField(max_length=200, blank=True, help_text="why the player disputes the result")
    version = models.PositiveIntegerField(help_text="the game's version the player saw")
    seal = models.CharField(max_length=64, blank=True, help_text="the game's seal (history head) the player saw")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("game", "at", "id")
        constraints = (models.UniqueConstraint(fields=("game", "player"), name="one_word_per_player_per_game"),)

    def __str__(self) -> str:
        return f"{self.player} {self.verdict} game {self.game_id}"

    @property
    def is_confirmed(self) -> bool:
        return self.verdict == Confirmation.Verdict.CONFIRMED

    @property
    def is_disputed(self) -> bool:
        return self.verdict == Confirmation.Verdict.DISPUTED


class Penalty(models.Model):
    """Points added to a player's result (negative for a penalty): in a game, or for the event as a whole."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="penalties")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="penalties")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="penalties")
    points = models.DecimalField(max_digits=8, decimal_places=2)
    reason = models.CharField(max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.player} {self.points:+} ({self.reason})"


class EventChange(models.Model):
    """The history of what an event decides outside its games, sealed as a game's history is
    (scoring.services.chain): the penalties given on the event itself (each entry holds them all after it), its
    stages and their cuts."""

    class Action(models.TextChoices):
        PENALTY = "penalty"
        STAGE = "stage"  # a stage added, changed or deleted: before and after are the stage's settings
        CUT = "cut"  # a stage's cut confirmed (after: who went on) or undone (after: None)
        CUT_KEPT = "cut_kept"  # a correction that changes a cut was saved, the cut kept, as the organiser decided

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=10, choices=Action.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    author = models.CharField(max_length=150, blank=True, help_text="who made the change; blank for a script")
    at = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(help_text="the entry's number in the event's chain, from 1")
    previous = models.CharField(max_length=64, blank=True)
    key = models.CharField(max_length=16, blank=True, help_text="the id of the history key that sealed this entry")
    hash = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ("event", "id")

    def __str__(self) -> str:
        return f"{self.action} of event {self.event_id} (#{self.version})"

    @property
    def terms(self) -> dict[str, int]:
        """Sealed with each entry (scoring.services.chain.content_of): the event the chain is of."""
        return {"event": self.event_id}


class GameResult(models.Model):
    """One player's final line in one game, as the replay computed it (derived)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    finished = models.BooleanField()
    substitute = models.BooleanField(default=False, help_text="played as a substitute: not ranked as such")
    rank = models.DecimalField(max_digits=4, decimal_places=2, help_text="shared ranks count as their mean")
    score = models.IntegerField()
    points = models.DecimalField(max_digits=10, decimal_places=2)
    table_points = models.DecimalField(max_digits=6, decimal_places=2, null=True)
    penalty = models.DecimalField(
        max_digits=10,
        decimal_places=2,
        default=0,
        help_text="chombo deductions and sheet penalties, included in points",
    )
    draws = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="the solo race to tenpai: the draws the "
        "game's attempts count (score holds their value); null in other games",
    )

    class Meta:
        constraints = (models.UniqueConstraint(fields=("game", "player"), name="one_result_per_player_game"),)
        indexes = (models.Index(fields=("event", "player")),)

    def __str__(self) -> str:
        return f"{self.player} in game {self.game_id}: {self.points}"


class GameStats(models.Model):
    """One player's counts in one game, from its hands (derived: written with the game's result, in the same
    transaction; ``scoring.sheet.seat_counts`` says what each count is). Statistics add these rows up, so a
    page never replays a game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="stats")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="game_stats")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    finished = models.BooleanField()
    ruleset = models.CharField(max_length=40, help_text="the preset the game was scored by")
    mcr = models.BooleanField(help_text="scored under MCR (fan, table points), not riichi")
    place = models.PositiveSmallIntegerField(help_text="1 = first; shared places keep the best")
    rank = models.DecimalField(max_digits=4, decimal_places=2, help_text="shared places count as their mean")
    score = models.IntegerField()
    points = models.DecimalField(max_digits=10, decimal_places=2)
    table_points = models.DecimalField(max_digits=6, decimal_places=2, null=True)
    busted = models.BooleanField(help_text="riichi: ended below zero")
    hands = models.PositiveSmallIntegerField(help_text="hands played out (a chombo's hand is played again)")
    wins = models.PositiveSmallIntegerField()
    tsumo_wins = models.PositiveSmallIntegerField()
    deal_ins = models.PositiveSmallIntegerField()
    riichi = models.PositiveSmallIntegerField()
    riichi_wins = models.PositiveSmallIntegerField()
    draws = models.PositiveSmallIntegerField(help_text="exhaustive draws")
    tenpai = models.PositiveSmallIntegerField(help_text="exhaustive draws the player was tenpai at")
    chombo = models.PositiveSmallIntegerField()
    false_wins = models.PositiveSmallIntegerField(help_text="MCR")
    win_points = models.PositiveIntegerField(help_text="what the wins' hands paid (honba and sticks not counted)")
    han = models.PositiveIntegerField(help_text="summed over the wins valued in han (yakuman apart)")
    han_wins = models.PositiveSmallIntegerField(help_text="the wins han is summed over")
    fan = models.PositiveIntegerField(help_text="MCR: fan and flowers of the wins")
    deal_in_points = models.PositiveIntegerField(help_text="what the player paid for the hands dealt in")
    yakuman = models.PositiveSmallIntegerField()
    yakuman_hands = models.JSONField(default=list, help_text="the yakuman hands' indexes, from 0")

    class Meta:
        constraints = (models.UniqueConstraint(fields=("game", "player"), name="one_stats_row_per_player_game"),)
        indexes = (models.Index(fields=("player", "finished")), models.Index(fields=("event", "finished")))

    def __str__(self) -> str:
        return f"{self.player} in game {self.game_id}: {self.wins} wins in {self.hands} hands"


class _StandingLine(models.Model):
    """What a line of standings holds, the event's and a stage's alike."""

    rank = models.PositiveIntegerField(null=True, help_text="shared on exact ties; null: not ranked yet")
    points = models.DecimalField(max_digits=10, decimal_places=2, help_text="the total: carried in and the own")
    table_points = models.DecimalField(max_digits=8, decimal_places=2, null=True)
    carried = models.DecimalField(
        max_digits=10, decimal_places=2, default=0, help_text="points brought in from the stage before (in points)"
    )
    carried_table_points = models.DecimalField(max_digits=8, decimal_places=2, null=True)
    stage = models.PositiveSmallIntegerField(
        default=1, help_text="the stage of the line: for the event's, the last stage the player reached"
    )
    score = models.IntegerField(default=0)
    games = models.PositiveIntegerField()
    average_rank = models.DecimalField(max_digits=4, decimal_places=2, null=True)
    # As wide as points: it sums the games' penalties (chombo included) with the event's own.
    penalties = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    first_places = models.PositiveIntegerField(default=0)
    best_game = models.DecimalField(max_digits=10, decimal_places=2, null=True)
    draws = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="the solo race to tenpai: the draws that "
        "rank the player (score holds the value); null in other events",
    )
    # The ranking's key as bytes, smallest best (rules.ranks.sort_key): a change to a few lines moves only the
    # ranks between their old and new keys. Null: not ranked.
    sort_key = models.BinaryField(null=True, editable=False)

    class Meta:
        abstract = True


class Standing(_StandingLine):
    """An event's ranking line for one player (derived; recomputed by a task after each change). In an event of
    several stages, its final ranking: by the last stage reached, then the rank within it."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings")

    class Meta:
        ordering = ("event", models.F("rank").asc(nulls_last=True), "-points", "player_id")
        constraints = (models.UniqueConstraint(fields=("event", "player"), name="one_standing_per_player"),)
        indexes = (models.Index(fields=("event", "sort_key"), name="standing_by_sort_key"),)

    def __str__(self) -> str:
        return f"{self.rank or '-'}. {self.player} {self.points}"


class StageStanding(_StandingLine):
    """A stage's standings line for one player (derived, with the event's): stored only once an event has a
    second stage; until then the event's standings are its first stage's."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="stage_standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ("event", "stage", models.F("rank").asc(nulls_last=True), "-points", "player_id")
        constraints = (
            models.UniqueConstraint(fields=("event", "stage", "player"), name="one_stage_standing_per_player"),
        )

    def __str__(self) -> str:
        return f"stage {self.stage}: {self.rank or '-'}. {self.player} {self.points}"


class StandingsState(models.Model):
    """How current an event's standings are: each change to a finished game counts one, each recompute records
    the count it included. The standings are being updated while ``counted`` is behind ``changes``."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, primary_key=True, related_name="standings_state")
    changes = models.PositiveBigIntegerField(default=0)
    counted = models.PositiveBigIntegerField(default=0)
    recomputes = models.PositiveBigIntegerField(
        default=0,
        help_text="bumped by a recompute that changed the stored rows: the version caches are keyed by",
    )
    # Which players' lines the changes not yet counted touched, each with the number of its latest change
    # ({"player id": change}); ``all_from``: a change numbered so touched every line (0: none pending).
    touched = models.JSONField(default=dict, blank=True)
    all_from = models.PositiveBigIntegerField(default=0)
    queued_at = models.DateTimeField(
        null=True, blank=True, help_text="a recompute is queued and not started: a later change queues no other"
    )
    renames = models.PositiveBigIntegerField(
        default=0, help_text="bumped when one of the event's players is saved: cached tables show names"
    )
    computed_at = models.DateTimeField(null=True, blank=True)
    keyed = models.BooleanField(
        default=False, help_text="every ranked line stored has its sort key: a change can move only the ranks it passes"
    )

    def __str__(self) -> str:
        return f"standings of {self.event_id}: {self.counted} of {self.changes} changes counted"

    @property
    def updating(self) -> bool:
        return self.counted < self.changes


# What the edge keeps (idempotency keys, wrong codes) and the rankings across events live in modules of their own;
# Django finds them through this one.
from scoring.edge_models import CodeFailure, IdempotentRequest  # noqa: E402
from scoring.ranking_models import (  # noqa: E402
    MersList,
    RankedEvent,
    RankedResult,
    RankingLine,
    RankingSnapshot,
    RankingState,
    RatingChange,
)

__all__ = [
    "CodeFailure",
    "Confirmation",
    "EventChange",
    "GameResult",
    "Hand",
    "HandChange",
    "IdempotentRequest",
    "MersList",
    "Penalty",
    "RankedEvent",
    "RankedResult",
    "RankingLine",
    "RankingSnapshot",
    "RankingState",
    "RatingChange",
    "StageStanding",
    "Standing",
    "StandingsState",
]
