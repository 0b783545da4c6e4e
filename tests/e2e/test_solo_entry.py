"""In Chromium at 360 x 740: a referee enters an attempt of the solo race to tenpai (seed 001 "1인 마작").

The draws are stepped with the counter's + and − (each at least 44 px, on the first screen) or typed, the value
tapped as han and fu chips; the attempt is saved as the score sheet writes it, and the standings show its draws
and value (2 han 40 fu for the East dealer: 640 × 6 = 3840, 3900).
"""

from __future__ import annotations

from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.services.games import game_create
from scoring.sheet.record import HandRecord
from tests.e2e.conftest import PHONE, screenshot
from tests.factories import EventFactory, registered
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def solo() -> Game:
    event = EventFactory.create(name="Solo Cup", slug="solo-cup", ruleset_key="solo", status=Event.Status.RUNNING)
    [ann] = registered(event, "Ann")
    User.objects.create_user("referee", password="solo-referee")
    event.referees.add(User.objects.get(username="referee"))
    return game_create(event=event, player_ids=[ann.pk])


def signed_in(page: Any, live_server: Any, game: Game) -> Any:
    page.goto(f"{live_server.url}/games/{game.pk}/entry/")
    page.fill("input[name=username]", "referee")
    page.fill("input[name=password]", "solo-referee")
    page.click("button[type=submit]")
    page.wait_for_url(f"**/games/{game.pk}/entry/")
    return page


def on_first_screen(target: Any) -> dict[str, float]:
    box: dict[str, float] | None = target.bounding_box()
    assert box is not None
    assert box["y"] >= 0, box
    assert box["y"] + box["height"] <= PHONE["height"], box
    return box


def test_an_attempt_is_entered_with_the_counter_at_360(live_server: Any, page: Any, solo: Game):
    page = signed_in(page, live_server, solo)
    draws = page.locator("input[name=draws]")
    more, fewer = page.locator("button[data-step='1']"), page.locator("button[data-step='-1']")
    # The script shows the buttons; each is as big as a thumb and on the first screen.
    for button in (more, fewer):
        expect(button).to_be_visible()
        box = on_first_screen(button)
        assert min(box["width"], box["height"]) >= 44, box
    expect(page.locator("input[name=result][value=tenpai]")).to_be_checked()  # the form starts at Tenpai
    for _ in range(6):
        more.click()
    expect(draws).to_have_value("6")
    fewer.click()
    expect(draws).to_have_value("5")
    fewer.click()
    draws.fill("")  # typed instead: the box takes a number
    draws.type("4")
    expect(draws).to_have_value("4")
    more.click()
    expect(draws).to_have_value("5")
    page.locator("label:has(> input[name=han][value='2'])").click()
    page.locator("label:has(> input[name=fu][value='40'])").click()
    screenshot(page, "solo-entry")
    with page.expect_navigation():
        page.locator("button[value=save]").click()
    solo.refresh_from_db()
    assert [h.record for h in solo.hands.all()] == [{"result": "tenpai", "draws": 5, "han": 2, "fu": 40}]
    expect(page.locator(".solo-now")).to_contain_text("best 5 draws, 3900")
    # − stops at 0 (tenpai as dealt), + at 18 (the wall's draws).
    fewer.click()
    expect(draws).to_have_value("0")
    fewer.click()
    expect(draws).to_have_value("0")
    draws.fill("17")
    more.click()
    more.click()
    expect(draws).to_have_value("18")


def test_the_standings_show_draws_and_value_at_360(live_server: Any, page: Any, solo: Game):
    from scoring.services.hands import game_record_hand
    from scoring.services.standings import standings_recompute

    # A solo attempt may leave its result out: it reached tenpai (docs/solo.md).
    game_record_hand(
        game_id=solo.pk, record=cast(HandRecord, {"draws": 5, "han": 2, "fu": 40}), user=None, version=None
    )
    standings_recompute(solo.event)
    page.goto(f"{live_server.url}/events/solo-cup/standings/")
    row = page.locator("table.standings tbody tr").first
    expect(row).to_contain_text("Ann")
    assert [c.strip() for c in row.locator("td").all_inner_texts()][2:] == ["5", "3900", "1"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing wider than a phone
    screenshot(page, "solo-standings")
