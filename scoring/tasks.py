"""Background work: standings are recomputed after every change to a game (eager without a broker)."""

from __future__ import annotations

from celery import shared_task

from scoring.services import standings_recompute
from tournament.models import Event


@shared_task(name="scoring.recompute_standings")  # type: ignore[untyped-decorator]  # celery ships no types
def recompute_standings(event_id: int) -> int:
    event = Event.objects.filter(pk=event_id).first()
    return 0 if event is None else standings_recompute(event)
