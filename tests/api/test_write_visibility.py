"""Who may write a hand to a game, as the locking read decides it: the event's organisers and referees write
(their event is shown to them, private or not); anyone else finds a hidden event's game missing (404) and a
shown one's forbidden (403), and writes nothing either way."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User

from scoring.models import Hand
from tests.conftest import client_for
from tests.factories import EventFactory, played, registered
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db


def game_of(*, public: bool, organiser: User, referee: User) -> Game:
    event = EventFactory.create(
        slug=f"v-{uuid.uuid4().hex[:8]}",
        status=Event.Status.RUNNING,
        public=public,
        organisers=[organiser],
        referees=[referee],
    )
    return played(event, registered(event, "Ann", "Bo", "Cy", "Di"))


def post_hand(user: User, game: Game) -> Any:
    ids = list(game.seats.order_by("position").values_list("player_id", flat=True))
    record = {"result": "ron", "winner": ids[0], "loser": ids[1], "han": 1, "fu": 30}
    return client_for(user).post(
        f"/api/v1/games/{game.pk}/hands/", record, format="json", headers={"Idempotency-Key": uuid.uuid4().hex}
    )


@pytest.mark.parametrize("public", [True, False], ids=["public", "private"])
def test_the_events_scorers_write_and_a_stranger_is_told_404_or_403(public: bool):
    organiser, referee, stranger = (User.objects.create_user(f"{name}-{uuid.uuid4().hex[:6]}") for name in "ors")
    game = game_of(public=public, organiser=organiser, referee=referee)
    refused = post_hand(stranger, game)
    assert refused.status_code == (403 if public else 404), refused.content[:300]
    assert not Hand.objects.filter(game=game).exists()
    assert post_hand(referee, game).status_code == 201
    assert post_hand(organiser, game).status_code == 201
    assert Hand.objects.filter(game=game).count() == 2
