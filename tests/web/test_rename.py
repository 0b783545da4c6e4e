"""A player renamed after their games: every page, export and API answer shows the new name at once, no replay.

Stored results name players by seat; names are put in when something is
rendered. So renaming changes no stored result, bumps no version and
replays nothing.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from scoring.models import HandChange
from scoring.services.standings import standings_recompute
from tests.conftest import client_for, rows
from tests.factories import EventFactory, RoundFactory, TableFactory, played, registered
from tournament.models import Event, Game, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished() -> tuple[Event, Game, int]:
    """Ann (East) wins 7700 from Cy, then the clock ends the game: Ann first."""
    event = EventFactory.create(name="Rename Open", slug="rename-open")
    ann, bo, cy, di = registered(event, "Ann", "Bo", "Cy", "Di")
    table = TableFactory.create(round=RoundFactory.create(event=event, number=1), number=1)
    game = played(
        event,
        [ann, bo, cy, di],
        [{"result": "ron", "winner": ann.pk, "loser": cy.pk, "han": 3, "fu": 40, "riichi": [ann.pk]}],
        table=table,
        end=True,
    )
    standings_recompute(event)
    return event, game, ann.pk


def page(url: str) -> str:
    response = Client().get(url)
    assert response.status_code == 200, url
    return response.getvalue().decode()


def test_renaming_a_player_changes_every_page_export_and_api_answer(
    finished: tuple[Event, Game, int], monkeypatch: pytest.MonkeyPatch, settings
):
    settings.PAGE_MICROCACHE_SECONDS = 0  # the shared entry follows a rename at once; this process's second aside
    event, game, ann = finished
    stored, version, changes = game.result, game.version, HandChange.objects.count()

    def no_replay(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a rename must not replay the game")

    for url in (f"/events/{event.slug}/standings/", f"/api/v1/events/{event.slug}/standings/"):
        assert Client().get(url).status_code == 200  # cached with the old name
    monkeypatch.setattr("scoring.services.replay.replay", no_replay)
    monkeypatch.setattr("scoring.services.hand_write.replay", no_replay)
    player = Player.objects.get(pk=ann)
    player.name = "Annika"
    player.save()  # as the admin saves it

    for url in (
        f"/games/{game.pk}/",
        f"/events/{event.slug}/standings/",
        f"/events/{event.slug}/players/{ann}/",
        f"/events/{event.slug}/rounds/1/",
        f"/events/{event.slug}/standings.csv",
        f"/events/{event.slug}/results.csv",
    ):
        text = page(url)
        assert "Annika" in text, url
        assert not re.search(r"\bAnn\b", text), url
    # The game page's hand says who won and who was in riichi with the new name.
    assert "Ron on Cy: Annika 3 han 40 fu; riichi: Annika" in page(f"/games/{game.pk}/")

    api = client_for(None)
    result = api.get(f"/api/v1/games/{game.pk}/").json()
    assert result["players"][0]["name"] == "Annika"
    assert result["result"]["players"] == ["Annika", "Bo", "Cy", "Di"]
    # Ann deals: 3 han 40 fu is 7700 from Cy; her riichi stick comes back to her (docs/rules.md §2).
    assert result["result"]["hands"][0]["deltas"] == {"Annika": 7700, "Bo": 0, "Cy": -7700, "Di": 0}
    assert result["result"]["final"][0]["player"] == "Annika"
    assert rows(api.get(f"/api/v1/events/{event.slug}/standings/"))[0]["player"]["name"] == "Annika"

    game.refresh_from_db()
    assert (game.result, game.version, HandChange.objects.count()) == (stored, version, changes)
