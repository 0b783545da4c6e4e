"""The entry page's tile picker, on the server side: its buttons are the 34 tiles in the notation the form
posts (and MCR's flower), named in the reader's language; the page still carries the notation fields."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from scoring.services.games import game_create
from scoring.tiles.notation import parse_tiles
from tests.factories import registered
from tests.markup import has
from tournament.models import Event, Game
from web.tile_picker import meld_modes, picker_text, tile_rows

ALL_TILES = [f"{n}{suit}" for suit in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]


def test_the_rows_are_the_34_tiles_in_notation_and_mcr_adds_a_flower():
    riichi = [t.code for row in tile_rows(mcr=False) for t in row.tiles]
    assert riichi == ALL_TILES
    assert [str(tile) for tile in parse_tiles("".join(riichi), "tiles")] == ALL_TILES  # each one a tile
    assert [t.code for row in tile_rows(mcr=True) for t in row.tiles] == [*ALL_TILES, "flower"]
    assert [len(row.tiles) for row in tile_rows(mcr=False)] == [9, 9, 9, 7]  # nine a row fit 360 px


def test_the_tiles_are_named_in_the_readers_language():
    names = {t.code: (t.face, t.mark, t.name) for row in tile_rows(mcr=True) for t in row.tiles}
    assert names["3m"] == ("3", "m", "3 of characters")
    assert names["7z"] == ("中", "Red", "Red dragon")
    with translation.override("ko"):
        names = {t.code: (t.face, t.mark, t.name) for row in tile_rows(mcr=True) for t in row.tiles}
        modes = dict(meld_modes(mcr=False))
        text = picker_text()
    assert names["3m"] == ("3", "만", "3만")
    assert names["5p"][2] == "5통"
    assert names["1z"] == ("東", "동", "동풍")
    assert names["flower"][2] == "꽃패"
    assert (modes["pon"], modes["ura"]) == ("퐁", "뒷도라")
    assert text["remove"] == "%s 빼기"


def test_mcr_takes_no_dora_modes():
    assert [mode for mode, _label in meld_modes(mcr=True)] == ["hand", "chi", "pon", "kan", "ankan"]
    assert [mode for mode, _label in meld_modes(mcr=False)][-2:] == ["dora", "ura"]


@pytest.mark.django_db
@pytest.mark.parametrize(("ruleset", "flower", "dora"), [("wrc-2025", False, True), ("mcr", True, False)])
def test_the_entry_page_carries_the_picker_and_the_notation_fields(ruleset: str, flower: bool, dora: bool):
    event = Event.objects.create(
        name="Tile Open", slug="tile-open", ruleset_key=ruleset, public=True, status=Event.Status.RUNNING
    )
    players = registered(event, "Ann", "Bo", "Cy", "Di")
    game: Game = game_create(event=event, player_ids=[p.pk for p in players])
    user = User.objects.create_user("ref", password="x")
    event.referees.add(user)
    client = Client()
    client.force_login(user)
    html = client.get(f"/games/{game.pk}/entry/").content.decode()
    tiles = re.findall(r'data-tile="([^"]+)"', html)
    assert tiles == ALL_TILES + (["flower"] if flower else [])
    assert ('data-mode="dora"' in html) is dora
    # Hidden until its script shows it: without the script the notation is typed, as before.
    # The engine's numbers for the script: MCR's 8 flowers, 14 tiles to a hand, 4 copies of a tile.
    assert has(
        html, '<div class="tile-picker" data-tile-picker data-flowers="8" data-hand-tiles="14" data-copies="4" hidden>'
    )
    for name in ("tiles_concealed", "tiles_win", "tiles_melds"):
        assert f'name="{name}"' in html
    assert ('name="tiles_dora"' in html) is dora
    assert '<script src="/static/site/tiles.js" defer></script>' in html
    assert 'id="tile-text" type="application/json"' in html
