"""A creating POST with an Idempotency-Key is done once: a retry gets the first answer, another body a 422."""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from scoring.models import Hand, IdempotentRequest
from tests.conftest import client_for
from tests.factories import EventFactory, played, registered
from tournament.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(referee: User) -> Game:
    event = EventFactory.create(slug="retry", referees=[referee])
    return played(event, registered(event, "Ann", "Bo", "Cy", "Di"))


def add(referee: User, game: Game, key: str, **record: Any) -> Any:
    return client_for(referee).post(
        f"/api/v1/games/{game.pk}/hands/", {"result": "draw", **record}, format="json", headers={"Idempotency-Key": key}
    )


def test_a_retried_add_gets_the_first_answer_and_adds_nothing(referee: User, game: Game):
    first = add(referee, game, "k-1")
    again = add(referee, game, "k-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert (again["ETag"], again["Idempotent-Replayed"]) == (first["ETag"], "true")
    assert Hand.objects.filter(game=game).count() == 1
    assert add(referee, game, "k-2").status_code == 201  # a new key is a new hand
    assert Hand.objects.filter(game=game).count() == 2


def test_the_same_key_for_another_body_is_refused_and_adds_nothing(referee: User, game: Game):
    ann = game.seats.get(position=0).player_id
    assert add(referee, game, "k-1").status_code == 201
    refused = add(referee, game, "k-1", tenpai=[ann])
    assert refused.status_code == 422
    assert refused.json()["errors"] == [
        {
            "field": "Idempotency-Key",
            "message": "was already used for another request; send a new key with each new request",
            "code": "",
        }
    ]
    assert Hand.objects.filter(game=game).count() == 1


def test_the_same_key_with_another_query_string_is_refused(referee: User, game: Game):
    """The query string is part of what was asked (the log import reads its options there)."""
    assert add(referee, game, "k-1").status_code == 201
    refused = client_for(referee).post(
        f"/api/v1/games/{game.pk}/hands/?create_players=true",
        {"result": "draw"},
        format="json",
        headers={"Idempotency-Key": "k-1"},
    )
    assert refused.status_code == 422
    assert Hand.objects.filter(game=game).count() == 1
    # The same parameters in another order ask the same.
    two = f"/api/v1/games/{game.pk}/hands/?a=1&b=2"
    sent = [
        client_for(referee).post(address, {"result": "draw"}, format="json", headers={"Idempotency-Key": "k-2"})
        for address in (two, two.replace("a=1&b=2", "b=2&a=1"))
    ]
    assert [r.status_code for r in sent] == [201, 201]
    assert sent[1]["Idempotent-Replayed"] == "true"


def test_a_refused_request_leaves_its_key_free_for_the_corrected_one(referee: User, game: Game):
    ann = game.seats.get(position=0).player_id
    refused = add(referee, game, "k-1", result="ron", winner=ann, loser=ann, han=1, fu=30)
    assert refused.status_code == 400
    assert not IdempotentRequest.objects.exists()
    assert add(referee, game, "k-1").status_code == 201


def test_a_key_is_kept_for_a_day(referee: User, game: Game):
    assert add(referee, game, "k-1").status_code == 201
    IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(hours=25))
    assert add(referee, game, "k-1").status_code == 201
    assert Hand.objects.filter(game=game).count() == 2


@pytest.mark.parametrize("key", ["", "x" * 256, "naïve", "tab\there"])
def test_a_key_must_be_short_printable_ascii(referee: User, game: Game, key: str):
    response = add(referee, game, key)
    assert (response.status_code, response.json()["errors"][0]["field"]) == (400, "Idempotency-Key")
    assert not Hand.objects.exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="overlapping requests need PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
def test_two_retries_at_once_add_one_hand(referee: User, game: Game):
    answers: list[Any] = []
    barrier = threading.Barrier(3)

    def send() -> None:
        try:
            barrier.wait()
            answers.append(add(referee, game, "same-key"))
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert len({json.dumps(a.json(), sort_keys=True) for a in answers}) == 1  # PostgreSQL keeps keys unordered
    assert Hand.objects.filter(game=game).count() == 1


def test_a_key_keeps_a_reference_to_the_game_not_its_body(referee: User, game: Game):
    first = add(referee, game, "k-1")
    row = IdempotentRequest.objects.get()
    assert (row.status, row.resource, row.version, row.body) == (201, f"game:{game.pk}", first.json()["version"], None)


def test_a_replay_after_the_game_moved_on_answers_the_game_as_it_is_now(referee: User, game: Game):
    """The first answer's body is not kept: the key answers the game now, with its version now, and says which
    version the first answer showed. The hand is not added again."""
    first = add(referee, game, "k-1")
    later = add(referee, game, "k-2")
    again = add(referee, game, "k-1")
    assert again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert (again["ETag"], again.json()) == (later["ETag"], later.json())
    assert again["Idempotent-Version"] == str(first.json()["version"])
    assert "Idempotent-Version" not in add(referee, game, "k-2")  # at its own version: the first answer itself
    assert Hand.objects.filter(game=game).count() == 2


def test_the_periodic_task_purges_the_keys_past_their_day_only(referee: User, game: Game):
    from config.celery import app
    from scoring.tasks import purge_idempotency_keys

    assert add(referee, game, "old").status_code == 201
    assert add(referee, game, "new").status_code == 201
    IdempotentRequest.objects.filter(key="old").update(created_at=timezone.now() - timedelta(hours=25))
    assert purge_idempotency_keys.delay().get() == 1
    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["new"]
    (scheduled,) = [s for s in app.conf.beat_schedule.values() if s["task"] == purge_idempotency_keys.name]
    assert scheduled["schedule"] <= 24 * 3600


def test_writes_purge_the_keys_past_their_day_without_the_scheduler(
    referee: User, game: Game, monkeypatch: pytest.MonkeyPatch
):
    """One claim in PURGE_EVERY purges: here every one, so the second key's claim purges the first's day-old row."""
    assert add(referee, game, "old").status_code == 201
    IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(hours=25))
    monkeypatch.setattr("scoring.edge.keys.PURGE_EVERY", 1)
    assert add(referee, game, "new").status_code == 201
    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["new"]


def test_the_migration_turns_kept_game_answers_into_references_and_drops_the_expired(referee: User, game: Game):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("scoring.migrations.0021_idempotency_reference")
    answer = {"id": game.pk, "version": 7, "players": [], "hands_entered": 3, "status": "playing"}
    IdempotentRequest.objects.create(user=referee, key="game", fingerprint="f", status=201, body=answer)
    IdempotentRequest.objects.create(user=referee, key="page", fingerprint="f", status=302, body={"number": 2})
    IdempotentRequest.objects.create(user=referee, key="old", fingerprint="f", status=201, body=answer)
    IdempotentRequest.objects.filter(key="old").update(created_at=timezone.now() - timedelta(hours=25))
    migration.to_references(apps, None)
    kept = {row.key: (row.resource, row.version, row.body) for row in IdempotentRequest.objects.all()}
    assert kept == {"game": (f"game:{game.pk}", 7, None), "page": ("", None, {"number": 2})}
