"""In Chromium at 360 x 740: a win given by its tiles, tapped on the entry page's tile picker (no typing).

The taps are counted: after the chips (the winner, the discarder), a 14-tile hand takes at most 16 taps
(opening the picker, the tiles, a mode, a flower or a dora indicator). Every tapped control must be on
the screen, not under the sticky Save bar, and no tap may need a swipe first. What is saved is what the
notation fields would have held typed, and the hand's value is the engine's for those tiles.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from rules.presets import get_preset
from scoring.services.games import game_create
from scoring.tiles.mcr import score_mcr
from scoring.tiles.notation import MCR_FLAGS, RIICHI_FLAGS, WinContext, read_tile_hand
from scoring.tiles.riichi import score_riichi
from tests.e2e.conftest import PHONE, screenshot
from tests.e2e.test_one_thumb import Thumb as OneThumb
from tests.factories import registered
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db(transaction=True)
PICKER_TAPS = 16


class Thumb(OneThumb):
    """The entry page's thumb (tests/e2e/test_one_thumb.py), with the picker's own controls; only opening the picker
    may move the page (its script brings the picker up whole)."""

    def chip(self, name: str, value: Any) -> None:  # taps it, rather than finding it
        self.tap(super().chip(name, value))

    def tile(self, *codes: str) -> None:
        for code in codes:
            self.tap(self.page.locator(f"[data-tile='{code}']"))

    def mode(self, mode: str) -> None:
        self.tap(self.page.locator(f"[data-mode='{mode}']"))

    def open_picker(self) -> None:
        self.tap(self.page.locator("details.tile-box > summary"), navigates=True)
        expect(self.page.locator("[data-tile-picker]")).to_be_visible()
        # The page brings the picker up whole on the box's toggle event, which comes a moment after it opens: the
        # first tile is tapped once it is there (tapped before, it was still below the screen or under the bar).
        self.page.wait_for_function(
            "() => document.querySelector('[data-tile-picker]').getBoundingClientRect().bottom <= window.innerHeight"
        )


def signed_in(page: Any, live_server: Any, game: Game) -> Any:
    User.objects.create_user("referee", password="table-1-referee")
    game.event.referees.add(User.objects.get(username="referee"))
    page.goto(f"{live_server.url}/games/{game.pk}/entry/")
    page.fill("input[name=username]", "referee")
    page.fill("input[name=password]", "table-1-referee")
    page.click("form:has(input[name=password]) button[type=submit]")
    page.wait_for_url(f"**/games/{game.pk}/entry/")
    return page


def save(page: Any) -> None:
    """Save (a tap of its own, on the sticky bar, after the chips and tiles counted)."""
    with page.expect_navigation():
        page.locator("button[value=save]").click()


def saved(game: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    game.refresh_from_db()
    hand = game.hands.order_by("index").last()
    assert hand is not None
    return hand.record, game.result["hands"][-1]


@pytest.fixture
def mcr_game() -> tuple[Game, list[int]]:
    """An MCR game, no hands yet, and its players' ids: Ann, Bo, Cy, Di in seat order (East … North)."""
    event = Event.objects.create(
        name="Tile Cup", slug="tile-cup", ruleset_key="mcr", public=True, status=Event.Status.RUNNING
    )
    ids = [p.pk for p in registered(event, "Ann", "Bo", "Cy", "Di")]
    return game_create(event=event, player_ids=ids), ids


def test_an_mcr_win_in_16_taps_of_tiles_after_the_chips(live_server: Any, page: Any, mcr_game: tuple[Game, list[int]]):
    game, (_ann, bo, _cy, di) = mcr_game
    page = signed_in(page, live_server, game)
    thumb = Thumb(page)
    # Bo (South) wins on Di's discard: a pure straight in characters, 456 of dots, a pair of 2 of bamboo
    # waited on singly; one flower.
    thumb.chip("winner", bo)
    thumb.chip("loser", di)
    chips = thumb.taps
    thumb.open_picker()
    thumb.tile("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "4p", "5p", "6p", "2s", "2s", "flower")
    picker_taps = thumb.taps - chips
    assert picker_taps <= PICKER_TAPS
    expect(page.locator("[data-status]")).to_contain_text("14 of 14 tiles")
    expect(page.locator("[data-status]")).to_contain_text("winning tile: 2 of bamboo")
    # The notation fields hold what a referee would have typed, and the flower count its box.
    assert page.input_value("input[name=tiles_concealed]") == "123456789m456p2s"
    assert page.input_value("input[name=tiles_win]") == "2s"
    assert page.input_value("input[name=flowers]") == "1"
    # A fifth tile of a kind, a fifteenth tile: refused, and said so by the button.
    expect(page.locator("[data-tile='7z']")).to_have_attribute("aria-disabled", "true")
    screenshot(page, "tile-picker-mcr")
    save(page)
    record, hand = saved(game)
    assert record == {
        "result": "ron",
        "winner": bo,
        "loser": di,
        "tiles": {"concealed": "123456789m456p2s", "win": "2s", "flowers": 1},
    }
    tiles = read_tile_hand(record["tiles"], flags=MCR_FLAGS)
    engine = score_mcr(
        tiles,
        ruleset=get_preset("mcr"),
        context=WinContext(seat_wind=2, round_wind=1, dealer=False, tsumo=False, riichi=False),
    )
    # Pure Straight 16, Concealed Hand 2, All Chows 2, Mixed Double Chow 1, Single Wait 1.
    assert engine.fan == 22
    assert hand["fan"] == engine.fan
    assert hand["flowers"] == 1
    # MCR: the discarder pays 8 + 23, the two others 8 each.
    assert hand["deltas"] == [-8, 8 + 8 + 8 + 23, -8, -(8 + 23)]


def test_a_riichi_win_with_a_pon_and_a_dora_indicator(live_server: Any, page: Any, tournament: dict[str, Any]):
    game, ids = tournament["game"], tournament["ids"]
    bo, di = ids["Bo"], ids["Di"]
    page = signed_in(page, live_server, game)
    thumb = Thumb(page)
    thumb.chip("winner", bo)
    thumb.chip("loser", di)
    chips = thumb.taps
    thumb.open_picker()
    # The hand's tiles, the winning 5 of bamboo last; then the pon of red dragons, then the dora indicator.
    thumb.tile("2m", "3m", "4m", "5p", "6p", "7p", "3s", "4s", "8s", "8s", "5s")
    thumb.mode("pon")
    thumb.tile("7z")
    thumb.mode("dora")
    thumb.tile("4p")
    assert thumb.taps - chips <= PICKER_TAPS
    assert page.input_value("input[name=tiles_concealed]") == "234m567p3488s"
    assert page.input_value("input[name=tiles_win]") == "5s"
    assert page.input_value("input[name=tiles_melds]") == "pon 777z"
    assert page.input_value("input[name=tiles_dora]") == "4p"
    # A chi takes no honors; a pon of a kind already three times in the hand cannot be.
    thumb.mode("chi")
    expect(page.locator("[data-tile='1z']")).to_have_attribute("aria-disabled", "true")
    screenshot(page, "tile-picker-riichi")
    save(page)
    record, hand = saved(game)
    assert record["tiles"] == {"concealed": "234m567p3488s", "win": "5s", "melds": ["pon 777z"], "dora": "4p"}
    tiles = read_tile_hand(record["tiles"], flags=RIICHI_FLAGS)
    engine = score_riichi(
        tiles,
        ruleset=game.ruleset(),
        context=WinContext(seat_wind=2, round_wind=1, dealer=False, tsumo=False, riichi=False),
    )
    assert (engine.han, engine.fu) == (2, 30)  # red dragons 1, dora 1; 30 fu
    assert (hand["han"], hand["fu"]) == (engine.han, engine.fu)


def test_the_picker_by_keyboard_alone(live_server: Any, page: Any, tournament: dict[str, Any]):
    page = signed_in(page, live_server, tournament["game"])
    page.focus("details.tile-box > summary")
    page.keyboard.press("Enter")
    expect(page.locator("[data-tile-picker]")).to_be_visible()
    # Tab past the seven modes to the first tile; the arrow keys move along a row and to the row below.
    for _ in range(8):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.tile") == "1m"
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.tile") == "2p"
    page.keyboard.press("Enter")
    assert page.input_value("input[name=tiles_concealed]") == "12m"
    assert page.input_value("input[name=tiles_win]") == "2p"
    # Each tile of the hand is a button named for what it does; taking the winning tile out makes the tile
    # tapped before it the winning one, and the focus stays in the hand.
    winning = page.locator(".hand-group.winning button")
    expect(winning).to_have_accessible_name("Remove 2 of dots (winning tile)")
    winning.focus()
    page.keyboard.press("Enter")
    assert page.input_value("input[name=tiles_concealed]") == "1m"
    assert page.input_value("input[name=tiles_win]") == "2m"
    assert page.evaluate("document.activeElement.closest('[data-hand]') !== null")
    # Typing in the notation moves the picker too.
    page.click("details.tile-notation > summary")
    page.fill("input[name=tiles_concealed]", "111z")
    expect(page.locator("[data-status]")).to_contain_text("4 of 14 tiles")
    expect(page.locator("[data-tile='1z']")).to_have_attribute("aria-disabled", "false")
    page.fill("input[name=tiles_concealed]", "1111z")
    expect(page.locator("[data-status]")).to_contain_text("5 of 14 tiles")
    expect(page.locator("[data-tile='1z']")).to_have_attribute("aria-disabled", "true")  # no fifth East


def test_without_script_the_tiles_are_typed(live_server: Any, browser: Any, tournament: dict[str, Any]):
    game, ids = tournament["game"], tournament["ids"]
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = signed_in(context.new_page(), live_server, game)
    expect(page.locator("[data-tile-picker]")).to_be_hidden()
    page.locator(f"label:has(> input[name=winner][value='{ids['Bo']}'])").click()
    page.locator(f"label:has(> input[name=loser][value='{ids['Di']}'])").click()
    page.click("details.tile-box > summary")
    page.fill("input[name=tiles_concealed]", "234m567p3488s")
    page.fill("input[name=tiles_win]", "5s")
    page.fill("input[name=tiles_melds]", "pon 777z")
    save(page)
    record, hand = saved(game)
    context.close()
    assert record["tiles"] == {"concealed": "234m567p3488s", "win": "5s", "melds": ["pon 777z"]}
    assert (hand["han"], hand["fu"]) == (1, 30)
