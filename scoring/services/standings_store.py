"""Storing an event's standings as they changed, and the recompute that reads only the players changes touched.

A recompute writes the difference from the stored rows: the rows whose values changed are updated, new players'
rows inserted, and only the rows of players no longer listed deleted; the version the cached standings views are
keyed by (``StandingsState.recomputes``) moves only when something was written.

Each change to a finished game records the players whose lines it touched (``StandingsState.touched``, with the
change's number), or that it touched every line (``all_from``). A recompute reads the state once under the
event's lock: the touched players' lines are computed again from their own results (``player_lines``, the one
computation of a line) and ranked by counting the stored lines better than them, and the ranks of the lines they
passed, or that passed them, move in place (rules.ranks): every other row is left unread. Each ranked row keeps
its key as bytes (``sort_key``, indexed with the event), so the lines between a player's old and new keys are one
range of that index. At the end it forgets only what it counted (the entries numbered up to the ``changes`` it
read), so that a change made while it ran is left for the next recompute.
"""

from __future__ import annotations

import functools
import operator
from collections import defaultdict
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import transaction
from django.db.models import BinaryField, Case, F, Q, QuerySet, Subquery, Value, When
from django.db.models.functions import Greatest
from django.utils import timezone

from rules.ranks import Move, Shift, better_before, rank_shifts, touched_ranks
from scoring.models import StageStanding, Standing, StandingsState
from scoring.services.standings_lines import player_lines
from scoring.services.standings_rows import EventRows, LineValues, event_rows, event_tiebreaks, line_values, rank_lines
from tournament.models import Event, Stage

# What a stored line holds beside its event and player: a row is written again only when one of these differs.
LINE_FIELDS = (
    "stage",
    "rank",
    "points",
    "table_points",
    "carried",
    "carried_table_points",
    "score",
    "games",
    "average_rank",
    "penalties",
    "first_places",
    "best_game",
    "draws",
    "sort_key",
)
# More touched players than this (a big import, a merge) and the next recompute reads every line anyway.
TOUCHED_MAX = 200

_R = TypeVar("_R", Standing, StageStanding)
Values = Standing | StageStanding | LineValues  # a row, or its values


@dataclass(frozen=True, slots=True)
class Stored:
    lines: int  # the lines computed: the event's standings lines, or (incremental) the touched players'
    changed: bool  # whether any stored row was written (the version moved)
    incremental: bool  # only the touched players' lines were computed again


def touch(event_id: int, players: Collection[int] | None) -> None:
    """Count a change in the caller's transaction, with the players it touched (None: every line).

    The state row is locked until the caller commits, so the touched players are read and written back by one
    writer at a time."""
    touch_many(event_id, [players])


def touch_many(event_id: int, changes: Sequence[Collection[int] | None]) -> None:
    """Count each of ``changes`` in turn (as ``touch`` counts one), in one read and one write: a group of imported
    games leaves the state its games would have left one by one."""
    if not changes:
        return
    # No savepoint inside the caller's transaction: a failure here fails the write that counts the change anyway.
    with transaction.atomic(savepoint=False):  # the caller's transaction, or one of its own outside any
        locked = StandingsState.objects.select_for_update().only("changes", "touched").filter(event_id=event_id)
        state = locked.first() or StandingsState.objects.get_or_create(event_id=event_id)[0]
        touched: dict[str, int] = state.touched
        all_from = None
        for number, players in enumerate(changes, start=state.changes + 1):
            if players is None or len(touched) + len(players) > TOUCHED_MAX:
                # Numbered with the latest change, "every line" covers the touched players listed before it too.
                all_from, touched = number, {}
            else:
                touched = {**touched, **{str(p): number for p in players}}
        updates: dict[str, object] = {"changes": F("changes") + len(changes), "touched": touched}
        if all_from is not None:
            updates["all_from"] = all_from
        StandingsState.objects.filter(event_id=event_id).update(**updates)


def recompute(event: Event, state: StandingsState, *, full: bool = False) -> Stored:
    """Store the event's standings as ``state`` (read under the event's lock) asks: the touched players' lines
    computed again and the ranks they pass moved, or (``full``, or a change that touched any line) every line;
    then forget what was counted."""
    touched = None if full or state.all_from or not state.keyed else {int(p) for p in state.touched}
    moved = rerank(event, touched) if touched else None
    if moved is not None:
        changed, lines, keyed = moved, len(touched or ()), True
    else:
        rows = event_rows(event)
        changed, lines = store_rows(event, rows), len(rows.standings)
        keyed = not rows.stages and all(row.rank is None or row.sort_key is not None for row in rows.standings)
    _counted(event, state, changed, keyed)
    return Stored(lines=lines, changed=changed, incremental=moved is not None)


def rerank(event: Event, players: Collection[int]) -> bool | None:
    """Store ``players``' lines computed again, and move the ranks of the lines they passed or that passed them,
    and no other; whether anything was written. None (nothing written) where that cannot be exact.

    Each player's line depends on their own games alone (best N, minimum games, date ranges, substitutes and
    the solo race included), and a line's rank only on how many keys are better than its own (rules.ranks). An
    event in stages is computed in full: a later stage's lines start from what the stage before carries in,
    and its final ranking orders every stage's lines together."""
    if Stage.objects.filter(event=event, number=2, through__isnull=False).exists():  # a second stage entered
        return None
    mcr = event.ruleset().is_mcr
    lines = player_lines(event, mcr, players=players)
    ranked = rank_lines(event, lines, stage=1, carried={}, mcr=mcr, tiebreaks=event_tiebreaks(event, mcr))
    new = {line.player_id: line_values(1, line, stage_line) for stage_line, line in ranked}
    stored = Standing.objects.filter(event=event, player_id__in=list(players))
    before = _read(stored)
    if any(v.sort_key is None and v.rank is not None for v in new.values()) or any(
        values[RANK] is not None and values[SORT_KEY] is None for values in before.values()
    ):
        return None  # a key not kept exactly, or a ranked line stored without one
    old = {
        player: None if values[SORT_KEY] is None else bytes(values[SORT_KEY]) for (_, player), values in before.items()
    }
    moves = [(old.get(p), new[p].sort_key if p in new else None) for p in players]
    others = Standing.objects.filter(event=event, sort_key__isnull=False).exclude(player_id__in=list(players))
    ranks = touched_ranks({p: v.sort_key for p, v in new.items()}, _untouched_better(event, others, new, moves))
    shifted = _shift(others, rank_shifts(moves))
    rows = [values._replace(rank=ranks[player]) for player, values in new.items()]
    return _write(Standing, before, rows, lambda v: Standing(event=event, **v._asdict()), stage=False) or shifted


def _untouched_better(
    event: Event, others: QuerySet[Standing], new: dict[int, LineValues], moves: list[Move]
) -> dict[int, int]:
    """For each touched player's new key, the untouched lines (``others``) better than it, read from the first
    untouched line at or after it (its stored rank and key: rules.ranks.better_before), in one query; a key worse
    than every untouched line has all of them better (one count, for all such keys)."""
    keys = {p: v.sort_key for p, v in new.items() if v.sort_key is not None}
    if not keys:
        return {}
    olds = [old for old, _ in moves]
    found: dict[str, Subquery] = {}
    for player, key in keys.items():
        after = others.filter(sort_key__gte=key).order_by("sort_key")
        found[f"r{player}"] = Subquery(after.values("rank")[:1])
        found[f"k{player}"] = Subquery(after.values("sort_key")[:1], output_field=BinaryField())
    row: dict[str, Any] = dict(Event.objects.filter(pk=event.pk).values(**found).get())
    better = {}
    every: int | None = None  # how many untouched lines there are, read once if a key is worse than all of them
    for player in keys:
        rank, first = row[f"r{player}"], row[f"k{player}"]
        if rank is None:
            every = others.count() if every is None else every
            better[player] = every
        else:
            better[player] = better_before(rank, bytes(first), olds)
    return better


def _shift(others: QuerySet[Standing], shifts: list[Shift]) -> bool:
    """Move the untouched lines' ranks by ``shifts``, in one UPDATE of the rows that move; whether any did."""
    if not shifts:
        return False
    ranges = [Q(sort_key__gt=s.after) & (Q() if s.upto is None else Q(sort_key__lte=s.upto)) for s in shifts]
    moving = functools.reduce(operator.or_, ranges)
    by = Case(*(When(r, then=Value(s.by)) for r, s in zip(ranges, shifts, strict=True)), default=Value(0))
    return bool(others.filter(moving).update(rank=F("rank") + by))


def store_rows(event: Event, rows: EventRows) -> bool:
    """Write ``rows`` over the stored ones, only where they differ; whether anything was written."""
    changed = _store(Standing, Standing.objects.filter(event=event), rows.standings, _same, stage=False)
    stages = StageStanding.objects.filter(event=event)
    return _store(StageStanding, stages, rows.stages, _same, stage=True) or changed


def _same(row: _R) -> _R:
    return row


def _store(
    model: type[_R], stored: QuerySet[_R], rows: Sequence[Values], make: Callable[[Any], _R], *, stage: bool
) -> bool:
    """Write ``rows`` (model rows, or their values: ``make`` turns one into a row) over the stored ones."""
    return _write(model, _read(stored, stage=stage), rows, make, stage=stage)


def _read(stored: QuerySet[_R], *, stage: bool = False) -> dict[tuple[int, int], tuple[Any, ...]]:
    """The stored rows' values (the player, ``LINE_FIELDS``, the pk) by stage (0 for the event's) and player."""
    return {
        (values[1] if stage else 0, values[0]): values
        for values in stored.values_list("player_id", *LINE_FIELDS, "pk").iterator(chunk_size=2000)
    }


def _write(
    model: type[_R],
    before: dict[tuple[int, int], tuple[Any, ...]],
    rows: Sequence[Values],
    make: Callable[[Any], _R],
    *,
    stage: bool,
) -> bool:
    """Write ``rows`` over the rows read ``before``: those not among ``rows`` are deleted."""
    before = dict(before)
    new: list[_R] = []
    changed: list[tuple[Values, int, list[str]]] = []
    shifts: defaultdict[int, list[int]] = defaultdict(list)
    for row in rows:
        old = before.pop((row.stage if stage else 0, row.player_id), None)
        if old is None:
            new.append(make(row))
            continue
        differ = [name for name, value in zip(LINE_FIELDS, old[1:], strict=False) if getattr(row, name) != value]
        if differ == ["rank"] and row.rank is not None and old[RANK] is not None:
            shifts[row.rank - old[RANK]].append(old[-1])  # a line passed by others: only its rank moves
        elif differ:
            changed.append((row, old[-1], differ))
    for pks in _chunks([values[-1] for values in before.values()]):
        model.objects.filter(pk__in=pks).delete()
    # Ranks shift in blocks (everyone between a player's old and new place moves one): one UPDATE a shift.
    for delta, shifted in shifts.items():
        for pks in _chunks(shifted):
            model.objects.filter(pk__in=pks).update(rank=F("rank") + delta)
    _update(model, changed, make)
    if new:
        model.objects.bulk_create(new, batch_size=1000)
    return bool(before or changed or new or shifts)


def _update(model: type[_R], changed: list[tuple[Values, int, list[str]]], make: Callable[[Any], _R]) -> None:
    if len(changed) <= FEW:
        # A game's four players: an UPDATE each of what differs costs less than bulk_update's CASE per field.
        for row, pk, differ in changed:
            model.objects.filter(pk=pk).update(**{name: getattr(row, name) for name in differ})
        return
    rows: list[_R] = []
    for values, pk, _ in changed:
        row = make(values)
        row.pk = pk
        rows.append(row)
    # Only the fields that differ somewhere: bulk_update writes a CASE over the batch for each field it is given.
    fields = [name for name in LINE_FIELDS if any(name in differ for _, _, differ in changed)]
    model.objects.bulk_update(rows, fields, batch_size=200)


FEW = 12  # rows changed beyond a rank shift, written one UPDATE each up to this many
# In the values ``_read`` gives: the player first.
RANK = 1 + LINE_FIELDS.index("rank")
SORT_KEY = 1 + LINE_FIELDS.index("sort_key")


def _chunks(pks: list[int], size: int = 500) -> Iterator[list[int]]:
    for start in range(0, len(pks), size):
        yield pks[start : start + size]


def _counted(event: Event, state: StandingsState, changed: bool, keyed: bool) -> None:
    """Record the changes ``state`` held as counted, and forget the touched players they listed; what a later
    change recorded meanwhile stays for the next recompute."""
    now = StandingsState.objects.select_for_update().only("touched", "all_from").get(event=event)
    updates: dict[str, object] = {
        "counted": Greatest(F("counted"), state.changes),
        "touched": {p: n for p, n in now.touched.items() if n > state.changes},
        "all_from": now.all_from if now.all_from > state.changes else 0,
        "keyed": keyed,
    }
    if changed:
        updates |= {"recomputes": F("recomputes") + 1, "computed_at": timezone.now()}
    StandingsState.objects.filter(event=event).update(**updates)
