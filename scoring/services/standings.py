"""An event's standings, rebuilt from the finished games' results (one aggregate query in the common case).

A write that changes a finished game marks the standings as being updated
(``standings_changed``, in the write's transaction) and asks for a recompute
after its commit; ``standings_recompute`` runs one event at a time (a lock on
the event's row) and records which changes it included, so that concurrent
recomputes leave the rows one recompute leaves, and a recompute that failed
leaves the standings marked until another succeeds.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.db.models import Count, F, Max, Q, QuerySet, Sum
from django.db.models.functions import Greatest
from django.utils import timezone

from scoring.models import GameResult, Penalty, Standing, StandingsState
from tournament.models import Event, Game, Tiebreak

logger = logging.getLogger(__name__)
HUNDREDTHS = Decimal("0.01")
# A player with no average rank (no game counted) sorts below any real one on that tiebreak.
NO_AVERAGE_RANK = Decimal(99)


@dataclass(frozen=True, slots=True)
class _Games:
    """What a player's counted games add up to."""

    points: Decimal
    table_points: Decimal
    score: int
    rank_sum: Decimal
    count: int
    first_places: int
    best: Decimal | None
    penalties: Decimal = Decimal(0)  # chombo and sheet penalties, already in ``points``


@dataclass(frozen=True, slots=True)
class _Line:
    player_id: int
    points: Decimal
    table_points: Decimal | None
    score: int
    games: int
    average_rank: Decimal | None
    penalties: Decimal
    first_places: int
    best_game: Decimal | None


def standings_changed(event_id: int) -> None:
    """Count a change to the event's finished games, in the caller's transaction: the standings are being
    updated until a recompute that started after it ends."""
    StandingsState.objects.get_or_create(event_id=event_id)
    StandingsState.objects.filter(event_id=event_id).update(changes=F("changes") + 1)


_batch: ContextVar[set[int] | None] = ContextVar("standings_batch", default=None)


def standings_refresh(event_id: int) -> None:
    """Mark the standings as being updated and recompute them once the caller's transaction commits.

    The recompute runs after the commit (a Celery task, or in process without a broker) and can never turn the
    committed write into an error: a failure to queue it or to run it is logged, and the standings stay marked
    until a later recompute (the next write, ``manage.py recompute_standings``) succeeds.
    """
    standings_changed(event_id)
    batch = _batch.get()
    if batch is not None:
        batch.add(event_id)
    else:
        transaction.on_commit(lambda: _queue_recompute(event_id))


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


def _queue_recompute(event_id: int) -> None:
    from scoring.tasks import recompute_standings  # the task module imports this one

    try:
        recompute_standings.delay(event_id)
    except Exception:  # a dead broker, or the eager recompute itself: the write is committed whatever happens
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
        # One recompute per event at a time: the next one waits, then reads what this one committed. NO KEY: the
        # hand writes' inserts that reference the event (their results) do not wait for it.
        Event.objects.select_for_update(no_key=True).filter(pk=event.pk).values_list("pk").first()
        state = StandingsState.objects.get_or_create(event=event)[0]
        rows = _rows(event)
        Standing.objects.filter(event=event).delete()
        Standing.objects.bulk_create(rows, batch_size=1000)
        StandingsState.objects.filter(event=event).update(
            counted=Greatest(F("counted"), state.changes), recomputes=F("recomputes") + 1, computed_at=timezone.now())
    return len(rows)


def standings_rows(event: Event) -> list[Standing]:
    """The standings' rows as a recompute would store them (unsaved): what ``verify_history`` compares with."""
    return _rows(event)


def _rows(event: Event, before_round: int | None = None) -> list[Standing]:
    """The standings' rows; with ``before_round``, as they stood before that round's games (rank movement)."""
    mcr = event.ruleset().is_mcr
    lines = _lines(event, mcr, before_round)
    tiebreaks = list(event.tiebreaks) or ([Tiebreak.SCORE] if mcr else [])

    def key(line: _Line) -> tuple[Decimal, ...]:
        primary = (line.table_points or Decimal(0), line.points) if mcr else (line.points,)
        return primary + tuple(_tiebreak(line, name) for name in tiebreaks)

    minimum = max(event.min_games, 1)
    ranked = sorted((ln for ln in lines if ln.games >= minimum), key=key, reverse=True)
    rows: list[Standing] = []
    previous: tuple[Decimal, ...] | None = None
    rank = 0
    for position, line in enumerate(ranked, start=1):
        if key(line) != previous:
            rank, previous = position, key(line)
        rows.append(_standing(event, line, rank))
    return rows + [_standing(event, line, None) for line in lines if line.games < minimum]


def confirmed_games(event: Event) -> QuerySet[Game]:
    """The event's games every player confirmed, as they stand, and nobody disputes."""
    return (Game.objects.filter(event=event)
            .annotate(seats_n=Count("seats", distinct=True),
                      confirmed_n=Count("confirmations", filter=Q(confirmations__verdict="confirmed"), distinct=True),
                      disputed_n=Count("confirmations", filter=Q(confirmations__verdict="disputed"), distinct=True))
            .filter(confirmed_n=F("seats_n"), disputed_n=0))


def counted_results(event: Event) -> QuerySet[GameResult]:
    """The finished games' results the standings count: confirmed ones only if the event says so, a league's
    within its dates. Substitutes' results are among them (``substitute`` set)."""
    results = GameResult.objects.filter(event=event, finished=True)
    if not event.count_unconfirmed:
        results = results.filter(game__in=confirmed_games(event))
    if event.starts_on:
        results = results.filter(game__played_on__gte=event.starts_on)
    if event.ends_on:
        results = results.filter(game__played_on__lte=event.ends_on)
    return results


def ranking(event: Event) -> list[int]:
    """The ranked players' ids, best first, as the stored standings give them (swiss seating's order).

    Players who share a rank follow in id order, so that a seating previewed with a seed is the one seated with it.
    """
    return list(Standing.objects.filter(event=event, rank__isnull=False).order_by("rank", "-points", "player_id")
                .values_list("player_id", flat=True))


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
    one standings computation (``_rows``) run on the earlier rounds' games. Games outside any round (a
    league's) have no round: they count in no round's points and give no movement.
    """
    results = counted_results(event)
    per_round = _round_points(event, results)
    latest = max((r.round for rounds in per_round.values() for r in rounds), default=None)
    # The round before the latest that has a counted game: round numbers may have gaps.
    earlier = (max((r.round for rounds in per_round.values() for r in rounds if r.round < latest), default=None)
               if latest is not None else None)
    previous = ({row.player_id: row.rank for row in _rows(event, before_round=latest) if row.rank is not None}
                if earlier is not None else {})
    return Progress(previous_round=earlier, previous_ranks=previous, rounds=per_round)


def _round_points(event: Event, results: QuerySet[GameResult]) -> dict[int, list[RoundPoints]]:
    """Points per player and round: a substitute's game counts as the event's ``substitute_points``, or not."""
    mcr = event.ruleset().is_mcr
    sums: dict[int, dict[int, tuple[Decimal, Decimal]]] = {}
    rows = (results.filter(game__table__isnull=False)
            .values("player_id", "substitute", number=F("game__table__round__number"))
            .annotate(total=Sum("points"), table=Sum("table_points"), n=Count("id")))
    for row in rows:
        total = row["total"]
        if row["substitute"]:
            if event.substitute_points is None:
                continue
            total = event.substitute_points * row["n"]
        points, table = sums.setdefault(row["player_id"], {}).get(row["number"], (Decimal(0), Decimal(0)))
        sums[row["player_id"]][row["number"]] = (points + total, table + (row["table"] or Decimal(0)))
    # Quantized: SQLite sums decimals as floats.
    return {player_id: [RoundPoints(round=number, points=points.quantize(HUNDREDTHS),
                                    table_points=table.quantize(HUNDREDTHS) if mcr else None)
                        for number, (points, table) in sorted(by_round.items())]
            for player_id, by_round in sums.items()}


def _lines(event: Event, mcr: bool, before_round: int | None = None) -> list[_Line]:
    """One line per registered player and per player with a counted game or a penalty."""
    registered = set(event.registrations.filter(substitute=False).values_list("player_id", flat=True))
    extra: dict[int, Decimal] = {}
    for player_id, points in Penalty.objects.filter(event=event, game__isnull=True).values_list("player_id",
                                                                                                  "points"):
        extra[player_id] = extra.get(player_id, Decimal(0)) + points
    results = counted_results(event)
    if before_round is not None:
        results = results.filter(game__table__round__number__lt=before_round)
    if event.best_games is None and event.substitute_points is None:
        counted = _summed(results.filter(substitute=False))
        played = {p: g.count for p, g in counted.items()}
    else:
        counted, played = _best_games(event, results, mcr)
    return [_line(player_id, counted.get(player_id), played.get(player_id, 0), extra.get(player_id, Decimal(0)),
                  average=event.ranking == Event.Ranking.AVERAGE, mcr=mcr)
            for player_id in registered | set(counted) | set(extra)]


def _line(player_id: int, games: _Games | None, played: int, penalties: Decimal, *, average: bool,
          mcr: bool) -> _Line:
    count = games.count if games else 0  # the games counted: a league may count only the best
    total = (games.points if games else Decimal(0)) + penalties
    if average and count:
        total = (total / count).quantize(HUNDREDTHS)
    return _Line(player_id=player_id, points=total,
                 table_points=(games.table_points if games else Decimal(0)) if mcr else None,
                 score=games.score if games else 0, games=played,
                 average_rank=(games.rank_sum / count).quantize(HUNDREDTHS) if games and count else None,
                 penalties=penalties + (games.penalties if games else Decimal(0)),
                 first_places=games.first_places if games else 0,
                 best_game=games.best if games else None)


def _tiebreak(line: _Line, name: str) -> Decimal:
    """A tiebreak as a number where higher is better."""
    if name == Tiebreak.SCORE:
        return Decimal(line.score)
    if name == Tiebreak.AVERAGE_RANK:
        return -(line.average_rank if line.average_rank is not None else NO_AVERAGE_RANK)
    if name == Tiebreak.FIRST_PLACES:
        return Decimal(line.first_places)
    if name == Tiebreak.BEST_GAME:
        return line.best_game if line.best_game is not None else Decimal("-Infinity")
    raise ValueError(f"unknown tiebreak {name!r}")  # Event.clean refuses these


def _summed(results: QuerySet[GameResult]) -> dict[int, _Games]:
    """The common case in one aggregate query: a league of 40,000 hands stays well under 100 ms."""
    rows = results.values("player_id").annotate(
        best=Max("points"), total=Sum("points"), table=Sum("table_points"), total_score=Sum("score"),
        games=Count("id"), rank_sum=Sum("rank"), firsts=Count("id", filter=Q(rank=1)), penalties=Sum("penalty"))
    return {r["player_id"]: _Games(points=r["total"], table_points=r["table"] or Decimal(0), score=r["total_score"],
                                   rank_sum=r["rank_sum"], count=r["games"], first_places=r["firsts"],
                                   best=r["best"], penalties=r["penalties"] or Decimal(0))
            for r in rows}


_Game = tuple[Decimal, Decimal, int, Decimal, Decimal]  # points, table points, score, rank, penalty


def _best_games(event: Event, results: QuerySet[GameResult], mcr: bool) -> tuple[dict[int, _Games], dict[int, int]]:
    """League options in Python: substitutes scored at ``substitute_points``, a player's best N games."""
    games_of: dict[int, list[_Game]] = {}
    for player_id, points, table_points, score, place, penalty, substitute in results.values_list(
            "player_id", "points", "table_points", "score", "rank", "penalty", "substitute").iterator(chunk_size=5000):
        if substitute:
            if event.substitute_points is None:
                continue
            points, penalty = event.substitute_points, Decimal(0)
        games_of.setdefault(player_id, []).append((points, table_points or Decimal(0), score, place, penalty))
    played = {p: len(g) for p, g in games_of.items()}
    if event.best_games:
        def best(game: _Game) -> tuple[Decimal, ...]:
            return (game[1], game[0]) if mcr else (game[0],)

        games_of = {p: sorted(g, key=best, reverse=True)[: event.best_games] for p, g in games_of.items()}
    counted = {p: _Games(points=sum((g[0] for g in gs), Decimal(0)), table_points=sum((g[1] for g in gs), Decimal(0)),
                         score=sum(g[2] for g in gs), rank_sum=sum((g[3] for g in gs), Decimal(0)), count=len(gs),
                         first_places=sum(1 for g in gs if g[3] == 1), best=max((g[0] for g in gs), default=None),
                         penalties=sum((g[4] for g in gs), Decimal(0)))
               for p, gs in games_of.items()}
    return counted, played


def _standing(event: Event, line: _Line, rank: int | None) -> Standing:
    return Standing(event=event, player_id=line.player_id, rank=rank, points=line.points,
                    table_points=line.table_points, score=line.score, games=line.games,
                    average_rank=line.average_rank, penalties=line.penalties, first_places=line.first_places,
                    best_game=line.best_game)
