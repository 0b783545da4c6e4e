"""An event of solo attempts (seed 001 "1인 마작"): games of one player, standings by draws, then value.

Seed 001 line 614: "텐파이까지 몇 순 걸렸는지를 겨룬다. 같은 순수라면 점수가 높은 쪽이 위가 된다" (the draws to
tenpai decide; at equal draws, the higher score). Values are the dealer's: 1 han 30 fu 1500, 2 han 30 fu 2900,
3 han 40 fu 7700, mangan 12000 (6 × base rounded up to 100).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from rules.errors import Problem, Refusal
from scoring.models import GameResult, Penalty, Standing
from scoring.services.audit import result_problems, standings_problems
from scoring.services.games import round_seat
from scoring.services.hands import game_record_hand
from scoring.services.penalties import penalty_save
from scoring.services.standings import standings_recompute
from scoring.sheet.record import HandRecord
from tests.factories import EventFactory, RoundFactory, played, registered
from tournament.models import Event
from tournament.services.seating import Method

pytestmark = pytest.mark.django_db


def tenpai(draws: int, han: int, fu: int | None = None) -> HandRecord:
    record: HandRecord = {"result": "tenpai", "draws": draws, "han": han}
    if fu is not None:
        record["fu"] = fu
    return record


NOTEN: HandRecord = {"result": "noten"}


def standings(event: Event) -> list[tuple[int | None, str, int | None, int, int]]:
    standings_recompute(event)
    return [(s.rank, s.player.name, s.draws, s.score, s.games) for s in Standing.objects.filter(event=event)]


def test_best_attempt_ranks_by_draws_then_value():
    event = EventFactory.create(ruleset_key="solo")
    ann, bo, cy, di, _ed = registered(event, "Ann", "Bo", "Cy", "Di", "Ed")
    played(event, [ann], [tenpai(9, 1, 30), tenpai(6, 2, 30)])  # best: 6 draws, 2900
    played(event, [bo], [tenpai(6, 3, 40)])  # 6 draws, 7700: equal draws, higher value
    played(event, [cy], [tenpai(4, 1, 30), NOTEN])  # 4 draws: fewest
    played(event, [di], [tenpai(6, 2, 30)])  # equal to Ann on both: they share the rank
    played(event, [ann], [tenpai(7, 5)])  # a second game of Ann's: her best stays 6 draws, 2900
    assert standings(event) == [
        (1, "Cy", 4, 1500, 1),
        (2, "Bo", 6, 7700, 1),
        (3, "Ann", 6, 2900, 2),
        (3, "Di", 6, 2900, 1),
        (None, "Ed", None, 0, 0),
    ]
    results = {r.player.name: (r.draws, r.score, r.points) for r in GameResult.objects.filter(event=event)}
    assert results["Cy"] == (4, 1500, Decimal(0))


def test_the_sum_over_a_fixed_number_of_attempts():
    event = EventFactory.create(
        ruleset_key="solo", ruleset_overrides={"solo_ranking": "sum_of_attempts", "solo_attempts": 2}
    )
    ann, bo, cy = registered(event, "Ann", "Bo", "Cy")
    played(event, [ann], [tenpai(5, 1, 30), tenpai(6, 2, 30)])  # 11 draws, 4400
    played(event, [bo], [tenpai(3, 1, 30), NOTEN])  # 3 + 19 = 22 draws, 1500
    played(event, [cy], [tenpai(2, 1, 30)])  # one attempt of two: the game is not finished, nothing counts
    assert standings(event) == [(1, "Ann", 11, 4400, 1), (2, "Bo", 22, 1500, 1), (None, "Cy", None, 0, 0)]
    # Cy's second attempt finishes the game: 2 + 9 = 11 draws, like Ann, with the higher value 1500 + 12000.
    game_record_hand(game_id=event.games.get(seats__player=cy).pk, record=tenpai(9, 5), user=None, version=None)
    assert standings(event) == [(1, "Cy", 11, 13500, 1), (2, "Ann", 11, 4400, 1), (3, "Bo", 22, 1500, 1)]


def test_the_sum_ranks_the_games_played_first():
    event = EventFactory.create(
        ruleset_key="solo", ruleset_overrides={"solo_ranking": "sum_of_attempts", "solo_attempts": 1}
    )
    ann, bo = registered(event, "Ann", "Bo")
    played(event, [ann], [tenpai(8, 1, 30)])
    played(event, [ann], [tenpai(8, 1, 30)])  # two games: 16 draws
    played(event, [bo], [tenpai(2, 1, 30)])  # one game: 2 draws, fewer, but one attempt behind
    assert standings(event) == [(1, "Ann", 16, 3000, 2), (2, "Bo", 2, 1500, 1)]


def test_a_round_seats_each_player_alone():
    event = EventFactory.create(ruleset_key="solo")
    registered(event, "Ann", "Bo", "Cy")
    RoundFactory.create(event=event, number=1)
    games = round_seat(event=event, number=1, method=Method.RANDOM, seed=1)
    assert sorted(len(game.seats.all()) for game in games) == [1, 1, 1]


def test_a_solo_event_takes_no_penalty():
    event = EventFactory.create(ruleset_key="solo")
    [ann] = registered(event, "Ann")
    with pytest.raises(Refusal) as refused:
        penalty_save(penalty=Penalty(event=event, player=ann, points=-2, reason="late"), user=None)
    assert refused.value.problems == [Problem.of("points", "solo_no_penalties")]


def test_the_history_check_covers_the_draws():
    event = EventFactory.create(ruleset_key="solo")
    [ann] = registered(event, "Ann")
    game = played(event, [ann], [tenpai(6, 2, 30)])
    standings_recompute(event)
    assert (result_problems(game), standings_problems(event)) == ([], [])
    # Draws changed behind the application's back are found, in the standings and in the game's result.
    Standing.objects.filter(event=event).update(draws=2)
    assert standings_problems(event) == [f"player {ann.pk}'s standing: draws 2 stored, 6 recomputed"]
    GameResult.objects.filter(game=game).update(draws=2)
    assert result_problems(game) == [f"player {ann.pk}'s result: draws 2 stored, 6 recomputed"]
