"""People: a player, whichever events they play, and the one check of the text a person gives a name."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules.text import PRINTABLE

# The one check of the text a person gives a player or a team, whichever path writes it (the console, the API,
# the admin, an imported log or sheet, a restore): what the score sheet takes, so an exported sheet reads back.
printable = RegexValidator(PRINTABLE, _("must be printable text (no control characters such as line breaks or tabs)"))


def validate_trimmed(value: str) -> None:
    if value != value.strip():
        raise ValidationError(_("must not begin or end with a space"), code="untrimmed")


class Player(models.Model):
    name = models.CharField(max_length=100, validators=[printable, validate_trimmed])
    federation_id = models.CharField(max_length=40, blank=True, help_text="e.g. an EMA number", validators=[printable])
    country = models.CharField(max_length=60, blank=True, validators=[printable])
    club = models.CharField(max_length=100, blank=True, validators=[printable])
    online_name = models.CharField(
        max_length=100,
        blank=True,
        help_text="the name played under on Tenhou or Mahjong Soul: imported game logs find the player by it",
        validators=[printable],
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    # Two records of one person: the games stay with the record they were played (and sealed) under; the
    # person's career is the kept record with those merged into it (tournament.services.players).
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="merged",
        help_text="the record of the same person this one was merged into",
    )

    class Meta:
        ordering = ("name", "id")
        constraints = (
            models.UniqueConstraint(
                fields=("online_name",), condition=~models.Q(online_name=""), name="one_player_per_online_name"
            ),
        )

    def __str__(self) -> str:
        return self.name


class PlayerMerge(models.Model):
    """One merge of two records of the same person, kept as it was done and, if so, when it was undone."""

    kept = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    merged = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ("-at", "-id")

    def __str__(self) -> str:
        return f"{self.merged} merged into {self.kept}"
