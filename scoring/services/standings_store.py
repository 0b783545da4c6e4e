"""Storing an event's standings as they changed, and the recompute that reads only the players changes touched.

A recompute writes the difference from the stored rows: the rows whose values changed are updated, new players'
rows inserted, and only the rows of players no longer listed deleted; the version the cached standings views are
keyed by (``StandingsState.recomputes``) moves only when something was written.

Each change to a finished game records the players whose lines it touched (``StandingsState.touched``, with the
change's number), or that it touched every line (``all_from``). A recompute reads the state once under the
event's lock: the touched players' lines are computed again from their own results (``player_lines``, the one
computation of a line), every other line is read back from its stored row, and all are ranked again. At the end
it forgets only what it counted (the entries numbered up to the ``changes`` it read), so that a change made while
it ran is left for the next recompute.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeVar

from django.db import transaction
from django.db.models import F, QuerySet
from django.db.models.functions import Greatest
from django.utils import timezone

from rules.standings import Counted
from scoring.models import StageStanding, Standing, StandingsState
from scoring.services.standings_lines import PlayerLine, player_lines
from scoring.services.standings_rows import EventRows, LineValues, event_rows, one_stage_values
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
)
# More touched players than this (a big import, a merge) and the next recompute reads every line anyway.
TOUCHED_MAX = 200

_R = TypeVar("_R", Standing, StageStanding)
Values = Standing | StageStanding | LineValues  # a row, or its values


@dataclass(frozen=True, slots=True)
class Stored:
    lines: int  # the event's standings lines
    changed: bool  # whether any stored row was written (the version moved)
    incremental: bool  # only the touched players' lines were computed again


def touch(event_id: int, players: Collection[int] | None) -> None:
    """Count a change in the caller's transaction, with the players it touched (None: every line).

    The state row is locked until the caller commits, so the touched players are read and written back by one
    writer at a time."""
    # No savepoint inside the caller's transaction: a failure here fails the write that counts the change anyway.
    with transaction.atomic(savepoint=False):  # the caller's transaction, or one of its own outside any
        locked = StandingsState.objects.select_for_update().only("changes", "touched").filter(event_id=event_id)
        state = locked.first() or StandingsState.objects.get_or_create(event_id=event_id)[0]
        number = state.changes + 1
        updates: dict[str, object] = {"changes": F("changes") + 1}
        if players is None or len(state.touched) + len(players) > TOUCHED_MAX:
            # Numbered with the latest change, "every line" covers the touched players listed before it too.
            updates |= {"all_from": number, "touched": {}}
        else:
            updates["touched"] = {**state.touched, **{str(p): number for p in players}}
        StandingsState.objects.filter(event_id=event_id).update(**updates)


def recompute(event: Event, state: StandingsState, *, full: bool = False) -> Stored:
    """Store the event's standings as ``state`` (read under the event's lock) asks: the touched players' lines
    computed again, or (``full``, or a change that touched any line) every line; then forget what was counted."""
    touched = None if full or state.all_from else {int(p) for p in state.touched}
    values = incremental_values(event, touched) if touched else None
    if values is not None:
        # An event in one stage: its stages' rows are left alone (a stage that stops being entered is a change
        # of every line, recomputed in full).
        stored = Standing.objects.filter(event=event)
        changed = _store(Standing, stored, values, lambda v: Standing(event=event, **v._asdict()), stage=False)
        lines = len(values)
    else:
        rows = event_rows(event)
        changed, lines = store_rows(event, rows), len(rows.standings)
    _counted(event, state, changed)
    return Stored(lines=lines, changed=changed, incremental=values is not None)


def incremental_values(event: Event, players: Collection[int]) -> list[LineValues] | None:
    """The event's lines as stored, only ``players``' computed again; None where that cannot be exact.

    Each player's line depends on their own games alone (best N, minimum games, date ranges, substitutes and
    the solo race included), and the ranking only on the lines, which the stored rows hold to the hundredth the
    ranking reads. An event in stages is computed in full: a later stage's lines start from what the stage
    before carries in, and its final ranking orders every stage's lines together."""
    if Stage.objects.filter(event=event, number=2, through__isnull=False).exists():  # a second stage entered
        return None
    stored = Standing.objects.filter(event=event).exclude(player_id__in=list(players))
    lines = {values[0]: stored_line(*values) for values in stored.values_list("player_id", *STORED_LINE)}
    mcr = event.ruleset().is_mcr
    lines.update((line.player_id, line) for line in player_lines(event, mcr, players=players))
    return one_stage_values(event, list(lines.values()))


# What ``stored_line`` reads of a row, in its order.
STORED_LINE = (
    "points",
    "table_points",
    "score",
    "games",
    "average_rank",
    "penalties",
    "first_places",
    "best_game",
    "draws",
)


def stored_line(
    player_id: int,
    points: Decimal,
    table_points: Decimal | None,
    score: int,
    games: int,
    average_rank: Decimal | None,
    penalties: Decimal,
    first_places: int,
    best_game: Decimal | None,
    draws: int | None = None,
) -> PlayerLine:
    """A stored row read back as the line it was ranked from (one stage: nothing carried in). Its totals give the
    tiebreaks the values the row shows, which are what the ranking read."""
    totals = None
    if games:
        totals = Counted(
            points=Fraction(points),
            table_points=Fraction(table_points or 0),
            score=score,
            place_sum=Fraction(average_rank or 0),
            counted=0 if average_rank is None else 1,  # the average placement back as place_sum / 1
            played=games,
            first_places=first_places,
            best=None if best_game is None else Fraction(best_game),
        )
    return PlayerLine(
        player_id=player_id,
        points=points,
        table_points=table_points,
        score=score,
        games=games,
        average_rank=average_rank,
        penalties=penalties,
        first_places=first_places,
        best_game=best_game,
        draws=draws,
        totals=totals,
    )


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
    before = {
        (values[1] if stage else 0, values[0]): values
        for values in stored.values_list("player_id", *LINE_FIELDS, "pk").iterator(chunk_size=2000)
    }
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
    model.objects.bulk_update(rows, LINE_FIELDS, batch_size=200)


FEW = 12  # rows changed beyond a rank shift, written one UPDATE each up to this many
RANK = 1 + LINE_FIELDS.index("rank")  # in the values ``_store`` reads: the player first


def _chunks(pks: list[int], size: int = 500) -> Iterator[list[int]]:
    for start in range(0, len(pks), size):
        yield pks[start : start + size]


def _counted(event: Event, state: StandingsState, changed: bool) -> None:
    """Record the changes ``state`` held as counted, and forget the touched players they listed; what a later
    change recorded meanwhile stays for the next recompute."""
    now = StandingsState.objects.select_for_update().only("touched", "all_from").get(event=event)
    updates: dict[str, object] = {
        "counted": Greatest(F("counted"), state.changes),
        "touched": {p: n for p, n in now.touched.items() if n > state.changes},
        "all_from": now.all_from if now.all_from > state.changes else 0,
    }
    if changed:
        updates |= {"recomputes": F("recomputes") + 1, "computed_at": timezone.now()}
    StandingsState.objects.filter(event=event).update(**updates)
