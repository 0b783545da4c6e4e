"""Ending a game moves only the ranks it passes (scoring.services.standings_store.rerank, rules.ranks): over many
random writes on leagues full of ties, the stored standings are those a full recompute gives, and a recompute
reads only the touched players' rows and the range of keys between their old and new places."""

from __future__ import annotations

import random
import re
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Penalty, StandingsState
from scoring.services.games import game_create
from scoring.services.hands import game_put_sheet
from scoring.services.standings import standings_catch_up, standings_recompute
from scoring.sheet.record import HandRecord
from tests.factories import registered
from tests.scoring.test_standings_incremental import full, random_write, riichi_hand, stored
from tournament.models import Event

pytestmark = pytest.mark.django_db

# Leagues where many lines tie: on points alone, on every tiebreak, and below the minimum of games.
SETTINGS: dict[str, dict[str, Any]] = {
    "sum": {},
    "min_games_tiebreaks": {"min_games": 3, "tiebreaks": ["first_places", "average_rank"]},
    "best_games_average": {"best_games": 3, "ranking": "average", "tiebreaks": ["best_game"]},
    "mcr_substitutes": {"ruleset_key": "mcr", "substitute_points": Decimal("0"), "min_games": 2},
}


def tied_game(rng: random.Random, event: Event, ids: list[int], mcr: bool) -> None:
    """A game everyone ends even (nobody wins a hand), or one of a few hands: the lines it leaves tie often."""
    seats = rng.sample(ids, 4)
    game = game_create(event=event, player_ids=seats, played_on=date(2026, 11, 2))
    if mcr:
        hands: list[HandRecord] = [{"result": "draw"}]
    elif rng.random() < 0.5:
        hands = [{"result": "draw", "tenpai": []}]
    else:
        hands = [riichi_hand(rng, seats)]
    game_put_sheet(game_id=game.pk, hands=hands, user=None, version=None, ended_by_time=True)


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_moving_ranks_agrees_with_the_full_recompute_over_many_random_writes(name: str):
    options = SETTINGS[name]
    mcr = options.get("ruleset_key") == "mcr"
    event = Event.objects.create(name="League", slug="league", kind="league", **options)
    ids = [p.pk for p in registered(event, *(f"P{i}" for i in range(14)))]
    Penalty.objects.create(event=event, player_id=ids[1], points=Decimal("-5"), reason="late")
    standings_recompute(event)
    rng = random.Random(f"rerank-{name}")
    tied = 0
    for _ in range(50):
        if rng.random() < 0.5:
            tied_game(rng, event, ids, mcr)
        else:
            random_write(rng, event, ids, mcr)
        done = standings_catch_up(event)
        assert done is not None
        assert done.incremental, "a game's players only: the ranks move in place"
        assert stored(event) == full(event)
        ranks = [row[2] for row in stored(event)]
        tied += len(set(ranks)) < len(ranks)
    assert tied > 10, "the league had shared ranks (or unranked lines) to get right"


def test_a_league_recomputed_in_full_before_sort_keys_were_stored_is_recomputed_in_full_once():
    event = Event.objects.create(name="League", slug="league", kind="league")
    ids = [p.pk for p in registered(event, *(f"P{i}" for i in range(6)))]
    standings_recompute(event)
    StandingsState.objects.filter(event=event).update(keyed=False)  # as the migration leaves every event
    for _ in range(2):
        tied_game(random.Random(3), event, ids, mcr=False)
        done = standings_catch_up(event)
        assert done is not None
        assert stored(event) == full(event)
    assert done is not None
    assert done.incremental  # the first recompute was in full and stored the keys: the second moves ranks


STANDING_READ = re.compile(r'^SELECT .* FROM "scoring_standing"', re.S)


def standings_reads(event: Event, ids: list[int]) -> list[str]:
    """The queries of the recompute that follows one more game of ``ids``' first four players."""
    tied_game(random.Random(5), event, ids[:4], mcr=False)
    with CaptureQueriesContext(connection) as queries:
        done = standings_catch_up(event)
    assert done is not None
    assert done.incremental
    return [q["sql"] for q in queries.captured_queries]


@pytest.mark.parametrize("players", [8, 40])
def test_a_recompute_reads_the_touched_rows_and_a_range_of_keys_and_no_more_queries_in_a_bigger_league(
    players: int,
):
    event = Event.objects.create(name="League", slug="league", kind="league")
    ids = [p.pk for p in registered(event, *(f"P{i}" for i in range(players)))]
    rng = random.Random(9)
    for _ in range(players // 2):
        game = game_create(event=event, player_ids=rng.sample(ids, 4), played_on=date(2026, 11, 2))
        seats = list(game.seats.values_list("player_id", flat=True))
        game_put_sheet(game_id=game.pk, hands=[riichi_hand(rng, seats)], user=None, version=None, ended_by_time=True)
    standings_recompute(event)
    sql = standings_reads(event, ids)
    # Every read of the standings is of the touched players (by id) or of one key onwards (an index range).
    for query in filter(STANDING_READ.match, sql):
        assert re.search(r'"player_id" IN \(|"sort_key" >= ', query), query
    assert len(sql) <= 18  # a game's four players: the same few queries whatever the league's size
