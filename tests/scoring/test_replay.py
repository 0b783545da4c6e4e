"""A write replays the whole game, but checks against the schema only the hands it changes."""

from __future__ import annotations

import pytest

from rules.errors import Refusal
from scoring.models import Hand
from scoring.services.hands import game_put_sheet, game_record_hand
from scoring.sheet.reader import read_sheet
from tests.factories import EventFactory, played, registered

pytestmark = pytest.mark.django_db


def test_a_hand_stored_before_a_bound_existed_does_not_block_the_next_ones():
    event = EventFactory.create(slug="old-notes")
    game = played(event, registered(event, "Ann", "Bo", "Cy", "Di"), [{"result": "draw"}])
    Hand.objects.filter(game=game).update(record={"result": "draw", "note": "x" * 600})  # longer than allowed now
    written = game_record_hand(game_id=game.pk, record={"result": "draw"}, user=None, version=None)
    assert written.hands.count() == 2
    with pytest.raises(Refusal) as refused:  # a whole sheet is checked whole
        game_put_sheet(game_id=game.pk, hands=[{"result": "draw", "note": "y" * 600}], user=None, version=None)
    assert [p.field for p in refused.value.problems] == ["hands[0].note"]


def test_the_schema_problems_of_unchecked_hands_keep_their_index():
    sheet = {
        "ruleset": "wrc-2025",
        "players": ["A", "B", "C", "D"],
        "hands": [{"result": "draw"}, {"result": "draw"}, {"result": "ron", "winner": "A", "han": 0}],
    }
    with pytest.raises(Refusal) as refused:
        read_sheet(sheet, checked=2)
    assert [str(p) for p in refused.value.problems] == [
        "hands[2].han: must be at least 1",
        "hands[2].loser: is required for a ron",
    ]
