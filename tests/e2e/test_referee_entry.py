"""In Chromium: a referee signs in, enters hands at the table (one refused), and the public pages follow."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from scoring.services.hands import game_update
from scoring.services.standings import standings_recompute
from tests.e2e.conftest import PHONE, screenshot
from tests.e2e.test_pages_in_browser import names_in_order

pytestmark = pytest.mark.django_db(transaction=True)


def tap(page: Any, name: str, value: Any) -> None:
    """A tap on a chip: the label a thumb presses, with its radio button or checkbox inside."""
    page.click(f"label:has(> input[name={name}][value='{value}'])")


def fill_ron(page: Any, winner: int, loser: int, han: int, fu: int) -> None:
    tap(page, "result", "ron")
    tap(page, "winner", winner)  # players are chips labelled "East · Ann"
    tap(page, "loser", loser)
    tap(page, "han", han)  # han and fu are chips too: no keyboard
    tap(page, "fu", fu)
    assert page.is_checked(f"input[name=han][value='{han}']")
    assert page.is_checked(f"input[name=fu][value='{fu}']")


def test_referee_enters_hands_and_the_standings_follow(live_server: Any, page: Any, tournament: dict[str, Any]):
    event, game, ids = tournament["event"], tournament["game"], tournament["ids"]
    referee = User.objects.create_user("referee", password="table-1-referee")
    event.referees.add(referee)
    page.goto(f"{live_server.url}/games/{game.pk}/entry/")
    assert "/accounts/login/" in page.url  # signing in first
    page.fill("input[name=username]", "referee")
    page.fill("input[name=password]", "table-1-referee")
    page.click("button[type=submit]")
    page.wait_for_url(f"**/games/{game.pk}/entry/")

    # Refused: 1 han 20 fu cannot be a ron. The engine's message stands next to the fu field; nothing is saved.
    fill_ron(page, ids["Cy"], ids["Ann"], 1, 20)
    page.click("button[value=save]")
    assert "20 fu is only possible with 2 han or more" in page.locator(".invalid").inner_text()
    assert game.hands.count() == 1
    screenshot(page, "entry-refused")

    # Preview first: Cy's 4 han 30 fu is 8000 (kiriage mangan, wrc-2025), honba 1 after Ann's dealer win: +300.
    fill_ron(page, ids["Cy"], ids["Ann"], 4, 30)
    page.click("button[value=preview]")
    preview = page.locator(".preview").inner_text()
    assert "+8300" in preview
    assert "-8300" in preview
    assert game.hands.count() == 1  # a preview saves nothing
    page.click("button[value=save]")
    page.wait_for_selector(".notice.success")
    # The phone opens on the message and the next hand's form, not far down on the oldest hands.
    saved = page.locator("#saved").bounding_box()
    assert saved is not None
    assert 0 <= saved["y"] < PHONE["height"]
    fill_ron(page, ids["Cy"], ids["Bo"], 3, 40)  # 5200 more for Cy (he deals next, so 7700 and honba 0)
    page.click("button[value=save]")
    page.wait_for_selector(".notice.success")
    assert game.hands.count() == 3
    screenshot(page, "entry")

    # The organiser stops the game by the clock: Cy (22300 + 8300 + 5200 = 35800) now leads the table.
    game_update(game_id=game.pk, user=None, version=None, ended_by_time=True)
    standings_recompute(event)
    page.goto(f"{live_server.url}/events/{event.slug}/standings/")
    assert names_in_order(page)[0] == "Cy"
    page.goto(f"{live_server.url}/events/{event.slug}/players/{ids['Cy']}/")
    assert page.locator("figure.chart svg circle").count() == 1  # one point for his one finished game
    screenshot(page, "player")
