"""An event's standings from its players' game results: what each player's counted games add up to, the
tiebreaks, who has played enough to be ranked (pure functions, no storage).

Sources: a league counts a player's best N games and scores a substitute's game at fixed points where its
organiser says so; a player is ranked from a minimum number of games; ties on points are broken by the event's
tiebreaks, in its order, and players equal on all of them share the rank (docs/rules.md §9; the ranking
itself, with the carry between stages and the shared ranks, is ``rules.stages.stage_standings``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

# A player with no average placement (no game counted) sorts below any real one on that tiebreak.
NO_AVERAGE_RANK = Fraction(99)
# A player with no best game sorts below any real one on that tiebreak (a number, so the ranking stays exact).
NO_BEST_GAME = Fraction(-(10**12))


class Tiebreak(StrEnum):
    """What breaks a tie on points; the event lists them in its order."""

    SCORE = "score"  # the higher sum of end scores
    AVERAGE_RANK = "average_rank"  # the lower average placement
    FIRST_PLACES = "first_places"  # more first places
    BEST_GAME = "best_game"  # the higher best single game


@dataclass(frozen=True, slots=True)
class GameResult:
    """One player's result in one finished game, as the standings count it."""

    player: int
    points: Fraction  # final points, penalties of the game included
    score: int
    place: Fraction  # shared places may be fractional where ties split (2.5)
    table_points: Fraction = Fraction(0)  # MCR
    penalty: Fraction = Fraction(0)  # the part of ``points`` that is chombo and sheet penalties
    substitute: bool = False  # played by a substitute in the player's seat


@dataclass(frozen=True, slots=True)
class Counted:
    """What a player's counted games add up to."""

    points: Fraction
    table_points: Fraction
    score: int
    place_sum: Fraction
    counted: int  # the games counted (a league may count only the best)
    played: int  # every game played, counted or not
    first_places: int
    best: Fraction | None
    penalties: Fraction = Fraction(0)


@dataclass(frozen=True, slots=True)
class League:
    """How an event counts its games: its best N, a substitute's game at fixed points (None: not counted)."""

    best_games: int | None = None
    substitute_points: Fraction | None = None
    mcr: bool = False


def counted_games(results: Iterable[GameResult], league: League = League()) -> dict[int, Counted]:
    """Each player's counted games, added up: a substitute's game at ``substitute_points`` (without its
    penalties) or not at all, then only the best ``best_games`` (MCR: by table points, then points)."""
    games_of: dict[int, list[GameResult]] = {}
    for game in results:
        if game.substitute:
            if league.substitute_points is None:
                continue
            game = GameResult(
                player=game.player,
                points=league.substitute_points,
                score=game.score,
                place=game.place,
                table_points=game.table_points,
            )
        games_of.setdefault(game.player, []).append(game)
    counted = {}
    for player, games in games_of.items():
        kept = games
        if league.best_games:
            kept = sorted(games, key=lambda g: (g.table_points, g.points) if league.mcr else (g.points,), reverse=True)[
                : league.best_games
            ]
        counted[player] = _added(kept, played=len(games))
    return counted


def _added(games: Sequence[GameResult], *, played: int) -> Counted:
    return Counted(
        points=sum((g.points for g in games), Fraction(0)),
        table_points=sum((g.table_points for g in games), Fraction(0)),
        score=sum(g.score for g in games),
        place_sum=sum((g.place for g in games), Fraction(0)),
        counted=len(games),
        played=played,
        first_places=sum(1 for g in games if g.place == 1),
        best=max((g.points for g in games), default=None),
        penalties=sum((g.penalty for g in games), Fraction(0)),
    )


def hundredths(value: Fraction) -> Fraction:
    """To the hundredth, half to even, as the standings show (and store) an average."""
    return Fraction(round(value, 2))


def ranked_points(counted: Counted | None, *, penalties: Fraction = Fraction(0), average: bool = False) -> Fraction:
    """The points a player ranks on: the counted games' total with the event's own penalties, or (an event
    ranked by average) that total per counted game, to the hundredth."""
    total = (counted.points if counted else Fraction(0)) + penalties
    if average and counted and counted.counted:
        return hundredths(total / counted.counted)
    return total


def average_place(counted: Counted | None) -> Fraction | None:
    """The average placement over the counted games, to the hundredth; None without a game."""
    if counted is None or not counted.counted:
        return None
    return hundredths(counted.place_sum / counted.counted)


def tiebreak_value(counted: Counted | None, tiebreak: Tiebreak) -> Fraction:
    """A tiebreak as a number where higher is better."""
    if tiebreak is Tiebreak.SCORE:
        return Fraction(counted.score if counted else 0)
    if tiebreak is Tiebreak.AVERAGE_RANK:
        place = average_place(counted)
        return -(place if place is not None else NO_AVERAGE_RANK)
    if tiebreak is Tiebreak.FIRST_PLACES:
        return Fraction(counted.first_places if counted else 0)
    best = counted.best if counted else None
    return best if best is not None else NO_BEST_GAME


def tiebreak_values(counted: Counted | None, tiebreaks: Sequence[Tiebreak]) -> tuple[Fraction, ...]:
    return tuple(tiebreak_value(counted, tiebreak) for tiebreak in tiebreaks)


def ranked_from(minimum_games: int, *, first_stage: bool) -> int:
    """The games a player must have played to be ranked: in the first stage the event's minimum, and at least
    one; a later stage ranks every entrant, who carries points in before a game is played."""
    return max(minimum_games, 1) if first_stage else 0
