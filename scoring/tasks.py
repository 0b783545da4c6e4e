"""Background work: standings are recomputed after every change to a game, and the rankings across events follow
them (eager without a broker).

The one module that knows Celery: the services queue work through scoring.services.background, and this module
registers there how each kind is queued (``register_queues``, called when the app is ready).
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import DatabaseError

from rules.errors import Refusal
from scoring.edge.keys import purge
from scoring.services.background import Work, register
from scoring.services.rankings import ranking_rebuild
from scoring.services.rankings_follow import rankings_follow
from scoring.services.standings import standings_catch_up
from scoring.sheet.output import named, result_json
from scoring.sheet.reader import score_sheet
from tournament.models import Event


# A database that is restarting or busy is worth a few more tries, further apart each time.
@shared_task(
    name="scoring.recompute_standings",
    autoretry_for=(DatabaseError,),
    retry_backoff=True,  # type: ignore[untyped-decorator]  # celery ships no types
    retry_backoff_max=60,
    max_retries=5,
)
def recompute_standings(event_id: int) -> int:
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return 0
    stored = standings_catch_up(event)
    if stored is None:  # an earlier recompute counted every change, and the rankings followed it
        return 0
    rankings_follow(event)
    return stored.lines


@shared_task(
    name="scoring.follow_event",
    autoretry_for=(DatabaseError,),
    retry_backoff=True,  # type: ignore[untyped-decorator]
    retry_backoff_max=60,
    max_retries=5,
)
def follow_event(event_id: int) -> None:
    """An event's settings or players changed: what it gives the EMA ranking and its own rating follow."""
    event = Event.objects.filter(pk=event_id).first()
    if event is not None:
        rankings_follow(event)


@shared_task(
    name="scoring.rebuild_ranking",
    autoretry_for=(DatabaseError,),
    retry_backoff=True,  # type: ignore[untyped-decorator]
    retry_backoff_max=60,
    max_retries=5,
)
def rebuild_ranking(key: str) -> int:
    """The ranking's results changed: its current week's snapshot is rebuilt (older ones when next asked for)."""
    return ranking_rebuild(key).lines.count()


@shared_task(name="scoring.score_sheet")  # type: ignore[untyped-decorator]
def score_sheet_task(sheet: dict[str, Any]) -> dict[str, Any]:
    """Score a whole sheet away from the request (imports of many sheets): its result, or its problems."""
    try:
        scored = score_sheet(sheet)
    except Refusal as exc:
        return {"problems": [str(p) for p in exc.problems]}
    return {"result": named(result_json(scored), scored.sheet.names)}


def register_queues() -> None:
    """The services' work (scoring.services.background) is queued as these tasks."""
    register(Work.RECOMPUTE_STANDINGS, recompute_standings.delay)
    register(Work.FOLLOW_EVENT, follow_event.delay)
    register(Work.REBUILD_RANKING, rebuild_ranking.delay)


@shared_task(name="scoring.purge_idempotency_keys")  # type: ignore[untyped-decorator]
def purge_idempotency_keys() -> int:
    """The idempotency keys past their day, deleted (Celery beat runs it hourly: config/celery.py); how many."""
    return purge()
