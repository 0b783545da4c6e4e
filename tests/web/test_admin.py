"""The admin: hands entered and corrected inline under their game, through the same replayed write as the API."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from scoring.models import HandChange
from scoring.services.games import game_create
from scoring.services.hands import game_record_hand
from tournament.models import Event, Game, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn_game(event: Event, players: list[Player]) -> Game:
    """The shared players' game at no table: one hand, a draw with Ann tenpai."""
    ids = [p.pk for p in players]
    created = game_create(event=event, player_ids=ids)
    return game_record_hand(game_id=created.pk, record={"result": "draw", "tenpai": [ids[0]]}, user=None, version=None)


def post_data(
    game: Game, hands: list[Any], *, version: int | None = None, delete: tuple[int, ...] = ()
) -> dict[str, Any]:
    """The change form as the browser sends it: existing hands first, then new ones."""
    existing = list(game.hands.order_by("index"))
    seats = list(game.seats.order_by("position"))
    data: dict[str, Any] = {
        "played_on": game.played_on.isoformat(),
        "start": json.dumps(game.start),
        "seen_version": game.version if version is None else version,
        "seats-TOTAL_FORMS": len(seats),
        "seats-INITIAL_FORMS": len(seats),
        "seats-MIN_NUM_FORMS": 0,
        "seats-MAX_NUM_FORMS": 1000,
        "hands-TOTAL_FORMS": len(hands),
        "hands-INITIAL_FORMS": len(existing),
        "hands-MIN_NUM_FORMS": 0,
        "hands-MAX_NUM_FORMS": 1000,
    }
    for k, seat in enumerate(seats):
        data[f"seats-{k}-id"], data[f"seats-{k}-game"] = seat.pk, game.pk
    for k, record in enumerate(hands):
        data[f"hands-{k}-record"] = json.dumps(record)
        data[f"hands-{k}-game"] = game.pk
        if k < len(existing):
            data[f"hands-{k}-id"] = existing[k].pk
        if k in delete:
            data[f"hands-{k}-DELETE"] = "on"
    return data


def test_admin_adds_and_corrects_hands_through_the_replay(admin_client: Client, drawn_game: Game):
    ann, bo, cy, _di = drawn_game.seats.order_by("position").values_list("player_id", flat=True)
    url = f"/admin/tournament/game/{drawn_game.pk}/change/"
    assert admin_client.get(url).status_code == 200
    hands = [{"result": "draw", "tenpai": [ann]}, {"result": "ron", "winner": bo, "loser": cy, "han": 2, "fu": 30}]
    response = admin_client.post(url, post_data(drawn_game, hands))
    assert response.status_code == 302, response.content.decode()[:2000]
    drawn_game.refresh_from_db()
    assert [h.record for h in drawn_game.hands.order_by("index")] == hands
    # E1 draw with Ann (dealer) tenpai: dealer keeps, honba 1; Bo's 2000 ron plus 300 for the honba.
    assert drawn_game.result["hands"][1]["deltas"] == [0, 2300, -2300, 0]  # stored by seat: Ann, Bo, Cy, Di
    assert HandChange.objects.filter(game=drawn_game, action="sheet").count() == 1


def test_admin_refuses_an_invalid_hand_and_saves_nothing(admin_client: Client, drawn_game: Game):
    ann, bo, *_ = drawn_game.seats.order_by("position").values_list("player_id", flat=True)
    url = f"/admin/tournament/game/{drawn_game.pk}/change/"
    bad = [{"result": "draw", "tenpai": [ann]}, {"result": "ron", "winner": bo, "loser": bo, "han": 2, "fu": 30}]
    response = admin_client.post(url, post_data(drawn_game, bad))
    assert response.status_code == 200
    errors = re.findall(r'errorlist nonform"><li>([^<]*)<', response.content.decode())
    assert errors == ["hands[1].winner: Bo cannot win on their own discard (also the loser)"]
    assert (Game.objects.get(pk=drawn_game.pk).version, drawn_game.hands.count()) == (drawn_game.version, 1)


def test_admin_does_not_overwrite_a_newer_version(admin_client: Client, drawn_game: Game):
    ann = drawn_game.seats.get(position=0).player_id
    url = f"/admin/tournament/game/{drawn_game.pk}/change/"
    stale = post_data(drawn_game, [{"result": "draw", "tenpai": []}], version=drawn_game.version - 1)
    response = admin_client.post(url, stale)
    assert response.status_code == 200
    assert "someone changed this game since you opened it" in response.content.decode()
    assert drawn_game.hands.get().record == {"result": "draw", "tenpai": [ann]}
    deleted = admin_client.post(url, post_data(drawn_game, [{"result": "draw", "tenpai": [ann]}], delete=(0,)))
    assert deleted.status_code == 302
    assert drawn_game.hands.count() == 0
