"""Every list answers in a constant number of queries, whatever the number of rows, and is paginated."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from api.pagination import PAGE_SIZE
from scoring.models import Standing
from tests.conftest import client_for
from tests.factories import EventFactory
from tournament.models import Event, Game, Player, Registration, Seat

# The shared event with its finished game: one row of each list to copy.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("game")]


def copies(game: Game, count: int) -> None:
    """``count`` more games like ``game`` (same players, same stored result), written in bulk."""
    made = Game.objects.bulk_create(
        [Game(event=game.event, result=game.result, status=game.status, version=game.version) for _ in range(count)]
    )
    seats = list(game.seats.all())
    Seat.objects.bulk_create(
        [Seat(game=copy, player_id=s.player_id, position=s.position) for copy in made for s in seats]
    )


def more_players(event: Event, count: int) -> None:
    people = Player.objects.bulk_create([Player(name=f"P{i:04d}") for i in range(count)])
    Registration.objects.bulk_create([Registration(event=event, player=p) for p in people])
    Standing.objects.bulk_create([Standing(event=event, player=p, rank=None, points=0, games=0) for p in people])
    cache.clear()  # rows written behind the recompute's back: the cached standings do not know them


def queries(url: str) -> tuple[int, dict[str, Any]]:
    with CaptureQueriesContext(connection) as captured:
        response = client_for(None).get(url)
    assert response.status_code == 200, response.content[:300]
    return len(captured), response.json()


GROW: dict[str, Callable[[Event, int], object]] = {
    "/api/v1/games/?event=spring": lambda event, n: copies(Game.objects.filter(event=event).earliest("pk"), n),
    "/api/v1/events/spring/players/": more_players,
    "/api/v1/events/spring/standings/": more_players,
    "/api/v1/events/": lambda event, n: EventFactory.create_batch(n),
}


@pytest.mark.parametrize("url", list(GROW))
def test_a_list_costs_the_same_queries_for_ten_rows_and_a_thousand(event: Event, url: str):
    GROW[url](event, 9)
    few, small = queries(url)
    GROW[url](event, 990)
    many, large = queries(url)
    assert small["count"] < PAGE_SIZE < large["count"]
    assert len(large["results"]) == PAGE_SIZE
    assert large["next"] is not None
    assert few == many, f"{url}: {few} queries for {small['count']} rows, {many} for {large['count']}"


def test_the_games_list_reaches_every_game_page_by_page(event: Event):
    copies(Game.objects.get(event=event), 249)
    seen, url = [], "/api/v1/games/?event=spring"
    while url:
        body = client_for(None).get(url).json()
        seen += [game["id"] for game in body["results"]]
        url = body["next"]
    assert sorted(seen) == sorted(Game.objects.values_list("pk", flat=True))
    assert len(seen) == len(set(seen)) == 250
