"""The hand write's plain statements read and write what the ORM reads and writes.

``scoring.services.plain_rows`` builds instances from rows itself and ``scoring.services.write_reads`` names the
columns and joins: each instance must hold, field by field and type by type, what a query set gives (JSON parsed,
decimals as Decimal, times aware, relations cached), and an inserted or updated row what ``save()`` stores.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Model

from scoring.models import Hand, HandChange, Penalty
from scoring.services import plain_rows
from scoring.services.hands import game_record_hand
from scoring.services.write_reads import game_hands, game_seats, locked_game
from tests.factories import EventFactory, played, registered
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db


def fields(instance: Model) -> dict[str, tuple[type, Any]]:
    """Every concrete field's value with its type (1 == 1.0 == Decimal(1): the type tells them apart)."""
    return {f.attname: (type(v), v) for f in instance._meta.concrete_fields for v in [getattr(instance, f.attname)]}


@pytest.fixture
def game(referee: User) -> Game:
    event = EventFactory.create(
        slug=f"p-{uuid.uuid4().hex[:8]}",
        status=Event.Status.RUNNING,
        referees=[referee],
        ruleset_overrides={"uma": [15, 5, -5, -15]},
    )
    game = played(event, registered(event, "Ann", "Bo", "Cy", "Di"))
    ids = list(game.seats.order_by("position").values_list("player_id", flat=True))
    for loser in ids[1:3]:
        game_record_hand(
            game_id=game.pk,
            record={"result": "ron", "winner": ids[0], "loser": loser, "han": 2, "fu": 30},
            user=referee,
            version=None,
        )
    Penalty.objects.create(game=game, event=event, player_id=ids[1], points=Decimal("-20.5"), reason="chombo")
    return Game.objects.get(pk=game.pk)


def test_the_locked_game_and_its_event_are_the_orm_s(game: Game, referee: User):
    with transaction.atomic():
        read = locked_game(game.pk, referee.pk)
    assert read is not None
    orm = Game.objects.select_related("event").get(pk=game.pk)
    assert fields(read) == fields(orm)
    assert fields(read.event) == fields(orm.event)
    assert isinstance(read.result, dict)
    assert isinstance(read.updated_at, datetime)
    assert read.updated_at.tzinfo
    assert isinstance(read.event.ruleset_overrides, dict)
    # Read with it: the penalty, and what the user is to the event (told to can_score: no query asks it again).
    assert (read.penalised, read.user_organises, read.user_referees) == (True, False, True)  # type: ignore[attr-defined]
    assert read.event.can_score(referee)
    read.save(update_fields=["version"])  # an instance as the ORM makes it: it saves
    assert not read._state.adding


def test_the_flags_say_no_for_a_stranger_and_for_nobody(game: Game):
    stranger = User.objects.create_user("stranger")
    with transaction.atomic():
        read = locked_game(game.pk, stranger.pk)
        nobody = locked_game(game.pk, None)
    assert read is not None
    assert nobody is not None
    assert (read.user_organises, read.user_referees) == (False, False)  # type: ignore[attr-defined]
    assert not read.event.can_score(stranger)
    assert not hasattr(nobody, "user_organises")
    Penalty.objects.filter(game=game).delete()
    with transaction.atomic():
        assert locked_game(game.pk, None).penalised is False  # type: ignore[union-attr]
        assert locked_game(10**9, None) is None


def test_the_seats_and_hands_are_the_orm_s(game: Game):
    seats = game_seats(game)
    orm = list(game.seats.select_related("player").order_by("position"))
    assert [fields(s) for s in seats] == [fields(s) for s in orm]
    assert [fields(s.player) for s in seats] == [fields(s.player) for s in orm]
    hands, head = game_hands(game)
    assert [fields(h) for h in hands] == [fields(h) for h in game.hands.order_by("index")]
    assert head == HandChange.objects.filter(game=game).order_by("-id").values_list("hash", flat=True).first()
    assert head


def test_an_insert_and_an_update_store_what_save_stores(game: Game, referee: User):
    record: dict[str, Any] = {"result": "draw", "tenpai": []}
    plain = plain_rows.insert(Hand(game=game, index=7, record=record, entered_by=referee))
    orm = Hand.objects.create(game=game, index=8, record=record, entered_by=referee)
    assert plain.pk
    assert not plain._state.adding
    stored = {h.index: h for h in Hand.objects.filter(index__in=(7, 8))}
    assert {k: v for k, v in fields(stored[7]).items() if k not in ("id", "index", "entered_at")} == {
        k: v for k, v in fields(stored[8]).items() if k not in ("id", "index", "entered_at")
    }
    assert stored[7].entered_at.tzinfo  # auto_now stamped, as save() stamps it
    stamped = stored[7].entered_at
    plain.record, orm.record = {"result": "draw", "tenpai": [1]}, {"result": "draw", "tenpai": [1]}
    plain.entered_by = orm.entered_by = None
    plain_rows.update(plain, ("record", "entered_by", "entered_at"))
    orm.save(update_fields=["record", "entered_by", "entered_at"])
    again = {h.index: h for h in Hand.objects.filter(index__in=(7, 8))}
    assert (again[7].record, again[7].entered_by_id) == (again[8].record, again[8].entered_by_id)
    assert again[7].entered_at > stamped
    assert again[7].index == 7  # only the fields named were written
