"""An event's standings, rebuilt from the finished games' results (one aggregate query in the common case).

A write that changes a finished game marks the standings as being updated
(``standings_changed``, in the write's transaction, with the players it
touched) and asks for a recompute after its commit. Recomputes are coalesced
per event: one runs at a time (a lock on the event's row), at most one more is
queued (``StandingsState.queued_at``), and one that finds every change counted
already does nothing (``standings_catch_up``). Each records which changes it
included, so that a change made while one ran is counted by the next, and a
recompute that failed leaves the standings marked until another succeeds.
What a recompute writes, and how it reads only the touched lines:
``scoring.services.standings_store``.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, F, Q, QuerySet, Sum
from django.utils import timezone

from scoring.models import GameResult, Standing, StandingsState
from scoring.selectors import standings_version
from scoring.services.background import Work, queue
from scoring.services.live import live_changed
from scoring.services.standings_lines import HUNDREDTHS, counted_results
from scoring.services.standings_rows import EventRows, event_rows
from scoring.services.standings_store import Stored, recompute, touch, touch_many
from tournament.models import Event, Game

logger = logging.getLogger(__name__)


# The changes counted when the innermost ``standings_counted_last`` block ends: players touched per event (None:
# every line).
_pending: ContextVar[dict[int, set[int] | None] | None] = ContextVar("standings_pending", default=None)


def standings_changed(event_id: int, players: Collection[int] | None = None) -> None:
    """Count a change to the event's finished games, in the caller's transaction: the standings are being
    updated until a recompute that started after it ends. ``players``: the only lines it can change (a game's
    players); None: any line. Within ``standings_counted_last``, counted when that block ends."""
    _count(event_id, [players])


def _count(event_id: int, changes: Sequence[Collection[int] | None]) -> None:
    """Count ``changes`` in turn now, or when the ``standings_counted_last`` block around ends."""
    pending = _pending.get()
    if pending is None:
        touch_many(event_id, changes)
    else:
        for players in changes:
            _merge(pending, event_id, players)
    live_changed(event_id)


@contextmanager
def standings_counted_last() -> Iterator[None]:
    """The standings changes made within the block are counted when it ends, still in the caller's transaction.

    Counting a change locks the event's ``StandingsState`` row until the transaction commits, and every write to
    the event's finished games waits for that lock: counted at the end, the lock is held for the last
    statements and the commit only, not for the rest of the write (its history, its answer, its idempotency
    key). Nothing is lost: the count commits with the write or not at all. A block that raises, or whose
    transaction is marked for rollback, counts nothing; one within another hands its changes to the outer one.
    Put it inside the transaction's ``atomic`` block.
    """
    outer = _pending.get()
    mine: dict[int, set[int] | None] = {}
    token = _pending.set(mine)
    try:
        yield
    finally:
        _pending.reset(token)
    if outer is not None:
        for event_id, players in mine.items():
            _merge(outer, event_id, players)
    elif not (transaction.get_connection().in_atomic_block and transaction.get_rollback()):
        for event_id in sorted(mine):  # one order for every writer: two events' locks never deadlock
            touch(event_id, mine[event_id])


def _merge(pending: dict[int, set[int] | None], event_id: int, players: Collection[int] | None) -> None:
    if event_id in pending and pending[event_id] is None:
        return
    pending[event_id] = None if players is None else {*(pending.get(event_id) or ()), *players}


_batch: ContextVar[set[int] | None] = ContextVar("standings_batch", default=None)


def standings_refresh(event_id: int, players: Collection[int] | None = None) -> None:
    """Mark the standings as being updated and recompute them once the caller's transaction commits.

    The recompute runs after the commit (a Celery task, or in process without a broker) and can never turn the
    committed write into an error: a failure to queue it or to run it is logged, and the standings stay marked
    until a later recompute (the next write, ``manage.py recompute_standings``) succeeds.
    """
    standings_refresh_many(event_id, [players])


def standings_refresh_many(event_id: int, changes: Sequence[Collection[int] | None]) -> None:
    """``standings_refresh`` for each of ``changes`` in turn, written at once (a group of imported games)."""
    if not changes:
        return
    _count(event_id, changes)
    batch = _batch.get()
    if batch is not None:
        batch.add(event_id)
    else:
        transaction.on_commit(lambda: _queue_recompute(event_id))


def standings_game_changed(game: Game) -> None:
    """A finished game changed (a hand, its end, a confirmation): only its players' lines can change."""
    standings_refresh(game.event_id, [seat.player_id for seat in game.seats.all()])  # the prefetched seats


@contextmanager
def standings_batch() -> Iterator[None]:
    """Many writes (an import of many games), one recompute per event at the end instead of one per write.

    Each write still commits on its own and marks the standings as being updated; the recompute is queued
    when the block ends, whatever ended it.
    """
    pending: set[int] = set()
    token = _batch.set(pending)
    try:
        yield
    finally:
        _batch.reset(token)
        for event_id in sorted(pending):
            transaction.on_commit(functools.partial(_queue_recompute, event_id))  # at once outside a transaction


# A recompute queued this long ago and not started is taken as lost (a broker restarted): the next change queues.
QUEUED_STALE = timedelta(minutes=5)


def _queue_recompute(event_id: int) -> None:
    """Queue one recompute, unless one is queued and not started yet: that one reads this change when it starts
    (``standings_catch_up`` clears the mark before it reads the state)."""
    now = timezone.now()
    waiting = Q(queued_at__isnull=True) | Q(queued_at__lt=now - QUEUED_STALE)
    if not StandingsState.objects.filter(waiting, event_id=event_id).update(queued_at=now):
        return
    try:
        queue(Work.RECOMPUTE_STANDINGS, event_id)
    except Exception:  # a dead broker, or the eager recompute itself: the write is committed whatever happens
        StandingsState.objects.filter(event_id=event_id, queued_at=now).update(queued_at=None)
        logger.exception("standings of event %s not recomputed; they stay marked as being updated", event_id)


def standings_recompute(event: Event) -> int:
    """Rebuild the event's Standing rows from the finished games' results; returns the number of lines.

    Riichi: total points (or average per game), penalties outside games
    included. MCR: table points, then score. Then the event's tiebreaks in
    order; players equal on all of them share the rank. Leagues: only games
    in the event's date range, only a player's best ``best_games`` count, and
    fewer than ``min_games`` games leave a player unranked.
    """
    with transaction.atomic():
        state = _locked_state(event)
        stored = recompute(event, state, full=True)
        live_changed(event.pk)  # the standings' watchers read the new table
    return stored.lines


def standings_catch_up(event: Event) -> Stored | None:
    """The queued recompute: count the changes not counted yet, reading only the lines they touched where that
    is exact; None when an earlier recompute already counted every change (nothing is written)."""
    StandingsState.objects.filter(event=event).update(queued_at=None)  # a change from now on queues another
    with transaction.atomic():
        state = _locked_state(event)
        if state.counted >= state.changes:
            return None
        stored = recompute(event, state)
        live_changed(event.pk)
    return stored


def _locked_state(event: Event) -> StandingsState:
    # One recompute per event at a time: the next one waits, then reads what this one committed. NO KEY: the
    # hand writes' inserts that reference the event (their results) do not wait for it.
    Event.objects.select_for_update(no_key=True).filter(pk=event.pk).values_list("pk").first()
    return StandingsState.objects.get_or_create(event=event)[0]


def standings_rows(event: Event) -> EventRows:
    """The standings' rows as a recompute would store them (unsaved): what ``verify_history`` compares with."""
    return event_rows(event)


def ranking(event: Event) -> list[int]:
    """The ranked players' ids, best first, as the stored standings give them (swiss seating's order).

    Players who share a rank follow in id order, so that a seating previewed with a seed is the one seated with it.
    """
    return list(
        Standing.objects.filter(event=event, rank__isnull=False)
        .order_by("rank", "-points", "player_id")
        .values_list("player_id", flat=True)
    )


@dataclass(frozen=True, slots=True)
class RoundPoints:
    """What one round's games gave a player (MCR: table points too)."""

    round: int
    points: Decimal
    table_points: Decimal | None


@dataclass(frozen=True, slots=True)
class Progress:
    """What the stored standings do not hold: the ranks before the latest round played, and points per round."""

    previous_round: int | None  # the round the movement is measured from; None: no earlier round counted
    previous_ranks: dict[int, int]
    rounds: dict[int, list[RoundPoints]]

    def movement(self, player_id: int, rank: int | None) -> int | None:
        """Places gained (negative: lost) since the previous round; None when either rank is missing."""
        before = self.previous_ranks.get(player_id)
        return None if rank is None or before is None else before - rank

    def is_new(self, player_id: int, rank: int | None) -> bool:
        """Ranked now and not after the previous round (a first game, or enough games at last)."""
        return self.previous_round is not None and rank is not None and player_id not in self.previous_ranks


def standings_progress(event: Event) -> Progress:
    """Each player's rank movement and points per round, from the same counted results as the standings.

    The movement compares with the standings as they were before the latest round with a counted game: the
    one standings computation (``event_rows``) run on the earlier rounds' games. Games outside any round (a
    league's) have no round: they count in no round's points and give no movement.
    """
    results = counted_results(event)
    per_round = _round_points(event, results)
    latest = max((r.round for rounds in per_round.values() for r in rounds), default=None)
    # The round before the latest that has a counted game: round numbers may have gaps.
    earlier = (
        max((r.round for rounds in per_round.values() for r in rounds if r.round < latest), default=None)
        if latest is not None
        else None
    )
    before = event_rows(event, before_round=latest).standings if earlier is not None else []
    previous = {row.player_id: row.rank for row in before if row.rank is not None}
    return Progress(previous_round=earlier, previous_ranks=previous, rounds=per_round)


PROGRESS_SECONDS = 300  # a version's progress never changes; this only bounds what an idle event keeps


def standings_progress_cached(event: Event) -> Progress:
    """``standings_progress`` computed once per version of the stored standings (the tables' cache key): the
    movement column's earlier standings are a whole standings computation, not one per render."""
    key = f"standings-progress:{standings_version(event)[0]}"
    progress = cache.get(key)
    if not isinstance(progress, Progress):
        progress = standings_progress(event)
        cache.set(key, progress, PROGRESS_SECONDS)
    return progress


def _round_points(event: Event, results: QuerySet[GameResult]) -> dict[int, list[RoundPoints]]:
    """Points per player and round: a substitute's game counts as the event's ``substitute_points``, or not."""
    mcr = event.ruleset().is_mcr
    sums: dict[int, dict[int, tuple[Decimal, Decimal]]] = {}
    rows = (
        results.filter(game__table__isnull=False)
        .values("player_id", "substitute", number=F("game__table__round__number"))
        .annotate(total=Sum("points"), table=Sum("table_points"), n=Count("id"))
    )
    for row in rows:
        total = row["total"]
        if row["substitute"]:
            if event.substitute_points is None:
                continue
            total = event.substitute_points * row["n"]
        points, table = sums.setdefault(row["player_id"], {}).get(row["number"], (Decimal(0), Decimal(0)))
        sums[row["player_id"]][row["number"]] = (points + total, table + (row["table"] or Decimal(0)))
    # Quantized: SQLite sums decimals as floats.
    return {
        player_id: [
            RoundPoints(
                round=number,
                points=points.quantize(HUNDREDTHS),
                table_points=table.quantize(HUNDREDTHS) if mcr else None,
            )
            for number, (points, table) in sorted(by_round.items())
        ]
        for player_id, by_round in sums.items()
    }
