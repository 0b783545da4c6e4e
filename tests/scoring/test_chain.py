"""The history as a hash chain: every kind of write seals onto it, and a change made behind the application's back
(raw SQL, as an admin with database access could) is named by ``verify_history``."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client

from scoring.models import Confirmation, Hand, HandChange, Penalty
from scoring.services import chain
from scoring.services.hands import game_change_hand, game_delete_hand, game_record_hand, game_update
from scoring.services.online import log_import
from scoring.services.standings import standings_recompute
from scoring.sheet.record import HandRecord
from tests.factories import EventFactory, played
from tournament.models import Event, Game, Player

pytestmark = pytest.mark.django_db
LOG = Path(__file__).parents[1] / "fixtures" / "online" / "tenhou" / "mjx-2010081709gm-00a9-0000-fe3371ad.xml"
JSON_CAST = "::jsonb" if connection.vendor == "postgresql" else ""


def ron(winner: int, loser: int, han: int = 2, fu: int = 30) -> HandRecord:
    return {"result": "ron", "winner": winner, "loser": loser, "han": han, "fu": fu}


@pytest.fixture
def edited_game(event: Event, players: list[Player], referee: User) -> Game:
    """A game written through every kind of change: a sheet, adds, a change, a delete, the clock."""
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


def test_every_write_seals_onto_the_chain_and_it_holds(edited_game: Game, event: Event, capsys: Any):
    entries = list(HandChange.objects.filter(game=edited_game).order_by("id"))
    assert [e.action for e in entries] == ["sheet", "add", "add", "change", "delete", "game"]
    assert [e.previous for e in entries] == ["", *(e.hash for e in entries[:-1])]
    assert entries[1].author == "ref"
    report = chain.verify_game(edited_game)
    assert (report.intact, report.entries, report.head) == (True, 6, entries[-1].hash)
    imported = log_import(event=event, source=LOG.name, data=LOG.read_bytes(), create_players=True)
    assert imported.game is not None
    assert chain.verify_game(imported.game).intact
    code, out, _ = verify("spring", capsys=capsys)
    assert code == 0
    assert "all 2 game histories intact and sealed (7 entries)" in out
    assert f"spring: head {chain.event_head(event)[: chain.SHORT]}" in out


def test_a_hand_changed_in_the_database_is_named(edited_game: Game, capsys: Any):
    hand = Hand.objects.get(game=edited_game, index=1)
    raw(f"UPDATE scoring_hand SET record = %s{JSON_CAST} WHERE id = %s", json.dumps({**hand.record, "han": 4}), hand.pk)
    code, _, err = verify(capsys=capsys)
    assert code == 1
    assert f"spring: game {edited_game.pk}: hand 2 as stored differs from what the history says it is" in err


def test_a_history_entry_changed_in_the_database_is_named(edited_game: Game, capsys: Any):
    entry = HandChange.objects.filter(game=edited_game).order_by("id")[3]
    raw(
        f"UPDATE scoring_handchange SET after = %s{JSON_CAST} WHERE id = %s",
        json.dumps({**(entry.after or {}), "han": 5}),
        entry.pk,
    )
    code, _, err = verify("spring", capsys=capsys)
    assert code == 1
    assert f"game {edited_game.pk}: history entry 4 (change hand 2, version " in err
    assert "does not match its seal: its content was changed" in err


def test_a_history_entry_deleted_in_the_database_is_named(edited_game: Game, capsys: Any):
    entry = HandChange.objects.filter(game=edited_game).order_by("id")[2]
    raw("DELETE FROM scoring_handchange WHERE id = %s", entry.pk)
    code, _, err = verify(capsys=capsys)
    assert code == 1
    assert f"game {edited_game.pk}: history entry 3 (change hand 2, " in err
    assert "does not follow the entry before it" in err


def test_the_event_head_moves_with_any_game(edited_game: Game, event: Event):
    before = chain.event_head(event)
    game_update(game_id=edited_game.pk, user=None, version=None, ended_by_time=False)
    assert chain.event_head(event) != before


def test_the_migration_seals_as_the_code_checks_unkeyed_entries():
    migration = importlib.import_module("scoring.migrations.0010_history_chain")
    content = chain.entry_content(
        index=0,
        action="add",
        before=None,
        after={"result": "draw", "tenpai": [1, 2]},
        author="ré",
        at="2026-11-23T06:00:00.123456+00:00",
        version=2,
    )
    assert migration._seal(content, "ab" * 32) == chain.unkeyed_seal(content, "ab" * 32)


def test_an_unknown_event_exits_2(capsys: Any):
    assert verify("nope", capsys=capsys)[0] == 2


# --- tampering by whoever holds the database (issue 25, item 3) ---------------------------------------------
# Each case rewrites the database as an admin could, recomputing every hash it can without the history key.


def _rehash_plain(game: Game, *, key: str = "") -> None:
    """Every entry's hash recomputed in order, as anyone who read chain.py could, under no key (or a made-up
    id): what a database admin does after rewriting an entry."""
    previous = ""
    for entry in HandChange.objects.filter(game=game).order_by("id"):
        digest = chain.unkeyed_seal(chain.content_of(entry), previous)
        raw(
            "UPDATE scoring_handchange SET previous = %s, hash = %s, key = %s WHERE id = %s",
            previous,
            digest,
            key,
            entry.pk,
        )
        previous = digest


def _rewrite_hand_2(game: Game) -> None:
    entry = HandChange.objects.filter(game=game, action="change").get()
    raw(
        f"UPDATE scoring_handchange SET after = %s{JSON_CAST} WHERE id = %s",
        json.dumps({**(entry.after or {}), "han": 5}),
        entry.pk,
    )
    hand = Hand.objects.get(game=game, index=1)
    raw(f"UPDATE scoring_hand SET record = %s{JSON_CAST} WHERE id = %s", json.dumps({**hand.record, "han": 5}), hand.pk)


def _forge_appended(game: Game, *, key: str) -> None:
    last = HandChange.objects.filter(game=game).order_by("-id").first()
    assert last is not None
    forged = HandChange(
        game=game,
        action="game",
        before=None,
        after={"end": None},
        author="ref",
        at=last.at,
        version=last.version,
        previous=last.hash,
        key=key,
    )
    forged.hash = chain.unkeyed_seal(chain.content_of(forged), last.hash)
    forged.save()


def _truncate_tail(game: Game) -> None:
    last = HandChange.objects.filter(game=game).order_by("-id").first()
    assert last is not None
    raw("DELETE FROM scoring_handchange WHERE id = %s", last.pk)


def _real_key(game: Game) -> str:
    return HandChange.objects.filter(game=game).values_list("key", flat=True)[0]


def _rewritten_and_rehashed(game: Game) -> None:
    _rewrite_hand_2(game)
    _rehash_plain(game)


def _rewritten_and_rehashed_under_the_real_key_id(game: Game) -> None:
    _rewrite_hand_2(game)
    _rehash_plain(game, key=_real_key(game))


def _rewritten_and_rehashed_under_another_key_id(game: Game) -> None:
    _rewrite_hand_2(game)
    _rehash_plain(game, key="0123456789abcdef")


def _swap_seats(game: Game) -> None:
    east, south = game.seats.order_by("position")[:2]
    raw("UPDATE tournament_seat SET position = 7 WHERE id = %s", east.pk)
    raw("UPDATE tournament_seat SET position = 0 WHERE id = %s", south.pk)
    raw("UPDATE tournament_seat SET position = 1 WHERE id = %s", east.pk)


TAMPER: dict[str, tuple[Callable[[Game], object], str]] = {
    "a hand and its entry rewritten, every hash recomputed": (
        _rewritten_and_rehashed,
        "its history carries no keyed seal",
    ),
    "the same, every entry given the real key's id": (
        _rewritten_and_rehashed_under_the_real_key_id,
        "does not match its seal",
    ),
    "the same, under a key id this server does not hold": (
        _rewritten_and_rehashed_under_another_key_id,
        "is sealed with the key 0123456789abcdef, which this server does not hold",
    ),
    "an entry appended with a plain hash": (
        lambda g: _forge_appended(g, key=""),
        "has no key after entries that have one",
    ),
    "an entry appended under the real key's id": (
        lambda g: _forge_appended(g, key=_real_key(g)),
        "does not match its seal",
    ),
    "the last entry removed": (_truncate_tail, "entries were removed from its end"),
    # What decides the result besides the hands (issue 25: outside the chain, undetected before).
    "two players' seats swapped": (_swap_seats, "the game's players differ from what its history says"),
    "a seat made a substitute's": (
        lambda g: raw("UPDATE tournament_seat SET substitute = %s WHERE game_id = %s AND position = 0", True, g.pk),
        "the game's substitutes differ",
    ),
    "the start scores changed": (
        lambda g: raw(
            f"UPDATE tournament_game SET start = %s{JSON_CAST} WHERE id = %s",
            json.dumps({"scores": [35000, 25000, 25000, 15000]}),
            g.pk,
        ),
        "the game's start differ",
    ),
    "the end by time taken back": (
        lambda g: raw("UPDATE tournament_game SET ended_by_time = %s WHERE id = %s", False, g.pk),
        "the game's end differ",
    ),
    "the event's rules changed": (
        lambda g: raw(
            f"UPDATE tournament_event SET ruleset_overrides = %s{JSON_CAST} WHERE id = %s",
            json.dumps({"uma": [30, 10, -10, -30]}),
            g.event_id,
        ),
        "the game's overrides differ",
    ),
    "a penalty added to the game": (
        lambda g: Penalty.objects.create(
            event_id=g.event_id, game=g, player_id=g.seats.get(position=0).player_id, points=-20, reason="forged"
        ),
        "the game's penalties differ",
    ),
    "the day it was played changed (a league counts its dates)": (
        lambda g: raw("UPDATE tournament_game SET played_on = %s WHERE id = %s", "1999-01-01", g.pk),
        "the game's played_on differ",
    ),
    "a confirmation added": (
        lambda g: Confirmation.objects.create(
            game=g, player_id=g.seats.get(position=0).player_id, verdict="confirmed", version=g.version
        ),
        "the confirmations of player(s) [",
    ),
}


@pytest.mark.parametrize("case", list(TAMPER))
def test_a_database_admin_cannot_rewrite_the_history(edited_game: Game, capsys: Any, case: str):
    tamper, named = TAMPER[case]
    tamper(edited_game)
    code, _, err = verify("spring", capsys=capsys)
    assert code == 1
    assert f"spring: game {edited_game.pk}: " in err
    assert named in err


def test_a_history_written_before_keys_is_unsealed_until_sealed(edited_game: Game, capsys: Any):
    """A chain of plain hashes (as written before this version) holds, but is reported until --seal seals it;
    the heads players kept from it are still found after the seal."""
    _rehash_plain(edited_game)
    kept = chain.game_head(edited_game)
    code, _, err = verify("spring", capsys=capsys)
    assert code == 1
    assert "its history carries no keyed seal: it was written before seals were keyed" in err
    code, out, _ = verify("spring", "--seal", capsys=capsys)
    assert code == 0
    assert "all 1 game histories intact and sealed (7 entries)" in out
    assert HandChange.objects.filter(game=edited_game).order_by("-id").values_list("action", flat=True)[0] == "seal"
    code, out, _ = verify("--head", f"{edited_game.pk}:{kept[:12]}", capsys=capsys)
    assert (code, out.strip()) == (
        0,
        f"game {edited_game.pk}: the head is history entry 6, with 1 entry(ies) after it; the history holds",
    )


def test_a_kept_head_is_found_or_named_missing(edited_game: Game, capsys: Any, settings: Any):
    kept = chain.game_head(edited_game)
    assert chain.kept_head(edited_game, kept[:12]) == chain.KeptHead(True, 6, 0)
    game_update(game_id=edited_game.pk, user=None, version=None, ended_by_time=False)
    assert chain.kept_head(edited_game, kept[:12].upper()) == chain.KeptHead(True, 6, 1)
    assert chain.kept_head(edited_game, kept[:7]).found is False  # too few digits to mean one entry
    # Both clock entries cut off and the game's version put back: the chain left holds, only the kept head shows it.
    _truncate_tail(edited_game)
    _truncate_tail(edited_game)
    raw("UPDATE tournament_game SET version = version - 2 WHERE id = %s", edited_game.pk)
    edited_game.refresh_from_db()
    assert chain.verify_game(edited_game).intact
    code, _, err = verify("--head", f"{edited_game.pk}:{kept[:12]}", capsys=capsys)
    assert code == 1
    assert f"game {edited_game.pk}: the head {kept[:12]!r} is not in its history" in err


def test_a_new_history_key_seals_new_entries_and_the_old_one_still_verifies(edited_game: Game, settings: Any):
    old = HandChange.objects.filter(game=edited_game).first()
    assert old is not None
    assert len(old.key) == 16
    settings.HISTORY_KEY = "a-new-history-key-" + "x7Q" * 12
    edited_game = game_update(game_id=edited_game.pk, user=None, version=None, ended_by_time=False)
    newest = HandChange.objects.filter(game=edited_game).order_by("-id").first()
    assert newest is not None
    assert newest.key not in ("", old.key)
    assert chain.verify_game(edited_game).intact  # the old entries' key (derived from SECRET_KEY) is still held
    # SECRET_KEY rotated without keeping the old one: what its derived key sealed can no longer be checked.
    original, settings.SECRET_KEY = settings.SECRET_KEY, "another-secret-key-" + "k9" * 20
    report = chain.verify_game(edited_game)
    assert not report.intact
    assert f"sealed with the key {old.key}, which this server does not hold" in str(report.problem)
    settings.SECRET_KEY_FALLBACKS = [original]
    assert chain.verify_game(edited_game).intact


DERIVED = {
    "a result's points": (
        "UPDATE scoring_gameresult SET points = points + 10 WHERE game_id = %s AND rank = 1",
        "'s result: points ",
    ),
    "a result's rank": ("UPDATE scoring_gameresult SET rank = 4 WHERE game_id = %s AND rank = 1", "'s result: rank "),
    "a result removed": (
        "DELETE FROM scoring_gameresult WHERE game_id = %s AND rank = 1",
        "'s result: missing from the stored rows",
    ),
    "the stored result": (
        f"UPDATE tournament_game SET result = %s{JSON_CAST} WHERE id = %s",
        "its stored result differs from its hands replayed",
    ),
    "a player's statistics": (
        "UPDATE scoring_gamestats SET wins = wins + 1 WHERE game_id = %s AND place = 1",
        "'s statistics: wins ",
    ),
    "a statistics row removed": (
        "DELETE FROM scoring_gamestats WHERE game_id = %s AND place = 2",
        "'s statistics: missing from the stored rows",
    ),
    "a standing's points": (
        "UPDATE scoring_standing SET points = points + 50 WHERE event_id = (SELECT event_id FROM "
        "tournament_game WHERE id = %s) AND rank = 2",
        "'s standing: points ",
    ),
    "a standing's rank": (
        "UPDATE scoring_standing SET rank = 1 WHERE event_id = (SELECT event_id FROM "
        "tournament_game WHERE id = %s) AND rank = 4",
        "'s standing: rank 1 stored, 4 recomputed",
    ),
}


@pytest.mark.parametrize("case", list(DERIVED))
def test_results_and_standings_changed_in_the_database_are_named(edited_game: Game, capsys: Any, case: str):
    """The derived rows are recomputed from the sealed history and compared, value by value."""
    assert standings_recompute(edited_game.event) == 4  # the test's transaction never commits: no recompute after it
    assert verify("spring", capsys=capsys)[0] == 0
    sql, named = DERIVED[case]
    if "result = %s" in sql:
        raw(sql, json.dumps({**edited_game.result, "deposits_left": 3}), edited_game.pk)
    else:
        raw(sql, edited_game.pk)
    code, _, err = verify("spring", capsys=capsys)
    assert code == 1
    assert named in err


def test_a_result_row_moved_to_another_event_is_named(edited_game: Game, capsys: Any):
    other = EventFactory.create(slug="other")
    raw("UPDATE scoring_gameresult SET event_id = %s WHERE game_id = %s AND rank = 1", other.pk, edited_game.pk)
    code, _, err = verify("spring", capsys=capsys)
    assert code == 1
    assert "'s result: event_id " in err


def test_a_history_that_does_not_make_a_game_is_named_not_a_crash(edited_game: Game, capsys: Any):
    entry = HandChange.objects.filter(game=edited_game, action="change").get()
    raw('UPDATE scoring_handchange SET "index" = 7 WHERE id = %s', entry.pk)
    code, _, err = verify("spring", capsys=capsys)
    assert code == 1
    assert f"game {edited_game.pk}: " in err
    page = Client().get(f"/games/{edited_game.pk}/", {"seal": "0123456789ab"})  # the player's check: no 500 either
    assert page.status_code == 200
    assert "history does not hold" in page.content.decode()


def test_seal_is_refused_once_keys_have_sealed_anything_and_games_are_sealed_by_name(edited_game: Game, capsys: Any):
    """A chain without a key, next to keyed ones, may be a forgery: --seal does not vouch for it wholesale."""
    registered_ids = Player.objects.filter(registrations__event=edited_game.event).values_list("pk", flat=True)
    keyed = played(
        edited_game.event,
        list(Player.objects.filter(registrations__event=edited_game.event)),
        [ron(*registered_ids[:2])],
    )
    _rehash_plain(edited_game)
    with pytest.raises(CommandError, match="--seal is the upgrade's step"):
        call_command("verify_history", "--seal")
    code, out, _ = verify("spring", "--seal-game", str(edited_game.pk), capsys=capsys)
    assert code == 0
    assert "intact and sealed" in out
    assert chain.verify_game(keyed).intact


def test_a_game_moved_to_another_event_is_named_there(edited_game: Game, capsys: Any):
    other = EventFactory.create(slug="other")
    raw("UPDATE tournament_game SET event_id = %s WHERE id = %s", other.pk, edited_game.pk)
    code, _, err = verify(capsys=capsys)
    assert code == 1
    assert f"other: game {edited_game.pk}: the game's event differ from what its history says" in err
