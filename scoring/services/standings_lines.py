"""What each player's counted games add up to, in one stage of an event: the lines the standings rank.

A game belongs to the stage of its round; a game outside any round (a
league's) to the first stage. The event's own penalties count in the first
stage (and so reach a later one through its carry).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, F, Max, Q, QuerySet, Sum

from rules.solo import SoloScore, solo_total
from scoring.models import GameResult, Penalty
from tournament.models import Event, Game, Tiebreak

HUNDREDTHS = Decimal("0.01")
# A player with no average rank (no game counted) sorts below any real one on that tiebreak.
NO_AVERAGE_RANK = Decimal(99)
# A player with no best game sorts below any real one on that tiebreak (a number, so the ranking stays exact).
NO_BEST_GAME = Decimal(-10) ** 12


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
    draws: int | None = None  # the solo race to tenpai: the draws counted (``score`` holds the value)


@dataclass(frozen=True, slots=True)
class PlayerLine:
    player_id: int
    points: Decimal
    table_points: Decimal | None
    score: int
    games: int
    average_rank: Decimal | None
    penalties: Decimal
    first_places: int
    best_game: Decimal | None
    rank_sum: Decimal = Decimal(0)  # of the counted games' placements: an average over several stages
    counted: int = 0  # the games counted (a league may count only the best)
    draws: int | None = None


def stage_games(stage: int) -> Q:
    """The results of the stage's games: of its rounds' tables, and (the first stage) of games outside rounds."""
    in_rounds = Q(game__table__round__stage=stage)
    return in_rounds | Q(game__table__isnull=True) if stage == 1 else in_rounds


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


def player_lines(event: Event, mcr: bool, *, before_round: int | None = None, stage: int = 1,
                 entrants: Collection[int] | None = None) -> list[PlayerLine]:
    """One line per player of the stage: in the first, every registered player and every player with a counted
    game or a penalty; in a later one, exactly its ``entrants``."""
    extra: dict[int, Decimal] = {}
    if stage == 1:
        registered = set(event.registrations.filter(substitute=False).values_list("player_id", flat=True))
        for player_id, points in Penalty.objects.filter(event=event, game__isnull=True).values_list("player_id",
                                                                                                      "points"):
            extra[player_id] = extra.get(player_id, Decimal(0)) + points
    else:
        registered = set(entrants or ())
    results = counted_results(event).filter(stage_games(stage))
    if before_round is not None:
        results = results.filter(game__table__round__number__lt=before_round)
    if event.ruleset().is_solo:
        counted = _solo_games(event, results.filter(substitute=False))
        played = {p: g.count for p, g in counted.items()}
    elif event.best_games is None and event.substitute_points is None:
        counted = _summed(results.filter(substitute=False))
        played = {p: g.count for p, g in counted.items()}
    else:
        counted, played = _best_games(event, results, mcr)
    players = registered | set(counted) | set(extra) if stage == 1 else registered
    return [_line(player_id, counted.get(player_id), played.get(player_id, 0), extra.get(player_id, Decimal(0)),
                  average=event.ranking == Event.Ranking.AVERAGE, mcr=mcr)
            for player_id in players]


def _line(player_id: int, games: _Games | None, played: int, penalties: Decimal, *, average: bool,
          mcr: bool) -> PlayerLine:
    count = games.count if games else 0  # the games counted: a league may count only the best
    total = (games.points if games else Decimal(0)) + penalties
    if average and count:
        total = (total / count).quantize(HUNDREDTHS)
    return PlayerLine(player_id=player_id, points=total,
                 table_points=(games.table_points if games else Decimal(0)) if mcr else None,
                 score=games.score if games else 0, games=played,
                 average_rank=(games.rank_sum / count).quantize(HUNDREDTHS) if games and count else None,
                 penalties=penalties + (games.penalties if games else Decimal(0)),
                 first_places=games.first_places if games else 0,
                 best_game=games.best if games else None, rank_sum=games.rank_sum if games else Decimal(0),
                 counted=count, draws=games.draws if games else None)


def tiebreak_value(line: PlayerLine, name: str) -> Decimal:
    """A tiebreak as a number where higher is better."""
    if name == Tiebreak.SCORE:
        return Decimal(line.score)
    if name == Tiebreak.AVERAGE_RANK:
        return -(line.average_rank if line.average_rank is not None else NO_AVERAGE_RANK)
    if name == Tiebreak.FIRST_PLACES:
        return Decimal(line.first_places)
    if name == Tiebreak.BEST_GAME:
        return line.best_game if line.best_game is not None else NO_BEST_GAME
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


def _solo_games(event: Event, results: QuerySet[GameResult]) -> dict[int, _Games]:
    """The solo race to tenpai: each player's games as the event's ``solo_ranking`` counts them (rules.solo), the
    best game's draws and value or their sums; no points."""
    ruleset = event.ruleset()
    games_of: dict[int, list[tuple[SoloScore, Decimal]]] = {}
    for player_id, draws, value, place in results.filter(draws__isnull=False).values_list(
            "player_id", "draws", "score", "rank"):
        # draws is never None here (filtered above); "or 0" only tells the type checker so.
        games_of.setdefault(player_id, []).append((SoloScore(draws=draws or 0, value=value), place))
    counted = {}
    for player_id, games in games_of.items():
        total = solo_total(ruleset=ruleset, scores=[score for score, _ in games])
        assert total is not None, "a player listed here has a game"
        counted[player_id] = _Games(points=Decimal(0), table_points=Decimal(0), score=total.score.value,
                                    rank_sum=sum((place for _, place in games), Decimal(0)), count=len(games),
                                    first_places=sum(1 for _, place in games if place == 1), best=None,
                                    draws=total.score.draws)
    return counted


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


