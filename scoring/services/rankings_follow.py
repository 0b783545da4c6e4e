"""What follows an event's results into the rankings across events: its place in the EMA ranking and its own
rating. Called after its standings are recomputed, and when its settings or players change."""

from __future__ import annotations

import functools
import logging
from typing import Any

from django.db import transaction

from scoring.models import RankedEvent
from scoring.services.background import Work, queue
from scoring.services.rankings import ranking_changed
from scoring.services.rankings_sync import event_ranked_sync
from scoring.services.ratings import rating_rebuild
from tournament.models import Event, Player

logger = logging.getLogger(__name__)
# The settings the rankings take from an event: changing one rebuilds what it gives them.
RANKING_SETTINGS = frozenset({"name", "status", "mers", "mers_weight", "rating", "starts_on", "ends_on"})


def rankings_follow(event: Event) -> None:
    """Bring the EMA ranking and the event's rating up to date with its standings and settings."""
    event_ranked_sync(event)
    if event.rating or event.rating_changes.exists():
        rating_rebuild(event)


def rankings_refresh(event_id: int) -> None:
    """Follow the event into the rankings after the caller's transaction commits (a task; in process without a
    broker). Never an error for the write that asked: a failure is logged."""
    transaction.on_commit(functools.partial(_queue_follow, event_id))


def _queue_follow(event_id: int) -> None:
    try:
        queue(Work.FOLLOW_EVENT, event_id)
    except Exception:
        logger.exception("event %s not followed into the rankings", event_id)


def ranked_player_saved(instance: Player, created: bool = False, raw: bool = False, **kwargs: Any) -> None:
    """A player was saved: their name, EMA number or country may have changed, and the EMA ranking shows them as
    their events give them. Each counted event of theirs follows."""
    if created or raw:
        return
    events = Event.objects.filter(standings__player=instance).exclude(mers="").values_list("pk", flat=True).distinct()
    ranked = set(RankedEvent.objects.filter(results__player=instance).values_list("event_id", flat=True))
    for event_id in set(events) | (ranked - {None}):
        if event_id is not None:
            rankings_refresh(event_id)


def ranked_event_deleted(instance: RankedEvent, **kwargs: Any) -> None:
    """A ranked event is gone (its event deleted with it, or replaced by an import): the ranking changed."""
    ranking_changed(instance.ranking)
