"""An event's stages: qualifying, then the cut into a semi-final or a final, each with its own rounds.

Every event has a first stage, number 1, that takes everyone: until the
organiser names it, it has no row (``Stage.first``). A later stage takes the
top N of the stage before (plus named wildcards), brings in a share of their
points (``carry``), and is entered once its cut is confirmed (``through``).
"""

from __future__ import annotations

from fractions import Fraction

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from rules.stages import Carry, Entry
from tournament.models.events import Event
from tournament.models.people import printable, validate_trimmed


class Stage(models.Model):
    class Seating(models.TextChoices):
        RANDOM = "random", _("random")
        SWISS = "swiss", _("swiss")
        RANK = "rank", _("by rank")

    class Winds(models.TextChoices):
        RANK = "rank", _("by rank (the best of a table sits East)")
        DRAWN = "drawn", _("drawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60, validators=[printable, validate_trimmed])
    entry_top = models.PositiveIntegerField(
        null=True, blank=True, help_text="the top N of the stage before go on; empty: everyone"
    )
    entry_also = models.JSONField(
        default=list, blank=True, help_text="player ids who go on whatever their rank (wildcards, a defending champion)"
    )
    carry = models.CharField(
        max_length=20,
        default="none",
        help_text="the share of the stage before's points "
        'brought in: "all", "half", "none" or a fraction such as "1/3" or "0.25"',
    )
    carry_table_points = models.BooleanField(default=False, help_text="MCR: carry table points, not points")
    seating = models.CharField(max_length=10, choices=Seating.choices, default=Seating.RANDOM)
    winds = models.CharField(
        max_length=10,
        choices=Winds.choices,
        default=Winds.RANK,
        help_text="seating by rank: seat winds by rank or drawn",
    )
    rounds_planned = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="how many hanchan (rounds) the stage plays"
    )
    # The confirmed cut: who entered, in rank order then the wildcards. Null until confirmed.
    through = models.JSONField(null=True, blank=True)
    cut_at = models.DateTimeField(null=True, blank=True)
    cut_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ("event", "number")
        constraints = (
            models.UniqueConstraint(fields=("event", "number"), name="stage_number_unique_in_event"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="stage_number_from_1"),
        )

    def __str__(self) -> str:
        return f"{self.event} stage {self.number} ({self.name})"

    @classmethod
    def first(cls, event: Event) -> Stage:
        """The event's first stage as stored, or (unsaved) as every event has it: everyone, nothing carried."""
        return cls.objects.filter(event=event, number=1).first() or cls(event=event, number=1, name=str(_("Stage 1")))

    @property
    def entered(self) -> bool:
        """Its players are known: the first stage's are the event's, a later one's once its cut is confirmed."""
        return self.number == 1 or self.through is not None

    def entry_rule(self) -> Entry:
        return Entry(top=self.entry_top, also=tuple(self.entry_also or ()))

    def carry_rule(self) -> Carry:
        return Carry.parse(self.carry, table_points=self.carry_table_points)

    def carry_fraction(self) -> Fraction:
        return self.carry_rule().fraction
