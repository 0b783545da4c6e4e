"""The bounds (docs/bounds.md) keep every stored number inside its column: the richest game they allow is saved.

Scores are a 32-bit integer column on PostgreSQL and final points a decimal of 10 digits. A 300-hand game at
every maximum at once (twelve players, eleven winners of sextuple yakuman on one discard in every hand, the
dealer among them so that the honba climb from 100 to 400, every riichi stick at 10,000, the largest uma and
penalties) ends far from either limit; CI runs this on PostgreSQL, which refuses a number that does not fit.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from rules.parameters import HONBA_POINTS_LIMIT, MAX_PLAYERS, PAYMENT_LIMIT, POINTS_LIMIT, SCORE_LIMIT
from scoring.models import GameResult, Penalty
from scoring.services.games import game_create
from scoring.services.hands import game_put_sheet
from scoring.sheet.record import YAKUMAN_MAXIMUM, HandRecord
from scoring.sheet.schema import (
    MAX_DEPOSITS,
    MAX_HANDS,
    MAX_HONBA,
    MAX_PENALTIES,
    NAME_LENGTH,
    PENALTY_LIMIT,
    REASON_LENGTH,
    RULESET_LENGTH,
)
from tests.factories import EventFactory, registered
from tournament.models import Event, Player

pytestmark = pytest.mark.django_db

INT32 = 2**31 - 1
POINTS_COLUMN = Decimal(10) ** 8  # GameResult.points: 10 digits, 2 after the point


def test_the_richest_game_the_bounds_allow_fits_the_database():
    # The largest table, with the dealer's bonus back and without rule 0's abortive draw on N - 1 rons.
    event = EventFactory.create(
        ruleset_key="twelve-player",
        ruleset_overrides={
            "honba_points": HONBA_POINTS_LIMIT,
            "riichi_deposit": PAYMENT_LIMIT,
            "multiple_ron": "all",
            "multiple_yakuman": True,
            "multiple_ron_honba": "each_winner",
            "dealer_multiple_ron_renchan": "always",
            "busting": False,
            "agari_yame": False,
            "start_points": SCORE_LIMIT,
            "return_points": SCORE_LIMIT,
            "uma": [POINTS_LIMIT, *[0] * 10, -POINTS_LIMIT],
            "chombo_penalty": -POINTS_LIMIT,
            "abortive_draws": False,
            "dealer_bonus": True,
            "tsumo_payment": "standard",
        },
    )
    ids = [p.pk for p in registered(event, *(f"P{i}" for i in range(MAX_PLAYERS)))]
    loser = ids[-1]
    game = game_create(event=event, player_ids=ids)
    Penalty.objects.bulk_create(
        [
            Penalty(event=event, game=game, player_id=loser, points=-PENALTY_LIMIT, reason="again")
            for _ in range(MAX_PENALTIES)
        ]
    )
    # Eleven winners on one discard, the dealer (seat 0) among them: the dealer stays and the honba grow.
    hand: HandRecord = {
        "result": "ron",
        "loser": loser,
        "riichi": ids,
        "wins": [{"winner": pid, "yakuman": YAKUMAN_MAXIMUM} for pid in ids[:-1]],
    }
    game = game_put_sheet(
        game_id=game.pk,
        hands=[hand] * MAX_HANDS,
        user=None,
        version=None,
        start={
            "honba": MAX_HONBA,
            "deposits": MAX_DEPOSITS,
            "scores": [SCORE_LIMIT] * (MAX_PLAYERS - 1) + [-SCORE_LIMIT],
        },
    )
    results = list(GameResult.objects.filter(game=game))
    assert len(game.result["hands"]) == MAX_HANDS
    assert len(results) == MAX_PLAYERS  # stored: PostgreSQL would have refused a number past its column
    poorest = min(results, key=lambda r: r.score)
    assert -INT32 < poorest.score < -INT32 // 2  # far down, and still inside the column
    assert max(abs(r.points) for r in results) < POINTS_COLUMN


def test_the_sheets_text_bounds_are_the_columns_lengths():
    """The score sheet is Django-free, so it names the lengths itself; they must stay those of the columns."""
    assert Player._meta.get_field("name").max_length == NAME_LENGTH
    assert Penalty._meta.get_field("reason").max_length == REASON_LENGTH
    assert Event._meta.get_field("ruleset_key").max_length == RULESET_LENGTH
