"""The EMA ranking as stored: a version per ranking counted up by every change to its results, and dated
snapshots (one per week) built from one version, rebuilt when the version moved on (docs/rankings.md).

``ranking_changed`` marks a ranking out of date in the caller's transaction and asks for the current week's
snapshot to be rebuilt after the commit (scoring.tasks.rebuild_ranking, eager without a broker). A week asked
for that has no current snapshot is built when asked (``mers_snapshot``).
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from rules.rankings.calendar import FREEZE_END, FREEZE_FIRST, HALF_WEEKS, WEEK, week_of
from rules.rankings.changes import LineChange, ranking_changes
from rules.rankings.mers import Counted, Line, Ranking, country_figures, mers_ranking
from rules.rankings.mers import RankedEvent as MersEvent
from rules.rankings.mers import Result as MersResult
from scoring.models import RankedEvent, RankedResult, RankingLine, RankingSnapshot, RankingState
from scoring.services.background import Work, queue

logger = logging.getLogger(__name__)
HUNDREDTHS = Decimal("0.01")
# The oldest event that can still count in a week's ranking or the week before's: 104 counted weeks and the freeze.
LOOKBACK = (HALF_WEEKS + 2) * WEEK + (FREEZE_END - FREEZE_FIRST)


def ranking_version(key: str) -> int:
    state = RankingState.objects.filter(key=key).first()
    return state.version if state else 0


def ranking_changed(key: str) -> None:
    """Count a change to the ranking's results (in the caller's transaction) and rebuild its current snapshot
    once the transaction commits."""
    RankingState.objects.get_or_create(key=key)
    RankingState.objects.filter(key=key).update(version=F("version") + 1)
    transaction.on_commit(functools.partial(_queue_rebuild, key))


def _queue_rebuild(key: str) -> None:
    try:
        queue(Work.REBUILD_RANKING, key)
    except Exception:  # a dead broker: the snapshot is rebuilt when it is next asked for
        logger.exception("the current snapshot of ranking %s was not rebuilt", key)


@dataclass(frozen=True, slots=True)
class _Person:
    name: str
    country: str
    player_id: int | None
    seen: date


@dataclass(frozen=True, slots=True)
class _Inputs:
    events: list[MersEvent]
    results: list[MersResult]
    described: dict[str, dict[str, Any]]  # each event's key: what an explanation says of it
    people: dict[str, _Person]  # each federation id: as its latest event gave it


def _inputs(key: str, week: date) -> _Inputs:
    rows = list(
        RankedEvent.objects.filter(ranking=key, starts_on__gte=week - LOOKBACK, starts_on__lt=week).select_related(
            "event"
        )
    )
    events = [
        MersEvent(
            key=r.key,
            starts_on=r.starts_on,
            days=r.days,
            players=r.players,
            countries=r.countries,
            championship=r.championship,
            weight=float(r.weight) if r.weight is not None else None,
        )
        for r in rows
    ]
    described = {
        r.key: {
            "event": r.key,
            "name": r.name,
            "date": r.starts_on.isoformat(),
            "slug": r.event.slug if r.event else "",
        }
        for r in rows
    }
    keys = {r.pk: (r.key, r.starts_on) for r in rows}
    results: list[MersResult] = []
    people: dict[str, _Person] = {}
    for event_id, federation_id, place, name, country, player_id in RankedResult.objects.filter(
        ranked_event__in=rows
    ).values_list("ranked_event_id", "federation_id", "place", "name", "country", "player_id"):
        event_key, day = keys[event_id]
        results.append(MersResult(event=event_key, player=federation_id, place=place))
        known = people.get(federation_id)
        if known is None or day >= known.seen:
            people[federation_id] = _Person(name, country, player_id, day)
    return _Inputs(events, results, described, people)


def _money(value: float) -> Decimal:
    return Decimal(str(round(value, 2))).quantize(HUNDREDTHS)


def _explained(result: Counted, described: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {
        **described[result.event],
        "place": result.place,
        "players": result.players,
        "score": result.score,
        "weight": result.weight,
        "time_factor": result.time_factor,
        "part_a": result.part_a,
        "part_b": result.part_b,
    }


def _line(snapshot: RankingSnapshot, line: Line, change: LineChange, inputs: _Inputs) -> RankingLine:
    person = inputs.people[line.player]
    return RankingLine(
        snapshot=snapshot,
        rank=line.rank,
        federation_id=line.player,
        name=person.name,
        country=person.country,
        player_id=person.player_id,
        score=_money(line.score),
        part_a=_money(line.part_a),
        part_b=_money(line.part_b),
        results=[_explained(r, inputs.described) for r in line.results],
        previous_rank=change.previous_rank,
        previous_score=None if change.previous_score is None else _money(change.previous_score),
        changes=[
            {**inputs.described[c.event], "change": c.change, "time_factor": c.time_factor} for c in change.events
        ],
    )


def _countries(ranking: Ranking, inputs: _Inputs) -> list[dict[str, Any]]:
    scores = {line.player: line.score for line in ranking.lines}
    return [
        {
            "country": c.country,
            "rank": c.rank,
            "score": round(c.score, 2),
            "ranked": c.ranked,
            "players": [
                {"federation_id": p, "name": inputs.people[p].name, "score": round(scores[p], 2)} for p in c.players
            ],
        }
        for c in country_figures(ranking, {p: person.country for p, person in inputs.people.items()})
    ]


def snapshot_build(key: str, week: date, version: int) -> RankingSnapshot:
    """Compute the ranking of ``week`` (a Monday) and the week before, and store it with its explanations."""
    inputs = _inputs(key, week)
    ranking = mers_ranking(inputs.events, inputs.results, week)
    before = mers_ranking(inputs.events, inputs.results, week - WEEK)
    changes, left = ranking_changes(before, ranking)
    previous = {line.player: line.rank for line in before.lines}
    snapshot = RankingSnapshot.objects.create(
        key=key,
        week=week,
        version=version,
        computed_at=timezone.now(),
        countries=_countries(ranking, inputs),
        left=[
            {
                "federation_id": p,
                "name": inputs.people[p].name,
                "country": inputs.people[p].country,
                "previous_rank": previous[p],
            }
            for p in left
        ],
    )
    RankingLine.objects.bulk_create(
        (_line(snapshot, line, changes[line.player], inputs) for line in ranking.lines), batch_size=1000
    )
    return snapshot


def mers_snapshot(key: str, on: date) -> RankingSnapshot:
    """The snapshot of ``on``'s week, built from the current results: the stored one, or built now."""
    week = week_of(on)
    version = ranking_version(key)
    stored = RankingSnapshot.objects.filter(key=key, week=week).first()
    if stored is not None and stored.version == version:
        return stored
    try:
        with transaction.atomic():
            RankingSnapshot.objects.filter(key=key, week=week).delete()
            return snapshot_build(key, week, version)
    except IntegrityError:  # built meanwhile by another request or the task: theirs will do
        return RankingSnapshot.objects.get(key=key, week=week)


def ranking_rebuild(key: str, today: date | None = None) -> RankingSnapshot:
    """The task's work: drop the snapshots of older versions, build the current week's."""
    RankingSnapshot.objects.filter(key=key).exclude(version=ranking_version(key)).delete()
    return mers_snapshot(key, today or timezone.localdate())


def previous_week(on: date) -> date:
    return week_of(on) - timedelta(weeks=1)
