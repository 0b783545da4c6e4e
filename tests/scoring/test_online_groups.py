"""Logs imported in groups (``online_group``): one insert of each kind of row for a whole group, the same answers
and messages as one log at a time, and a group that fails stored again one log at a time."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.logs.read import read_log
from scoring.models import GameResult, HandChange, StandingsState
from scoring.services import chain
from scoring.services.online import Outcome, logs_import
from scoring.services.online_group import GROUP
from scoring.services.online_players import player_book
from scoring.services.standings_store import TOUCHED_MAX, touch, touch_many
from tests.factories import registered
from tests.scoring.test_online_bulk import INDEX, ONLINE, SAMPLE, batch
from tournament.models import Event, Game, Player, Registration

pytestmark = pytest.mark.django_db


def names_of(path: Path) -> list[str]:
    return read_log(path.read_bytes(), name=path.name).names


def inserts(queries: CaptureQueriesContext, table: str) -> int:
    return sum(1 for q in queries.captured_queries if q["sql"].startswith(f'INSERT INTO "{table}"'))


def known(event: Event, *paths: Path) -> None:
    """The logs' players registered in the event under their online names."""
    for name in {n for path in paths for n in names_of(path)}:
        (player,) = registered(event, name)
        Player.objects.filter(pk=player.pk).update(online_name=name)


def test_a_group_costs_a_few_queries_not_a_few_a_game():
    event = Event.objects.create(slug="group", name="Group", ruleset_key="tenhou")
    logs = batch(SAMPLE)
    with CaptureQueriesContext(connection) as queries:
        results = logs_import(event=event, logs=logs, create_players=True)
    assert [r.outcome for r in results] == [Outcome.IMPORTED] * len(logs)
    assert len(logs) <= GROUP
    # One insert of each kind for the whole group: games, seats, hands, results, stats, history, players.
    for table in ("tournament_game", "tournament_seat", "scoring_hand", "scoring_handchange", "tournament_player"):
        assert inserts(queries, table) == 1, table
    assert len(queries) < 2 * len(logs), f"{len(queries)} queries for {len(logs)} logs"
    assert all(chain.verify_game(r.game).intact for r in results if r.game is not None)


def test_a_group_with_refused_logs_stores_the_others_at_once_and_refuses_them_as_one_by_one():
    event = Event.objects.create(slug="mixed", name="Mixed", ruleset_key="tenhou")
    good, unknown, withdrawn, other = (ONLINE / INDEX[i]["file"] for i in (0, 1, 2, 3))
    known(event, good, withdrawn, other)
    gone = Player.objects.get(online_name=names_of(withdrawn)[1])  # in no other log
    Registration.objects.filter(event=event, player=gone).update(withdrawn=True)
    with CaptureQueriesContext(connection) as queries:
        results = logs_import(event=event, logs=batch([good, unknown, withdrawn, other]))
    assert [r.outcome for r in results] == [Outcome.IMPORTED, Outcome.UNREADABLE, Outcome.UNREADABLE, Outcome.IMPORTED]
    assert [(p.field, p.message) for p in results[1].problems] == [
        (
            "players",
            f"{name!r} is not a player of this event: set a player's online name to it, or import with create_players",
        )
        for name in names_of(unknown)
        if name not in {*names_of(good), *names_of(withdrawn), *names_of(other)}
    ]
    assert [(p.field, p.message) for p in results[2].problems] == [
        ("players[1]", f"player {gone.pk} has withdrawn from this event")
    ]
    assert inserts(queries, "tournament_game") == 1  # the two good logs together, not one by one
    assert Game.objects.filter(event=event).count() == 2
    assert not Game.objects.filter(log_id__in=[results[1].log_id, results[2].log_id]).exists()


def test_a_group_that_clashes_with_another_import_is_stored_one_by_one(monkeypatch: Any):
    """Another import stores one of the group's logs after this one looked: the group keeps nothing, and one by
    one that log finds the other's game and the rest are stored."""
    event = Event.objects.create(slug="clash", name="Clash", ruleset_key="tenhou")
    logs = batch(SAMPLE[:4])
    theirs = read_log(logs[2][1], name=logs[2][0]).log_id

    def meanwhile(*args: Any, **kwargs: Any) -> Any:
        Game.objects.get_or_create(event=event, log_id=theirs)
        return player_book(*args, **kwargs)

    monkeypatch.setattr("scoring.services.online.player_book", meanwhile)
    results = logs_import(event=event, logs=logs, create_players=True)
    assert [r.outcome for r in results] == [Outcome.IMPORTED, Outcome.IMPORTED, Outcome.ALREADY, Outcome.IMPORTED]
    assert results[2].game == Game.objects.get(event=event, log_id=theirs)
    assert Game.objects.filter(event=event).count() == 4
    # Nothing of the failed group is left twice: each stored log has its one history entry and its results.
    assert HandChange.objects.filter(game__event=event).count() == 3
    stored = [r.game for r in results if r.outcome == Outcome.IMPORTED and r.game is not None]
    assert GameResult.objects.filter(event=event).count() == sum(g.seats.count() for g in stored)
    assert all(chain.verify_game(g).intact for g in stored)


@pytest.mark.parametrize(
    "changes",
    [
        [[1, 2], [2, 3], None, [4]],
        [None],
        [list(range(TOUCHED_MAX - 3)), [1, 2, 3, 4, 5], [7]],
        [[5], [6]],
    ],
)
def test_counting_changes_at_once_leaves_the_state_one_by_one_leaves(changes: list[list[int] | None]):
    one, many = (Event.objects.create(slug=s, name=s, ruleset_key="tenhou") for s in ("one", "many"))
    for event in (one, many):
        touch(event.pk, [9])  # a change counted before
    for players in changes:
        touch(one.pk, players)
    touch_many(many.pk, changes)
    fields = ("changes", "touched", "all_from", "counted")
    assert StandingsState.objects.filter(event=one).values(*fields).get() == (
        StandingsState.objects.filter(event=many).values(*fields).get()
    )


def test_the_one_log_path_is_kept_for_a_single_log():
    event = Event.objects.create(slug="single", name="Single", ruleset_key="tenhou")
    (result,) = logs_import(event=event, logs=batch(SAMPLE[:1]), create_players=True)
    assert result.outcome == Outcome.IMPORTED
    assert result.game is not None
    assert chain.verify_game(result.game).intact
    assert re.fullmatch(r"[0-9a-f]{64}", chain.game_head(result.game))
