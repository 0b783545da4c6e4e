"""The plain upsert a hand write stores its GameResult and GameStats rows with leaves what the ORM's
``bulk_create(update_conflicts=True)`` leaves: the same values in every column, new rows inserted and taken keys
updated in place."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

import pytest
from django.db.models import Model

from scoring.models import GameResult, GameStats
from scoring.services.plain_rows import upsert
from tests.factories import EventFactory, played, registered
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db


def two_games() -> tuple[Game, Game]:
    event = EventFactory.create(slug=f"u-{uuid.uuid4().hex[:8]}", status=Event.Status.RUNNING)
    return played(event, registered(event, "A", "B", "C", "D")), played(event, registered(event, "E", "F", "G", "H"))


def seated(game: Game) -> list[int]:
    return list(game.seats.order_by("position").values_list("player_id", flat=True))


def result_rows(game: Game, shift: int) -> list[GameResult]:
    # A third of a point does not fit two decimal places: the column's rounding must be the same either way.
    return [
        GameResult(
            game=game,
            player_id=player,
            event_id=game.event_id,
            finished=shift > 0,
            substitute=position == 3,
            rank=Decimal(position + 1) + Decimal(shift) / 2,
            score=25000 + 1000 * position - shift,
            points=Decimal(10 * position + shift) / Decimal(3),
            penalty=Decimal(-shift),
            table_points=None if position else Decimal("1.5"),
            draws=None if position else shift,
        )
        for position, player in enumerate(seated(game))
    ]


def stats_rows(game: Game, shift: int) -> list[GameStats]:
    counts = {name: shift + n for n, name in enumerate(["hands", "wins", "riichi", "han", "han_wins", "win_points"])}
    zeros = dict.fromkeys(["tsumo_wins", "deal_ins", "riichi_wins", "draws", "tenpai", "chombo", "false_wins"], 0)
    return [
        GameStats(
            game_id=game.pk,
            player_id=player,
            event_id=game.event_id,
            finished=bool(shift),
            ruleset="wrc-2025",
            mcr=False,
            place=position + 1,
            rank=Decimal(position + 1),
            score=30000 - shift * position,
            points=Decimal(shift) / Decimal(7),
            table_points=None,
            busted=position == 3 and bool(shift),
            fan=0,
            deal_in_points=100 * shift,
            yakuman=1 if position == shift else 0,
            yakuman_hands=[shift] if position == shift else [],
            **counts,
            **zeros,
        )
        for position, player in enumerate(seated(game))
    ]


def stored(model: type[Model], game: Game) -> list[tuple[Any, ...]]:
    """The game's rows, every column but the id and the game, by player (comparable between two games)."""
    names = [f.attname for f in model._meta.concrete_fields if f.name not in ("id", "game", "player")]
    rows = model._default_manager.filter(game=game).order_by("player_id")
    return [(i, *values) for i, values in enumerate(rows.values_list(*names))]


def ids(model: type[Model], game: Game) -> list[int]:
    return list(model._default_manager.filter(game=game).order_by("player_id").values_list("pk", flat=True))


@pytest.mark.parametrize(
    ("model", "build"), [(GameResult, result_rows), (GameStats, stats_rows)], ids=["GameResult", "GameStats"]
)
def test_the_upsert_stores_what_bulk_create_stores(model: type[Model], build: Any):
    by_orm, by_sql = two_games()
    written = [f.name for f in model._meta.concrete_fields if f.name not in ("id", "game", "player")]
    for shift in (0, 1, 2):  # inserted, then updated twice
        model._default_manager.bulk_create(
            build(by_orm, shift), update_conflicts=True, unique_fields=("game", "player"), update_fields=written
        )
        upsert(build(by_sql, shift), key=("game", "player"))
        assert stored(model, by_sql) == stored(model, by_orm)
        if shift == 0:
            first, inserted = ids(model, by_sql), stored(model, by_sql)
    assert ids(model, by_sql) == first  # updated in place, never deleted and inserted again
    assert len(first) == 4
    assert stored(model, by_sql) != inserted  # the updates changed the values compared


def test_an_empty_upsert_sends_nothing(django_assert_num_queries: Any):
    with django_assert_num_queries(0):
        assert upsert([], key=("game", "player")) == []
