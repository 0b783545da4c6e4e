"""The move of Game and its seats into tournament (tournament 0004-0007, scoring 0006-0007) keeps every row.

A database written before the move (a table's Seat rows and its game's
GamePlayer rows, results naming players) is migrated forward, back and
forward again; seats, substitutes, hands and results come through, the
results keyed by seat instead of by name.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.sheet.output import named, result_json
from scoring.sheet.reader import score_sheet
from scoring.sheet.record import HandRecord, map_players

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournament", "0003_translated_choices"), ("scoring", "0005_translated_choices")]
NAMES = ["Ann", "Bo", "Cy", "Ann"]  # two players named Ann: the stored result told them apart as "Ann #id"
HANDS: list[HandRecord] = [
    {"result": "ron", "winner": 0, "loser": 2, "han": 3, "fu": 40, "riichi": [0]},
    {"result": "draw", "tenpai": [1, 3], "riichi": [3]},
]


def migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest() -> list[tuple[str, str]]:
    executor = MigrationExecutor(connection)
    return [node for node in executor.loader.graph.leaf_nodes() if node[0] in ("tournament", "scoring")]


def as_the_old_code_stored_it(scored: Any, labels: list[str]) -> dict[str, Any]:
    """Players by name, and none of the fields the old output did not have."""
    result = named(result_json(scored), labels)
    for hand in result["hands"]:
        for field in ("loser", "riichi", "tenpai", "nagashi", "false_wins", "seats"):
            hand.pop(field, None)
    result.get("next", {}).pop("seat_winds", None)
    return result


def old_database(apps: Any) -> dict[str, Any]:
    """An event as the code before the move wrote it: round 1 seated at a table, and a table with no game."""
    event = apps.get_model("tournament", "Event").objects.create(name="Old", slug="old")
    players = [apps.get_model("tournament", "Player").objects.create(name=name) for name in NAMES]
    labels = [f"Ann #{players[0].pk}", "Bo", "Cy", f"Ann #{players[3].pk}"]
    round_ = apps.get_model("tournament", "Round").objects.create(
        event=event, number=1, starts_at=datetime(2025, 4, 1, 10, tzinfo=UTC)
    )
    table, empty = (apps.get_model("tournament", "Table").objects.create(round=round_, number=n) for n in (1, 2))
    seat = apps.get_model("tournament", "Seat")
    for position, player in enumerate(players):
        seat.objects.create(table=table, player=player, position=position)
        seat.objects.create(table=empty, player=player, position=(position + 1) % 4)
    ids = [p.pk for p in players]
    scored = score_sheet(
        {"ruleset": "wrc-2025", "players": labels, "hands": [map_players(hand, labels.__getitem__) for hand in HANDS]}
    )
    game = apps.get_model("scoring", "Game").objects.create(
        event=event, table=table, result=as_the_old_code_stored_it(scored, labels)
    )
    for position, player in enumerate(players):
        apps.get_model("scoring", "GamePlayer").objects.create(
            game=game, player=player, seat=position, substitute=position == 1
        )
    for index, hand in enumerate(HANDS):
        apps.get_model("scoring", "Hand").objects.create(
            game=game, index=index, record=map_players(hand, ids.__getitem__)
        )
    broken = apps.get_model("scoring", "Game").objects.create(
        event=event, result={"players": labels, "final": [{"player": labels[2], "score": 1}], "hands": []}
    )
    for position, player in enumerate(players):
        apps.get_model("scoring", "GamePlayer").objects.create(game=broken, player=player, seat=position)
    apps.get_model("scoring", "Hand").objects.create(game=broken, index=0, record={"result": "nonsense"})
    return {
        "game": game.pk,
        "table": empty.pk,
        "ids": ids,
        "by_seat": result_json(scored),
        "named": game.result,
        "broken": broken.pk,
    }


@pytest.fixture
def back_to_latest() -> Any:
    """Whatever happens in the test, the database ends at the latest migrations for the tests after it."""
    yield
    migrate(latest())


@pytest.mark.slow  # every migration of two apps, forward, back and forward again
@pytest.mark.usefixtures("back_to_latest")
def test_seats_hands_and_results_come_through_the_move_both_ways():
    data = old_database(migrate(BEFORE))
    apps = migrate(latest())
    game = apps.get_model("tournament", "Game").objects.get(pk=data["game"])
    # Replayed: by seat, and with what the old output lacked (who dealt in, riichi, tenpai, the next winds).
    assert game.result == data["by_seat"]
    assert (game.result["hands"][0]["loser"], game.result["hands"][1]["tenpai"]) == (2, [1, 3])
    assert game.result["next"]["seat_winds"] == ["North", "East", "South", "West"]
    # A game whose hands no longer replay keeps its numbers, names turned into seats.
    broken = apps.get_model("tournament", "Game").objects.get(pk=data["broken"])
    assert broken.result == {"final": [{"player": 2, "score": 1}], "hands": []}
    seats = [(s.player_id, s.position, s.substitute) for s in game.seats.order_by("position")]
    assert seats == [(pid, k, k == 1) for k, pid in enumerate(data["ids"])]
    assert [h.record["result"] for h in apps.get_model("scoring", "Hand").objects.filter(game=game)] == ["ron", "draw"]
    # The table seated without a game kept its seats, in a game of its own.
    kept = apps.get_model("tournament", "Game").objects.get(table_id=data["table"])
    assert [s.player_id for s in kept.seats.order_by("position")] == [data["ids"][k] for k in (3, 0, 1, 2)]
    assert kept.played_on == date(2025, 4, 1)  # its round's day, for a league's date range

    apps = migrate(BEFORE)
    old_game = apps.get_model("scoring", "Game").objects.get(pk=data["game"])
    assert old_game.result == named(data["by_seat"], old_game.result["players"])
    assert sorted(
        apps.get_model("scoring", "GamePlayer")
        .objects.filter(game=old_game)
        .values_list("player_id", "seat", "substitute")
    ) == sorted((pid, k, k == 1) for k, pid in enumerate(data["ids"]))
    assert apps.get_model("tournament", "Seat").objects.filter(table_id=data["table"]).count() == 4

    apps = migrate(latest())
    assert apps.get_model("tournament", "Game").objects.get(pk=data["game"]).result == data["by_seat"]
