"""A round as the organiser runs it: re-seated before play, its clock started, its games ended by time."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring.models import Hand
from scoring.services.hands import game_update
from tournament.errors import InvalidInput
from tournament.models import Game, Round


def round_unseat(*, round_: Round) -> int:
    """Take the round's tables away so that it can be seated again; refused once a hand is entered there.

    How many tables were removed."""
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=round_.pk)
        games = Game.objects.select_for_update().filter(table__round=locked)
        played = Hand.objects.filter(game__in=games).values("game").distinct().count()
        if played:
            raise InvalidInput.one("round", f"round {locked.number} cannot be seated again: {played} of its tables "
                                   "have hands entered")
        count = locked.tables.count()
        games.delete()
        locked.tables.all().delete()
    return count


def round_clock_start(*, round_: Round, minutes: int | None, at: datetime | None = None) -> Round:
    """Start the round's clock now (or at ``at``) with ``minutes`` to play (the round's own when None)."""
    if minutes is not None and not 1 <= minutes <= 24 * 60:
        raise InvalidInput.one("time_limit_minutes", "must be between 1 and 1440 minutes")
    round_.starts_at = at or timezone.now()
    if minutes is not None:
        round_.time_limit_minutes = minutes
    round_.save(update_fields=["starts_at", "time_limit_minutes"])
    return round_


def round_end_by_time(*, round_: Round, user: Any) -> list[Game]:
    """End every game of the round still being played by the clock: each finishes after the hand in play."""
    ended = []
    for game in Game.objects.filter(table__round=round_, status=Game.Status.PLAYING, ended_by_time=False):
        ended.append(game_update(game_id=game.pk, user=user, version=None, ended_by_time=True))
    return ended
