"""Work queued after a commit, away from the request: the services say which, ``scoring.tasks`` says how.

``scoring.tasks`` is the one module that knows Celery, and it imports the services that do the work; a service
that imported it back would make a cycle. So the task module registers here, when the app is ready
(``scoring.apps``), the function that queues each kind of work, and the services call ``queue`` with the kind
and its argument. An import contract (pyproject.toml, ``lint-imports``) keeps ``scoring.services`` from
importing ``scoring.tasks``.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum


class Work(StrEnum):
    RECOMPUTE_STANDINGS = "recompute_standings"  # an event's standings, then the rankings that follow them
    FOLLOW_EVENT = "follow_event"  # an event's settings or players changed: the rankings follow it
    REBUILD_RANKING = "rebuild_ranking"  # a ranking's results changed: its current snapshot


Queue = Callable[[int | str], object]

_queues: dict[Work, Queue] = {}


def register(work: Work, queue: Queue) -> None:
    """How ``work`` is queued from now on (``scoring.tasks``: the task's ``delay``)."""
    _queues[work] = queue


def queue(work: Work, argument: int | str) -> None:
    """Queue ``work`` for ``argument`` (an event's id, a ranking's key).

    Raises what queueing raises (a dead broker; without one, the task itself, run at once), and LookupError when
    nothing registered how to queue it: the callers log it, as they must not turn a committed write into an error.
    """
    queued = _queues.get(work)
    if queued is None:
        raise LookupError(f"no queue registered for {work}: scoring.tasks registers them when the app is ready")
    queued(argument)
