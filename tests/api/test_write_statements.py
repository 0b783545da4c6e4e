"""A hand write costs at most 10 statements on PostgreSQL, through the API and through the entry page.

Counted: every statement the request sends but the transaction's own (BEGIN, COMMIT, and the SAVEPOINT and
RELEASE the test's transaction turns them into) and the sign-in's (the browser's session and its user: a
token or a session costs them whatever the write). The game has hands already, as a game being played does
(the first hand of a game reads the history's head on its own: one statement more). One claim of an
Idempotency-Key in ``PURGE_EVERY`` also purges the keys past their day (a DELETE, whichever write's id it falls
on): that housekeeping is shared by every write and tested on its own (tests/api/test_idempotency.py), so it is
kept out of the count here.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from scoring.models import GameResult, Hand
from scoring.services.hands import game_record_hand
from scoring.sheet.record import HandRecord
from tests.factories import EventFactory, played, registered
from tournament.models import Event, Game

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the budget is PostgreSQL's"),
]

BUDGET = 10
NOT_THE_WRITE = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK")
SIGN_IN = ('FROM "django_session"', 'FROM "auth_user" WHERE "auth_user"."id" =')


@pytest.fixture(autouse=True)
def _no_purge_in_the_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("scoring.edge.keys.PURGE_EVERY", 10**12)


def game_with_hands(referee: User) -> Game:
    event = EventFactory.create(slug=f"w-{uuid.uuid4().hex[:8]}", status=Event.Status.RUNNING, referees=[referee])
    game = played(event, registered(event, "Ann", "Bo", "Cy", "Di"))
    for n in range(3):
        game_record_hand(game_id=game.pk, record=cast(HandRecord, ron(game, n)), user=referee, version=None)
    game.refresh_from_db()
    return game


def ron(game: Game, n: int = 0) -> dict[str, Any]:
    """The dealer (Ann) wins from the next player in turn: the game goes on, two scores move."""
    ids = list(game.seats.order_by("position").values_list("player_id", flat=True))
    return {"result": "ron", "winner": ids[0], "loser": ids[1 + n % 3], "han": 1, "fu": 30}


def write_statements(send: Callable[[], Any]) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        response = send()
    assert response.status_code in (200, 201, 302), response.content[:400]
    return [
        q["sql"]
        for q in captured.captured_queries
        if not q["sql"].startswith(NOT_THE_WRITE) and not any(part in q["sql"] for part in SIGN_IN)
    ]


def api(referee: User) -> APIClient:
    client = APIClient()
    client.force_login(referee)  # the session, as the page's: the same sign-in statements, left out of the count
    return client


def page(referee: User) -> Client:
    client = Client()
    client.force_login(referee)
    return client


def by_api(referee: User, game: Game, write: str) -> Callable[[], Any]:
    """The write, ready to send (the client signed in and the hand built before the count)."""
    client, url, version = api(referee), f"/api/v1/games/{game.pk}", {"If-Match": f'"{game.version}"'}
    key, added, changed = {"Idempotency-Key": uuid.uuid4().hex}, ron(game, 3), ron(game, 2)
    sends: dict[str, Callable[[], Any]] = {
        "add": lambda: client.post(f"{url}/hands/", added, format="json", headers={**key, **version}),
        "change": lambda: client.put(f"{url}/hands/1/", changed, format="json", headers=version),
        "delete": lambda: client.delete(f"{url}/hands/2/", headers=version),
        "game update": lambda: client.patch(f"{url}/", {"end": "time"}, format="json", headers=version),
    }
    return sends[write]


def by_page(referee: User, game: Game, write: str) -> Callable[[], Any]:
    client, url = page(referee), f"/games/{game.pk}/entry/"
    form, hand = {"version": game.version, "key": uuid.uuid4().hex}, ron(game, 2)
    sends: dict[str, Callable[[], Any]] = {
        "add": lambda: client.post(url, {"action": "save", **form, **hand}),
        "change": lambda: client.post(url, {"action": "save", "index": 1, **form, **hand}),
        "delete": lambda: client.post(url, {"action": "delete", "index": 2, "version": game.version}),
    }
    return sends[write]


@pytest.mark.parametrize("write", ["add", "change", "delete", "game update"])
def test_a_write_through_the_api_costs_at_most_ten_statements(referee: User, write: str):
    game = game_with_hands(referee)
    statements = write_statements(by_api(referee, game, write))
    assert Game.objects.get(pk=game.pk).version == game.version + 1  # it wrote
    assert len(statements) <= BUDGET, "\n".join(s[:120] for s in statements)


@pytest.mark.parametrize("write", ["add", "change", "delete"])
def test_a_write_through_the_entry_page_costs_at_most_ten_statements(referee: User, write: str):
    game = game_with_hands(referee)
    statements = write_statements(by_page(referee, game, write))
    assert Game.objects.get(pk=game.pk).version == game.version + 1
    assert len(statements) <= BUDGET, "\n".join(s[:120] for s in statements)


def row_versions(game: Game) -> dict[int, tuple[int, str]]:
    """Each GameResult row's id and PostgreSQL's ``xmin``: the transaction that last wrote it (a row rewritten, even
    with the same values, has a new one)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT player_id, id, xmin::text FROM scoring_gameresult WHERE game_id = %s", [game.pk])
        return {player: (pk, xmin) for player, pk, xmin in cursor.fetchall()}


def row_values(game: Game) -> dict[int, tuple[Any, ...]]:
    return {row[0]: row[1:] for row in GameResult.objects.filter(game=game).values_list("player_id", *RESULT_FIELDS)}


RESULT_FIELDS = ("finished", "substitute", "rank", "score", "points", "penalty", "table_points", "draws")


def test_a_write_reads_the_game_row_once_and_rewrites_only_the_result_rows_that_moved(referee: User):
    game = game_with_hands(referee)
    rows, values = row_versions(game), row_values(game)
    # The dealer wins again from the last in the table: two scores move, nobody's place does.
    hand, client = ron(game, 2), api(referee)
    headers = {"Idempotency-Key": uuid.uuid4().hex, "If-Match": f'"{game.version}"'}
    statements = write_statements(
        lambda: client.post(f"/api/v1/games/{game.pk}/hands/", hand, format="json", headers=headers)
    )
    assert sum('FROM "tournament_game"' in s for s in statements) == 1
    assert sum("FOR UPDATE" in s for s in statements) == 1
    assert not [s for s in statements if s.startswith("DELETE")]
    (upsert,) = [s for s in statements if s.startswith('INSERT INTO "scoring_gameresult"')]
    assert "ON CONFLICT" in upsert  # updated in place
    after, moved = row_versions(game), row_values(game)
    # The same rows (none deleted and inserted again), and only the two whose numbers moved were rewritten.
    assert {player: pk for player, (pk, _) in after.items()} == {player: pk for player, (pk, _) in rows.items()}
    rewritten = {player for player in rows if rows[player][1] != after[player][1]}
    assert rewritten == {player for player in values if values[player] != moved[player]}
    assert rewritten == {hand["winner"], hand["loser"]}
    assert Hand.objects.filter(game=game).count() == 4


def test_a_write_that_changes_no_result_rewrites_neither_the_json_nor_the_rows(referee: User):
    """Marking no substitute where there is none: a new version in the history, the result as it was."""
    game = game_with_hands(referee)
    client, version, rows = api(referee), {"If-Match": f'"{game.version}"'}, row_versions(game)
    statements = write_statements(
        lambda: client.patch(f"/api/v1/games/{game.pk}/", {"substitutes": []}, format="json", headers=version)
    )
    assert Game.objects.get(pk=game.pk).version == game.version + 1
    (update,) = [s for s in statements if s.startswith('UPDATE "tournament_game"')]
    assert '"result"' not in update
    assert not [s for s in statements if s.startswith("DELETE")]
    assert row_versions(game) == rows  # the database compared every row with its new values: none rewritten


def test_ending_a_game_locks_the_standings_state_by_its_last_statements(referee: User):
    """Every write to the event's finished games waits for the lock on the event's StandingsState row until its
    holder commits: a keyed end of a game takes it last (read, then written back), after its history, its answer
    and its key."""
    game = game_with_hands(referee)
    client = api(referee)
    headers = {"If-Match": f'"{game.version}"', "Idempotency-Key": uuid.uuid4().hex}
    statements = write_statements(
        lambda: client.patch(f"/api/v1/games/{game.pk}/", {"end": "time"}, format="json", headers=headers)
    )
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    state = [n for n, s in enumerate(statements) if '"scoring_standingsstate"' in s]
    assert "FOR UPDATE" in statements[state[0]]
    assert state == [len(statements) - 2, len(statements) - 1], "\n".join(s[:120] for s in statements)
    assert statements[-1].startswith('UPDATE "scoring_standingsstate"')
