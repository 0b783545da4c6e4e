"""In Chromium: public pages read on a phone, standings that update themselves, the player's chart."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.services.games import game_create
from scoring.services.hands import game_record_hand, game_update
from scoring.services.standings import standings_recompute
from scoring.sheet.record import HandRecord
from tests.e2e.conftest import screenshot
from tournament.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def finish(game: Game, record: HandRecord) -> None:
    """A hand, then the clock ends the game (so it counts in the standings)."""
    game_record_hand(game_id=game.pk, user=None, version=None, record=record)
    game_update(game_id=game.pk, user=None, version=None, ended_by_time=True)
    standings_recompute(game.event)


def names_in_order(page: Any) -> list[str]:
    return [cell.strip() for cell in page.locator("table.standings tbody td:nth-child(2)").all_inner_texts()]


def test_standings_update_by_themselves_and_the_player_page_draws_the_chart(
    live_server: Any, page: Any, tournament: dict[str, Any]
):
    event, game, ids = tournament["event"], tournament["game"], tournament["ids"]
    finish(game, {"result": "draw", "tenpai": [ids["Ann"]]})
    page.goto(f"{live_server.url}/events/{event.slug}/standings/")
    assert names_in_order(page) == ["Ann", "Bo", "Di", "Cy"]
    assert page.locator("abbr", has_text="=2").count() == 2  # Bo and Di share second place
    # Nothing fits wider than the phone: the page itself never scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # A second game while the page is open: Cy deals and tsumos a yakuman (16000 all: 78000, +63), which takes
    # him from −23.7 to +39.3, above Ann's +25.7 − 21: first, without a reload.
    game2 = game_create(event=event, player_ids=[ids["Cy"], ids["Di"], ids["Ann"], ids["Bo"]])
    finish(game2, {"result": "tsumo", "winner": ids["Cy"], "yakuman": 1})
    page.locator("#standings").evaluate("box => box.dataset.every = '5'")
    page.wait_for_function(
        "() => document.querySelector('table.standings tbody td:nth-child(2)').innerText.trim() === 'Cy'",
        timeout=30_000,
    )
    assert names_in_order(page)[0] == "Cy"
    screenshot(page, "standings")

    page.goto(f"{live_server.url}/events/{event.slug}/players/{ids['Ann']}/")
    chart = page.locator("figure.chart svg")
    assert chart.is_visible()
    assert chart.locator("circle").count() == 2  # one point per finished game
    page.goto(f"{live_server.url}/events/{event.slug}/rounds/1/")
    page.fill("#q", "di")
    assert page.locator(".table-card:not(.hidden)").count() == 1
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert "Ron on Cy" in page.locator("table.hands").inner_text()
    screenshot(page, "game")


def test_korean_pages(live_server: Any, page: Any, tournament: dict[str, Any]):
    page.goto(f"{live_server.url}/events/{tournament['event'].slug}/")
    page.click("header.top summary")  # on a phone the language is in the header's menu
    with page.expect_navigation():
        page.select_option("#language", "ko")  # submits the language form: the same page comes back in Korean
    assert "순위표" in page.locator("body").inner_text()
