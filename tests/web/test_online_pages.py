"""Imported online games on the public pages: where they come from, and whether they match their log."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from scoring.services.online import Outcome, log_import
from scoring.services.standings import standings_recompute
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db
GAME = Path(__file__).parents[1] / "fixtures" / "online" / "tenhou" / "mjx-2010081709gm-00a9-0000-fe3371ad.xml"


def text(response: Any) -> str:
    assert response.status_code == 200
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_an_imported_game_says_where_it_was_played_and_that_it_matches(event: Event):
    game = log_import(event=event, source=GAME.name, data=GAME.read_bytes(), create_players=True).game
    assert game is not None
    standings_recompute(event)
    event_page = text(Client().get(f"/events/{event.slug}/"))
    assert "Tenhou 2010081709gm-00a9-0000-fe3371ad" in event_page
    game_page = text(Client().get(f"/games/{game.pk}/"))
    assert "Imported from Tenhou, 2010081709gm-00a9-0000-fe3371ad , scored by the platform's rules" in game_page
    assert "matches the log" in game_page
    player = game.seats.get(position=0).player
    assert f"/games/{game.pk}/" in Client().get(f"/events/{event.slug}/players/{player.pk}/").content.decode()


def test_a_game_kept_although_it_differs_shows_where(event: Event):
    data = GAME.read_bytes()  # its first result recorded 100 higher for seat 0 and 100 lower for seat 1
    match = re.search(rb'<AGARI [^>]*?sc="([^"]*)"', data)
    assert match is not None
    values = [int(v) for v in match[1].split(b",")]
    values[1] += 1
    values[3] -= 1
    data = data[: match.start(1)] + b",".join(str(v).encode() for v in values) + data[match.end(1) :]
    kept = log_import(event=event, source="upload", data=data, create_players=True, keep_mismatches=True)
    assert kept.outcome == Outcome.KEPT
    assert kept.game is not None
    assert kept.game.log_check == Game.LogCheck.DIFFERS
    page = text(Client().get(f"/games/{kept.game.pk}/"))
    assert "differs from the log" in page
    assert "hand 1 (E1-0): the log records " in page
    assert "sha256:" in text(Client().get(f"/events/{event.slug}/"))
