"""Background work: standings are recomputed after every change to a game (eager without a broker)."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import DatabaseError

from scoring.services.standings import standings_recompute
from scoring.sheet.output import named, result_json
from scoring.sheet.reader import SheetError, score_sheet
from tournament.models import Event


# A database that is restarting or busy is worth a few more tries, further apart each time.
@shared_task(name="scoring.recompute_standings", autoretry_for=(DatabaseError,), retry_backoff=True,  # type: ignore[untyped-decorator]  # celery ships no types
             retry_backoff_max=60, max_retries=5)
def recompute_standings(event_id: int) -> int:
    event = Event.objects.filter(pk=event_id).first()
    return 0 if event is None else standings_recompute(event)


@shared_task(name="scoring.score_sheet")  # type: ignore[untyped-decorator]
def score_sheet_task(sheet: dict[str, Any]) -> dict[str, Any]:
    """Score a whole sheet away from the request (imports of many sheets): its result, or its problems."""
    try:
        scored = score_sheet(sheet)
    except SheetError as exc:
        return {"problems": [str(p) for p in exc.problems]}
    return {"result": named(result_json(scored), scored.sheet.names)}
