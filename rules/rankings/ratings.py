"""A league's rating, updated game by game in the order the games were played (docs/rankings.md, "Ratings").

- Tenhou's R (tenhou.net's manual, "Rating"): everyone starts at 1500; after a game
  R' = R + k × (S + (R̄ − R) / 40), S = +30/+10/−10/−30 by place (3 players: +30/0/−30), R̄ the table's mean
  rating before the game, taken as 1500 when lower, k = 1 − 0.002 × games played before (0.2 from 400 on).
  Players sharing a place share its points (the mean of the places they span).
- Elo, for head-to-head games: R' = R + K (S − E), E = 1 / (1 + 10^((R_opponent − R) / 400)), K = 32, S = 1 for
  the better place, ½ for the same, 0 for the worse; everyone starts at 1500.

A game with a table size the system does not define (Tenhou: 3 or 4 players, Elo: 2) changes nobody's rating
and is reported as skipped.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

TENHOU = "tenhou"
ELO = "elo"
SYSTEMS = (TENHOU, ELO)
START = 1500.0
TENHOU_POINTS = {4: (30.0, 10.0, -10.0, -30.0), 3: (30.0, 0.0, -30.0)}
TENHOU_TABLE_FLOOR = 1500.0
TENHOU_DIVISOR = 40.0
TENHOU_STEP = 0.002  # k falls by this per game played
TENHOU_FLOOR = 0.2  # k from the 400th game on
ELO_K = 32.0
ELO_SCALE = 400.0


def tenhou_factor(games: int) -> float:
    """k: 1 − 0.002 × the games played before this one, and 0.2 from 400 games on."""
    return max(TENHOU_FLOOR, 1 - TENHOU_STEP * games)


def shared_points(ranks: Sequence[float], table: Sequence[float]) -> list[float]:
    """Each seat's placement points from its rank (players sharing a place have the same rank, the mean of the
    places they span: two sharing 2nd and 3rd are both 2.5): the mean of the spanned places' points."""
    order = sorted(range(len(ranks)), key=lambda i: ranks[i])
    points = [0.0] * len(ranks)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and ranks[order[end + 1]] == ranks[order[start]]:
            end += 1
        share = sum(table[start : end + 1]) / (end - start + 1)
        for position in range(start, end + 1):
            points[order[position]] = share
        start = end + 1
    return points


def tenhou_change(rating: float, games: int, points: float, table_mean: float) -> float:
    """The change of one player's R after a game: k × (S + (max(1500, R̄) − R) / 40)."""
    return tenhou_factor(games) * (points + (max(TENHOU_TABLE_FLOOR, table_mean) - rating) / TENHOU_DIVISOR)


def elo_expected(rating: float, opponent: float) -> float:
    return 1 / (1 + 10 ** ((opponent - rating) / ELO_SCALE))


def elo_change(rating: float, opponent: float, score: float) -> float:
    """K × (S − E): S is 1 for a win, ½ for a draw, 0 for a loss."""
    return ELO_K * (score - elo_expected(rating, opponent))


@dataclass(frozen=True, slots=True)
class Seat:
    player: Hashable
    rank: float  # 1 for the winner; shared places as their mean


@dataclass(frozen=True, slots=True)
class Game:
    key: Hashable
    seats: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """One player's rating through one game, with what the change was made of."""

    game: Hashable
    player: Hashable
    rank: float
    before: float
    after: float
    games: int  # games played before this one
    factor: float  # Tenhou's k; Elo's K
    points: float  # Tenhou's S; Elo's S (1, ½, 0)
    reference: float  # Tenhou: the table's mean R used (1500 at least); Elo: the opponent's rating


def _tenhou_steps(game: Game, ratings: dict[Hashable, float], played: dict[Hashable, int]) -> list[Step]:
    before = [ratings.get(seat.player, START) for seat in game.seats]
    mean = max(TENHOU_TABLE_FLOOR, sum(before) / len(before))
    points = shared_points([seat.rank for seat in game.seats], TENHOU_POINTS[len(game.seats)])
    steps = []
    for seat, rating, s in zip(game.seats, before, points, strict=True):
        games = played.get(seat.player, 0)
        steps.append(
            Step(
                game.key,
                seat.player,
                seat.rank,
                rating,
                rating + tenhou_change(rating, games, s, mean),
                games,
                tenhou_factor(games),
                s,
                mean,
            )
        )
    return steps


def _elo_steps(game: Game, ratings: dict[Hashable, float], played: dict[Hashable, int]) -> list[Step]:
    one, two = game.seats
    a, b = ratings.get(one.player, START), ratings.get(two.player, START)
    score = 1.0 if one.rank < two.rank else 0.5 if one.rank == two.rank else 0.0
    return [
        Step(
            game.key, one.player, one.rank, a, a + elo_change(a, b, score), played.get(one.player, 0), ELO_K, score, b
        ),
        Step(
            game.key,
            two.player,
            two.rank,
            b,
            b + elo_change(b, a, 1 - score),
            played.get(two.player, 0),
            ELO_K,
            1 - score,
            a,
        ),
    ]


def defined_for(system: str, players: int) -> bool:
    """Whether ``system`` rates a game of ``players`` players."""
    return players in TENHOU_POINTS if system == TENHOU else players == 2


def replay(system: str, games: Iterable[Game]) -> tuple[list[Step], list[Hashable]]:
    """Every player's rating through ``games`` in order: the steps, and the games skipped (a table size the system
    does not rate)."""
    if system not in SYSTEMS:
        raise ValueError(f"unknown rating system {system!r}")
    ratings: dict[Hashable, float] = {}
    played: dict[Hashable, int] = {}
    steps: list[Step] = []
    skipped: list[Hashable] = []
    for game in games:
        if not defined_for(system, len(game.seats)):
            skipped.append(game.key)
            continue
        made = (_tenhou_steps if system == TENHOU else _elo_steps)(game, ratings, played)
        for step in made:
            ratings[step.player] = step.after
            played[step.player] = step.games + 1
        steps.extend(made)
    return steps, skipped
