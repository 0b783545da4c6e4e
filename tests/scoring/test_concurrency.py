"""Two referees writing to one game at the same moment: the row lock and the version check, for real.

Each write runs in its own thread with its own database connection, released
together by a barrier. Only PostgreSQL locks a single row (SQLite locks the
whole file, so nothing would overlap there): on any other database the tests
are skipped. CI runs them with ``DATABASE_URL=postgres://…``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction

from scoring.models import Hand, HandChange, Standing, StandingsState
from scoring.services import online
from scoring.services import replay as replay_module
from scoring.services.games import game_create
from scoring.services.hands import VersionConflict, game_change_hand, game_record_hand
from scoring.services.standings import standings_recompute
from scoring.services.standings_store import TOUCHED_MAX
from scoring.sheet.record import HandRecord
from tests.conftest import client_for
from tests.factories import played, registered
from tournament.models import Event, Game, Player

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL row locks (set DATABASE_URL=postgres://…); SQLite locks the whole database file",
    ),
    pytest.mark.django_db(transaction=True),  # the threads' connections must see committed rows
]

Outcome = Game | BaseException


@pytest.fixture
def player_ids(players: list[Player]) -> list[int]:
    return [p.pk for p in players]


@pytest.fixture
def new_game(event: Event, player_ids: list[int]) -> Game:
    """The shared players' game at no table, no hand written yet."""
    return game_create(event=event, player_ids=player_ids)


@pytest.fixture(autouse=True)
def slow_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hold each write a moment between reading the version and saving.

    With the lock in place this only makes the writers queue; without it, both
    would read the same version and the same hands, and the tests below fail
    every time instead of now and then.
    """
    replay = replay_module.replay

    def slow(game: Game, records: Sequence[HandRecord], **options: Any) -> Any:
        time.sleep(0.1)
        return replay(game, records, **options)

    monkeypatch.setattr("scoring.services.hand_write.replay", slow)


def at_once(writes: Sequence[Callable[[], Game]]) -> list[Outcome]:
    """Run each write in its own thread and connection, all released together; each one's game or exception."""
    barrier = threading.Barrier(len(writes))
    outcomes: list[Outcome | None] = [None] * len(writes)

    def run(k: int, write: Callable[[], Game]) -> None:
        try:
            connection.ensure_connection()  # connect first, so the barrier releases writes, not handshakes
            barrier.wait(timeout=10)
            outcomes[k] = write()
        except BaseException as exc:
            outcomes[k] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(k, write)) for k, write in enumerate(writes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a write is still waiting (deadlock?)"
    assert all(outcome is not None for outcome in outcomes)
    return [outcome for outcome in outcomes if outcome is not None]


def ron(winner: int, loser: int, han: int, fu: int = 30) -> HandRecord:
    return {"result": "ron", "winner": winner, "loser": loser, "han": han, "fu": fu}


@pytest.mark.parametrize("action", ["change", "add"])
def test_two_referees_with_the_same_version_one_wins(new_game: Game, player_ids: list[int], action: str):
    ann, bo, cy, di = player_ids
    new_game = game_record_hand(game_id=new_game.pk, record=ron(ann, cy, 3, 40), user=None, version=None)
    v = new_game.version
    changes_before = HandChange.objects.filter(game=new_game).count()
    # Both referees loaded the game at version v and each enters a different hand.
    entries = [ron(bo, di, 2), ron(cy, ann, 4)]
    if action == "change":
        writes = [
            partial(game_change_hand, game_id=new_game.pk, index=0, record=r, user=None, version=v) for r in entries
        ]
        index, hands = 0, 1
    else:
        writes = [partial(game_record_hand, game_id=new_game.pk, record=r, user=None, version=v) for r in entries]
        index, hands = 1, 2

    outcomes = at_once(writes)

    won = [k for k, o in enumerate(outcomes) if isinstance(o, Game)]
    lost = [k for k, o in enumerate(outcomes) if isinstance(o, VersionConflict)]
    assert (len(won), len(lost)) == (1, 1), outcomes
    winner, conflict = outcomes[won[0]], outcomes[lost[0]]
    assert isinstance(winner, Game)
    assert isinstance(conflict, VersionConflict)
    assert conflict.current == v + 1  # the loser is told the version to reload

    stored = Game.objects.get(pk=new_game.pk)
    assert stored.version == v + 1
    assert list(Hand.objects.filter(game=new_game).order_by("index").values_list("index", flat=True)) == list(
        range(hands)
    )
    assert Hand.objects.get(game=new_game, index=index).record == entries[won[0]]
    assert stored.result == winner.result  # the saved replay is the winner's, not a mix
    changes = HandChange.objects.filter(game=new_game)
    assert changes.count() == changes_before + 1
    last = changes.get(version=v + 1)
    assert (last.action, last.index, last.after) == (action, index, entries[won[0]])


def test_hands_added_at_once_without_a_version_all_land_in_order(new_game: Game, player_ids: list[int]):
    ann, bo, cy, di = player_ids
    start = new_game.version
    # Exhaustive draws stay valid in any order and none ends the game (at most 3000 paid per draw);
    # each tenpai list is different so every hand can be found again.
    entries: list[HandRecord] = [
        {"result": "draw", "tenpai": tenpai} for tenpai in ([], [ann], [bo], [cy], [di], [ann, cy])
    ]

    outcomes = at_once(
        [partial(game_record_hand, game_id=new_game.pk, record=r, user=None, version=None) for r in entries]
    )

    assert all(isinstance(o, Game) for o in outcomes), outcomes
    n = len(entries)
    stored = Game.objects.get(pk=new_game.pk)
    assert stored.version == start + n
    assert stored.status == Game.Status.PLAYING
    hands = list(Hand.objects.filter(game=new_game).order_by("index"))
    assert [h.index for h in hands] == list(range(n))
    assert sorted(map(repr, (h.record for h in hands))) == sorted(map(repr, entries))  # each hand once
    assert len(stored.result["hands"]) == n
    changes = list(HandChange.objects.filter(game=new_game, action=HandChange.Action.ADD).order_by("version"))
    # The writes queued on the lock: the k-th to commit added hand k and made version start + k + 1.
    assert [(c.index, c.version) for c in changes] == [(k, start + k + 1) for k in range(n)]
    assert [c.after for c in changes] == [h.record for h in hands]
    assert sorted(o.version for o in outcomes if isinstance(o, Game)) == list(range(start + 1, start + n + 1))


def test_a_hand_write_locks_its_game_not_the_event(new_game: Game, player_ids: list[int]):
    """While another transaction holds the event's row (a standings recompute does), every table still writes."""
    held, release = threading.Event(), threading.Event()

    def hold_the_event() -> None:
        with transaction.atomic():
            Event.objects.select_for_update(no_key=True).get(pk=new_game.event_id)  # the recompute's lock
            held.set()
            release.wait(30)
        connection.close()

    holder = threading.Thread(target=hold_the_event)
    holder.start()
    try:
        assert held.wait(10)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '2s'")  # waiting for the event's row would fail the write
        written = game_record_hand(
            game_id=new_game.pk, record={"result": "draw", "tenpai": [player_ids[0]]}, user=None, version=None
        )
        assert written.hands.count() == 1
    finally:
        release.set()
        holder.join()
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")


def test_one_log_imported_twice_at_once_makes_one_game(event: Event):
    log = (
        Path(__file__).parents[1] / "fixtures" / "online" / "tenhou" / "mjx-2010081709gm-00a9-0000-fe3371ad.xml"
    ).read_bytes()
    results = []

    def one() -> Game:
        result = online.log_import(event=event, source="2010081709gm-00a9-0000-fe3371ad", data=log, create_players=True)
        results.append(result.outcome)
        assert result.game is not None
        return result.game

    outcomes = at_once([one, one, one])
    assert all(isinstance(o, Game) for o in outcomes), outcomes
    assert sorted(results) == sorted([online.Outcome.IMPORTED, online.Outcome.ALREADY, online.Outcome.ALREADY])
    assert Game.objects.filter(event=event).count() == 1
    assert event.registrations.count() == 4


class SlowLimit(int):
    """``TOUCHED_MAX`` as ``touch`` compares it: after reading the event's touched players and before writing them
    back. A moment there makes writers that do not wait for each other's lock on the state row overwrite each
    other's players every time, instead of now and then."""

    def __lt__(self, other: object) -> bool:  # ``len(...) > TOUCHED_MAX`` asks the int subclass first
        time.sleep(0.2)
        return int(self) < other if isinstance(other, int) else NotImplemented


def test_games_ended_at_once_each_count_in_the_standings(event: Event, monkeypatch: pytest.MonkeyPatch):
    """A round's end: every table's referee ends its game in the same moment, each a keyed API write. Each game's
    players are counted in the standings, and the recomputes that follow leave every line with its game."""
    referee = User.objects.create_user("referee")
    event.referees.add(referee)
    people = registered(event, *(f"P{n:02d}" for n in range(24)))
    games = [
        played(
            event,
            people[k : k + 4],
            [{"result": "ron", "winner": people[k].pk, "loser": people[k + 1].pk, "han": 2, "fu": 30}],
        )
        for k in range(0, len(people), 4)
    ]
    standings_recompute(event)
    assert set(Standing.objects.filter(event=event).values_list("games", flat=True)) == {0}
    monkeypatch.setattr("scoring.services.standings_store.TOUCHED_MAX", SlowLimit(TOUCHED_MAX))

    def end(game: Game) -> Any:
        return client_for(referee).patch(
            f"/api/v1/games/{game.pk}/",
            {"end": "time"},
            format="json",
            headers={"If-Match": f'"{game.version}"', "Idempotency-Key": f"end-{game.pk}"},
        )

    outcomes = at_once([partial(end, game) for game in games])

    assert [getattr(o, "status_code", o) for o in outcomes] == [200] * len(games)
    state = StandingsState.objects.get(event=event)
    assert state.changes >= len(games)  # one count per game (a lost one would leave its players out)
    assert state.counted == state.changes  # the recomputes after the commits counted every one
    counted = dict(Standing.objects.filter(event=event).values_list("player_id", "games"))
    assert counted == {p.pk: 1 for p in people}
