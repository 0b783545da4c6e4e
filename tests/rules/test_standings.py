"""rules.standings: what a player's counted games add up to, the tiebreaks, who is ranked.

The games are WRC hanchan (docs/rules.md §5 and §9: points = (score − 30000) / 1000 + uma 15/5/−5/−15), so each
game's points follow from its end score and place.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.standings import (
    NO_AVERAGE_RANK,
    NO_BEST_GAME,
    Counted,
    GameResult,
    League,
    Tiebreak,
    average_place,
    counted_games,
    hundredths,
    ranked_from,
    ranked_points,
    tiebreak_value,
)

UMA = {1: 15, 2: 5, 3: -5, 4: -15}


def wrc(player: int, score: int, place: int, *, penalty: int = 0, substitute: bool = False) -> GameResult:
    """A WRC game's result: (score − 30000) / 1000 + uma, with a chombo deduction in ``penalty``."""
    points = Fraction(score - 30000, 1000) + UMA[place] + penalty
    return GameResult(
        player=player,
        points=points,
        score=score,
        place=Fraction(place),
        penalty=Fraction(penalty),
        substitute=substitute,
    )


# Player 1 plays three games: 45000 first (+30.0), 22000 third (−13.0), 31000 second (+6.0).
ANN = [wrc(1, 45000, 1), wrc(1, 22000, 3), wrc(1, 31000, 2)]
# Player 2: 38000 first (+23.0), and a game a substitute played in their seat, 12000 fourth (−33.0).
BO = [wrc(2, 38000, 1), wrc(2, 12000, 4, substitute=True)]


@pytest.mark.parametrize(
    ("league", "player", "points", "counted", "played", "score", "firsts", "best"),
    [
        # Every game counts; a substitute's game does not without substitute points.
        (League(), 1, Fraction(23), 3, 3, 98000, 1, Fraction(30)),
        (League(), 2, Fraction(23), 1, 1, 38000, 1, Fraction(23)),
        # The best 2 of Ann's 3: +30.0 and +6.0.
        (League(best_games=2), 1, Fraction(36), 2, 3, 76000, 1, Fraction(30)),
        # A substitute's game counts at the league's fixed −5 (its own −33.0 does not), among the best 2.
        (League(substitute_points=Fraction(-5)), 2, Fraction(18), 2, 2, 50000, 1, Fraction(23)),
        (League(best_games=1, substitute_points=Fraction(-5)), 2, Fraction(23), 1, 2, 38000, 1, Fraction(23)),
    ],
)
def test_counted_games(
    league: League, player: int, points: Fraction, counted: int, played: int, score: int, firsts: int, best: Fraction
) -> None:
    line = counted_games(ANN + BO, league)[player]
    assert (line.points, line.counted, line.played, line.score, line.first_places, line.best) == (
        points,
        counted,
        played,
        score,
        firsts,
        best,
    )


def test_mcr_best_games_rank_by_table_points_then_points() -> None:
    # MCR (docs/rules.md §6): table points 4/2/1/0 first, then the game's points.
    games = [
        GameResult(player=1, points=Fraction(40), score=40, place=Fraction(2), table_points=Fraction(2)),
        GameResult(player=1, points=Fraction(10), score=10, place=Fraction(1), table_points=Fraction(4)),
        GameResult(player=1, points=Fraction(90), score=90, place=Fraction(2), table_points=Fraction(2)),
    ]
    line = counted_games(games, League(best_games=2, mcr=True))[1]
    assert (line.table_points, line.points) == (Fraction(6), Fraction(100))


def test_a_chombo_deduction_is_in_the_points_and_counted_apart() -> None:
    line = counted_games([wrc(3, 30000, 2, penalty=-30)])[3]  # WRC chombo: −30 after the game
    assert (line.points, line.penalties) == (Fraction(-25), Fraction(-30))


@pytest.mark.parametrize(
    ("average", "penalties", "expected"),
    [
        (False, Fraction(0), Fraction(23)),
        (False, Fraction(-20), Fraction(3)),
        (True, Fraction(0), Fraction("7.67")),  # 23 / 3 to the hundredth
        (True, Fraction(-20), Fraction(1)),  # (23 − 20) / 3
    ],
)
def test_ranked_points(average: bool, penalties: Fraction, expected: Fraction) -> None:
    assert ranked_points(counted_games(ANN)[1], penalties=penalties, average=average) == expected


def test_no_game_ranks_on_the_penalties_alone() -> None:
    assert ranked_points(None, penalties=Fraction(-20)) == Fraction(-20)
    assert average_place(None) is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (Fraction(1, 8), Fraction("0.12")),  # half to even, as Decimal.quantize does
        (Fraction(3, 8), Fraction("0.38")),
        (Fraction(7, 3), Fraction("2.33")),
    ],
)
def test_hundredths_round_half_to_even(value: Fraction, expected: Fraction) -> None:
    assert hundredths(value) == expected


@pytest.mark.parametrize(
    ("tiebreak", "expected"),
    [
        (Tiebreak.SCORE, Fraction(98000)),
        (Tiebreak.AVERAGE_RANK, -Fraction(2)),  # places 1, 3, 2: the lower, the better
        (Tiebreak.FIRST_PLACES, Fraction(1)),
        (Tiebreak.BEST_GAME, Fraction(30)),
    ],
)
def test_tiebreak_values(tiebreak: Tiebreak, expected: Fraction) -> None:
    assert tiebreak_value(counted_games(ANN)[1], tiebreak) == expected


@pytest.mark.parametrize(
    ("tiebreak", "expected"),
    [
        (Tiebreak.SCORE, Fraction(0)),
        (Tiebreak.AVERAGE_RANK, -NO_AVERAGE_RANK),
        (Tiebreak.FIRST_PLACES, Fraction(0)),
        (Tiebreak.BEST_GAME, NO_BEST_GAME),
    ],
)
def test_a_player_without_games(tiebreak: Tiebreak, expected: Fraction) -> None:
    """No game: a score of 0, and below any real game on the others (a later stage's entrant before a game)."""
    assert tiebreak_value(None, tiebreak) == expected
    if tiebreak is Tiebreak.SCORE:
        return
    some = Counted(
        points=Fraction(-100),
        table_points=Fraction(0),
        score=-50000,
        place_sum=Fraction(4),
        counted=1,
        played=1,
        first_places=0,
        best=Fraction(-100),
    )
    assert tiebreak_value(some, tiebreak) >= expected


@pytest.mark.parametrize(
    ("minimum", "first_stage", "expected"), [(0, True, 1), (8, True, 8), (8, False, 0), (0, False, 0)]
)
def test_ranked_from(minimum: int, first_stage: bool, expected: int) -> None:
    assert ranked_from(minimum, first_stage=first_stage) == expected
