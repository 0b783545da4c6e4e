"""The history as a hash chain: every kind of write seals onto it, and a change made behind the application's back
(raw SQL, as an admin with database access could) is named by ``verify_history``."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from scoring.models import Hand, HandChange
from scoring.services import chain
from scoring.services.hands import game_change_hand, game_delete_hand, game_record_hand, game_update
from scoring.services.online import log_import
from tests.factories import EventFactory, played, registered
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db
LOG = Path(__file__).parents[1] / "fixtures" / "online" / "tenhou" / "mjx-2010081709gm-00a9-0000-fe3371ad.xml"
JSON_CAST = "::jsonb" if connection.vendor == "postgresql" else ""


def ron(winner: int, loser: int, han: int = 2, fu: int = 30) -> dict[str, Any]:
    return {"result": "ron", "winner": winner, "loser": loser, "han": han, "fu": fu}


@pytest.fixture
def event() -> Event:
    return EventFactory.create(slug="spring")


@pytest.fixture
def game(event: Event) -> Game:
    """A game written through every kind of change: a sheet, adds, a change, a delete, the clock."""
    referee = User.objects.create_user("ref")
    players = registered(event, "Ann", "Bo", "Cy", "Di")
    a, b, c, d = (p.pk for p in players)
    game = played(event, players, [ron(a, c)])
    game = game_record_hand(game_id=game.pk, record=ron(b, d), user=referee, version=None)
    game = game_record_hand(game_id=game.pk, record={"result": "draw", "tenpai": [a]}, user=referee, version=None)
    game = game_change_hand(game_id=game.pk, index=1, record=ron(b, d, 3), user=referee, version=None)
    game = game_delete_hand(game_id=game.pk, index=2, user=None, version=None)
    return game_update(game_id=game.pk, user=referee, version=None, ended_by_time=True)


def verify(*args: str, capsys: Any) -> tuple[int, str, str]:
    try:
        call_command("verify_history", *args)
        code = 0
    except SystemExit as exited:
        code = int(exited.code or 0)
    except CommandError as refused:
        code = refused.returncode
    out, err = capsys.readouterr()
    return code, out, err


def raw(sql: str, *params: Any) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_every_write_seals_onto_the_chain_and_it_holds(game: Game, event: Event, capsys: Any):
    entries = list(HandChange.objects.filter(game=game).order_by("id"))
    assert [e.action for e in entries] == ["sheet", "add", "add", "change", "delete", "game"]
    assert [e.previous for e in entries] == ["", *(e.hash for e in entries[:-1])]
    assert entries[1].author == "ref"
    report = chain.verify_game(game)
    assert (report.intact, report.entries, report.head) == (True, 6, entries[-1].hash)
    imported = log_import(event=event, source=LOG.name, data=LOG.read_bytes(), create_players=True)
    assert imported.game is not None
    assert chain.verify_game(imported.game).intact
    code, out, _ = verify("spring", capsys=capsys)
    assert code == 0
    assert "all 2 game histories intact (7 entries)" in out
    assert f"spring: head {chain.event_head(event)[:chain.SHORT]}" in out


def test_a_hand_changed_in_the_database_is_named(game: Game, capsys: Any):
    hand = Hand.objects.get(game=game, index=1)
    raw(f"UPDATE scoring_hand SET record = %s{JSON_CAST} WHERE id = %s",
        json.dumps({**hand.record, "han": 4}), hand.pk)
    code, _, err = verify(capsys=capsys)
    assert code == 1
    assert f"spring: game {game.pk}: hand 2 as stored differs from what the history says it is" in err


def test_a_history_entry_changed_in_the_database_is_named(game: Game, capsys: Any):
    entry = HandChange.objects.filter(game=game).order_by("id")[3]
    raw(f"UPDATE scoring_handchange SET after = %s{JSON_CAST} WHERE id = %s",
        json.dumps({**(entry.after or {}), "han": 5}), entry.pk)
    code, _, err = verify("spring", capsys=capsys)
    assert code == 1
    assert f"game {game.pk}: history entry 4 (change hand 2, version " in err
    assert "does not match its hash: its content was changed" in err


def test_a_history_entry_deleted_in_the_database_is_named(game: Game, capsys: Any):
    entry = HandChange.objects.filter(game=game).order_by("id")[2]
    raw("DELETE FROM scoring_handchange WHERE id = %s", entry.pk)
    code, _, err = verify(capsys=capsys)
    assert code == 1
    assert f"game {game.pk}: history entry 3 (change hand 2, " in err
    assert "does not follow the entry before it" in err


def test_the_event_head_moves_with_any_game(game: Game, event: Event):
    before = chain.event_head(event)
    game_update(game_id=game.pk, user=None, version=None, ended_by_time=False)
    assert chain.event_head(event) != before


def test_the_migration_seals_as_the_code_does():
    migration = importlib.import_module("scoring.migrations.0010_history_chain")
    content = chain.entry_content(index=0, action="add", before=None, after={"result": "draw", "tenpai": [1, 2]},
                                  author="ré", at="2026-11-23T06:00:00.123456+00:00", version=2)
    assert migration._seal(content, "ab" * 32) == chain.seal(content, "ab" * 32)


def test_an_unknown_event_exits_2(capsys: Any):
    assert verify("nope", capsys=capsys)[0] == 2
