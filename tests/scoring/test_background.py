"""Background work: the services queue it through scoring.services.background, the task module says how.

The import contract in pyproject.toml keeps scoring.services from importing scoring.tasks (lint-imports); these
tests check that the hook is wired when the app is ready and that a missing hook never fails a committed write.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring import tasks
from scoring.services import background
from scoring.services.background import Work
from scoring.services.standings import standings_refresh
from tests.factories import EventFactory


def test_every_kind_of_work_is_queued_as_its_task_once_the_app_is_ready():
    queued = {work: background._queues.get(work) for work in Work}
    assert queued == {
        Work.RECOMPUTE_STANDINGS: tasks.recompute_standings.delay,
        Work.FOLLOW_EVENT: tasks.follow_event.delay,
        Work.REBUILD_RANKING: tasks.rebuild_ranking.delay,
    }


def test_work_is_handed_to_the_registered_queue(monkeypatch: pytest.MonkeyPatch):
    seen: list[object] = []
    monkeypatch.setitem(background._queues, Work.REBUILD_RANKING, seen.append)
    background.queue(Work.REBUILD_RANKING, "ema-riichi")
    assert seen == ["ema-riichi"]


def test_work_nobody_registered_is_refused_by_name(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delitem(background._queues, Work.FOLLOW_EVENT)
    with pytest.raises(LookupError, match="follow_event"):
        background.queue(Work.FOLLOW_EVENT, 1)


@pytest.mark.django_db
def test_a_missing_queue_is_logged_and_the_write_stands(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, django_capture_on_commit_callbacks: Any
):
    event = EventFactory.create()
    monkeypatch.delitem(background._queues, Work.RECOMPUTE_STANDINGS)
    with django_capture_on_commit_callbacks(execute=True):
        standings_refresh(event.pk)
    assert f"standings of event {event.pk} not recomputed" in caplog.text
