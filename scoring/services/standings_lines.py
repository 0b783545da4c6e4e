"""What each player's counted games add up to, in one stage of an event: the lines the standings rank.

A game belongs to the stage of its round; a game outside any round (a
league's) to the first stage. The event's own penalties count in the first
stage (and so reach a later one through its carry).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.db.models import Count, F, Max, Q, QuerySet, Sum

from rules.solo import SoloScore, solo_total
from rules.standings import Counted, League, average_place, counted_games, ranked_points
from rules.standings import GameResult as StandingsGame
from scoring.models import GameResult, Penalty
from tournament.models import Event, Game

HUNDREDTHS = Decimal("0.01")


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
    totals: Counted | None = None  # what the tiebreaks read (rules.standings)


def stage_games(stage: int) -> Q:
    """The results of the stage's games: of its rounds' tables, and (the first stage) of games outside rounds."""
    in_rounds = Q(game__table__round__stage=stage)
    return in_rounds | Q(game__table__isnull=True) if stage == 1 else in_rounds


def confirmed_games(event: Event) -> QuerySet[Game]:
    """The event's games every player confirmed, as they stand, and nobody disputes."""
    return (
        Game.objects.filter(event=event)
        .annotate(
            seats_n=Count("seats", distinct=True),
            confirmed_n=Count("confirmations", filter=Q(confirmations__verdict="confirmed"), distinct=True),
            disputed_n=Count("confirmations", filter=Q(confirmations__verdict="disputed"), distinct=True),
        )
        .filter(confirmed_n=F("seats_n"), disputed_n=0)
    )


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


def player_lines(
    event: Event,
    mcr: bool,
    *,
    before_round: int | None = None,
    stage: int = 1,
    entrants: Collection[int] | None = None,
    players: Collection[int] | None = None,
) -> list[PlayerLine]:
    """One line per player of the stage: in the first, every registered player and every player with a counted
    game or a penalty; in a later one, exactly its ``entrants``. With ``players``, only those players' lines
    (the incremental recompute): each line reads the player's own results and penalties alone."""
    registered, extra = _stage_players(event, stage, entrants, players)
    results = counted_results(event).filter(stage_games(stage))
    if players is not None:
        results = results.filter(player_id__in=list(players))
    if before_round is not None:
        results = results.filter(game__table__round__number__lt=before_round)
    draws: dict[int, int] = {}
    if event.ruleset().is_solo:
        counted, draws = _solo_games(event, results.filter(substitute=False))
    elif event.best_games is None and event.substitute_points is None:
        counted = _summed(results.filter(substitute=False))
    else:
        counted = counted_games(
            _game_results(results),
            League(
                best_games=event.best_games,
                mcr=mcr,
                substitute_points=None if event.substitute_points is None else Fraction(event.substitute_points),
            ),
        )
    listed = registered | set(counted) | set(extra) if stage == 1 else registered
    return [
        _line(
            player_id,
            counted.get(player_id),
            extra.get(player_id, Decimal(0)),
            draws.get(player_id),
            average=event.ranking == Event.Ranking.AVERAGE,
            mcr=mcr,
        )
        for player_id in listed
    ]


def _stage_players(
    event: Event, stage: int, entrants: Collection[int] | None, players: Collection[int] | None
) -> tuple[set[int], dict[int, Decimal]]:
    """The stage's players listed whatever they played (the first stage's registered, a later one's entrants),
    and the event's own penalties (first stage only); only ``players``' when given."""
    extra: dict[int, Decimal] = {}
    if stage != 1:
        listed = set(entrants or ())
        return (listed if players is None else listed & set(players)), extra
    registrations = event.registrations.filter(substitute=False)
    penalties = Penalty.objects.filter(event=event, game__isnull=True)
    if players is not None:
        registrations = registrations.filter(player_id__in=list(players))
        penalties = penalties.filter(player_id__in=list(players))
    for player_id, points in penalties.values_list("player_id", "points"):
        extra[player_id] = extra.get(player_id, Decimal(0)) + points
    return set(registrations.values_list("player_id", flat=True)), extra


def _line(
    player_id: int, games: Counted | None, penalties: Decimal, draws: int | None, *, average: bool, mcr: bool
) -> PlayerLine:
    place = average_place(games)
    return PlayerLine(
        player_id=player_id,
        totals=games,
        points=_decimal(ranked_points(games, penalties=Fraction(penalties), average=average)),
        table_points=_decimal(games.table_points if games else Fraction(0)) if mcr else None,
        score=games.score if games else 0,
        games=games.played if games else 0,
        average_rank=None if place is None else _decimal(place),
        penalties=penalties + _decimal(games.penalties if games else Fraction(0)),
        first_places=games.first_places if games else 0,
        best_game=None if games is None or games.best is None else _decimal(games.best),
        rank_sum=_decimal(games.place_sum if games else Fraction(0)),
        counted=games.counted if games else 0,
        draws=draws,
    )


def _decimal(value: Fraction) -> Decimal:
    """A sum or an average of stored hundredths, exactly."""
    return Decimal(value.numerator) / Decimal(value.denominator)


def _fraction(value: Decimal | None) -> Fraction:
    return Fraction(value) if value is not None else Fraction(0)


def _sum(value: Decimal | None) -> Fraction:
    """A sum of stored hundredths, exactly: SQLite adds decimals as floats (12.300000000000001), and the ranking
    compares the sums exactly (equal sums share a rank)."""
    return _fraction(None if value is None else value.quantize(HUNDREDTHS))


def _summed(results: QuerySet[GameResult]) -> dict[int, Counted]:
    """The common case in one aggregate query: a league of 40,000 hands stays well under 100 ms."""
    rows = results.values("player_id").annotate(
        best=Max("points"),
        total=Sum("points"),
        table=Sum("table_points"),
        total_score=Sum("score"),
        games=Count("id"),
        rank_sum=Sum("rank"),
        firsts=Count("id", filter=Q(rank=1)),
        penalties=Sum("penalty"),
    )
    return {
        r["player_id"]: Counted(
            points=_sum(r["total"]),
            table_points=_sum(r["table"]),
            score=r["total_score"],
            place_sum=_sum(r["rank_sum"]),
            counted=r["games"],
            played=r["games"],
            first_places=r["firsts"],
            best=_fraction(r["best"]),
            penalties=_sum(r["penalties"]),
        )
        for r in rows
    }


def _solo_games(event: Event, results: QuerySet[GameResult]) -> tuple[dict[int, Counted], dict[int, int]]:
    """The solo race to tenpai: each player's games as the event's ``solo_ranking`` counts them (rules.solo), the
    best game's draws and value or their sums (the value as the score); no points."""
    ruleset = event.ruleset()
    games_of: dict[int, list[tuple[SoloScore, Decimal]]] = {}
    for player_id, draws, value, place in results.filter(draws__isnull=False).values_list(
        "player_id", "draws", "score", "rank"
    ):
        # draws is never None here (filtered above); "or 0" only tells the type checker so.
        games_of.setdefault(player_id, []).append((SoloScore(draws=draws or 0, value=value), place))
    counted, draws_of = {}, {}
    for player_id, games in games_of.items():
        total = solo_total(ruleset=ruleset, scores=[score for score, _ in games])
        assert total is not None, "a player listed here has a game"
        counted[player_id] = Counted(
            points=Fraction(0),
            table_points=Fraction(0),
            score=total.score.value,
            place_sum=sum((Fraction(place) for _, place in games), Fraction(0)),
            counted=len(games),
            played=len(games),
            first_places=sum(1 for _, place in games if place == 1),
            best=None,
        )
        draws_of[player_id] = total.score.draws
    return counted, draws_of


def _game_results(results: QuerySet[GameResult]) -> Iterator[StandingsGame]:
    for player_id, points, table_points, score, place, penalty, substitute in results.values_list(
        "player_id", "points", "table_points", "score", "rank", "penalty", "substitute"
    ).iterator(chunk_size=5000):
        yield StandingsGame(
            player=player_id,
            points=Fraction(points),
            score=score,
            place=Fraction(place),
            table_points=_fraction(table_points),
            penalty=_fraction(penalty),
            substitute=substitute,
        )
