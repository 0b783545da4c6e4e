"""In Chromium at 360 px, in English and Korean: the entry page of a nine-player game, and of a twelve-player one.

Every player's name is read whole: on the riichi chips, the winner's and the discarder's, the tenpai chips. A
name is neither cut (no ellipsis, nothing clipped) nor split inside a word across two lines, and the page never
scrolls sideways. The page stays usable: a ron and rule 0's abortive draws are entered with taps and saved
(docs/nine-or-more-players.md: 3 han 30 fu is 3900 from the discarder; all N in riichi is an abortive draw).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import expect

from scoring.services.games import game_create
from tests.e2e.conftest import PHONE, screenshot
from tests.factories import registered
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = (
    "Aiko Tanaka",
    "Bram de Vries",
    "Chen Wei",
    "Dana Kowalski",
    "Emil Johansson",
    "Fumiko Sato",
    "Gustavo Pereira",
    "Hana Kim",
    "Ingrid Halvorsen",
    "Jun Park",
    "Kofi Mensah",
    "Lena Schmidt",
)
PRESETS = {9: "nine-player", 12: "twelve-player"}
WORDS = {
    "en": {
        "all_riichi": "All 9 in riichi",
        "ons": "8 rons on one discard",
        "wind": "First 9 discards one wind",
        "saved": "Hand 1 added: Ron on Emil Johansson: Bram de Vries 3 han 30 fu",
    },
    "ko": {
        "all_riichi": "9명 전원 리치",
        "ons": "한 버림패에 8명 론",
        "wind": "첫 9장 같은 바람패",
        "saved": "Emil Johansson 방총: Bram de Vries 3판 30부",
    },
}

# For each element: its text is cut (wider or taller than its box, as an ellipsis or a clip does) or a word of it
# is drawn on two lines.
UNREADABLE = """els => els.filter(el => {
  if (el.scrollWidth > el.clientWidth + 1) return true;
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const word of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      if (new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1) return true;
    }
  }
  return false;
}).map(el => el.textContent.trim())"""


def game_of(players: int) -> tuple[Game, dict[str, int]]:
    event = Event.objects.create(
        name=f"{players}-player Open",
        slug=f"open-{players}",
        ruleset_key=PRESETS[players],
        public=True,
        status=Event.Status.RUNNING,
    )
    seated = registered(event, *NAMES[:players])
    return game_create(event=event, player_ids=[p.pk for p in seated]), {p.name: p.pk for p in seated}


def signed_in(browser: Any, live_server: Any, game: Game, language: str) -> Any:
    user = User.objects.create_user(f"ref-{game.pk}-{language}")
    game.event.referees.add(user)
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": language})
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/games/{game.pk}/entry/")
    return page


def chip(page: Any, name: str, value: Any) -> Any:
    return page.locator(f"label:has(> input[name={name}][value='{value}'])")


def assert_readable(
    page: Any, players: int, chips: tuple[str, ...] = (".seat-chips .name", ".chips.players label")
) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    names = page.locator(".seat-chips .name")
    assert names.count() == players
    for selector in chips:
        shown = page.locator(selector).filter(visible=True)
        assert shown.count() >= players, selector
        assert shown.evaluate_all(UNREADABLE) == [], selector
        for box in (shown.nth(i).bounding_box() for i in range(shown.count())):
            assert box is not None
            assert 0 <= box["x"] <= box["x"] + box["width"] <= PHONE["width"]
    # Not shrunk to fit: the names keep the chips' type size.
    assert min(names.evaluate_all("els => els.map(el => parseFloat(getComputedStyle(el).fontSize))")) >= 12


def save(page: Any) -> None:
    with page.expect_navigation():
        page.locator("button[value=save]").click()


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_nine_player_game_is_entered_at_360_px(live_server: Any, browser: Any, language: str):
    words = WORDS[language]
    game, ids = game_of(9)
    page = signed_in(browser, live_server, game, language)
    assert_readable(page, 9)
    for name in NAMES[:9]:
        expect(chip(page, "riichi", ids[name])).to_contain_text(name)
    # A ron: Bram (East, the seat after the dealer's) on Emil (South), 3 han 30 fu.
    chip(page, "winner", ids["Bram de Vries"]).click()
    chip(page, "loser", ids["Emil Johansson"]).click()
    chip(page, "han", 3).click()
    chip(page, "fu", 30).click()
    save(page)
    expect(page.locator("#saved")).to_contain_text(words["saved"])
    game.refresh_from_db()
    deltas = game.result["hands"][-1]["deltas"]
    assert (deltas[1], deltas[4]) == (3900, -3900)  # by seat: Bram is seat 1, Emil seat 4
    screenshot(page, f"entry-nine-player-{language}")
    # Rule 0's abortive draws, in the words of a table of nine; all nine in riichi.
    chip(page, "result", "abort").click()
    reasons = page.locator(".field:has(input[name=reason]) label")
    expect(reasons).to_have_text([words["wind"], words["all_riichi"], words["ons"]])
    chip(page, "reason", "four_riichi").click()
    for name in NAMES[:9]:
        chip(page, "riichi", ids[name]).click()
    assert_readable(page, 9, chips=(".seat-chips .name",))  # the players' chips of a ron or a draw are hidden
    save(page)
    game.refresh_from_db()
    last = game.result["hands"][-1]
    assert (last["result"], last["abortive"], set(last["deltas"])) == ("abort", "four_riichi", {-1000})
    page.context.close()


@pytest.mark.parametrize("language", ["en", "ko"])
def test_twelve_seats_stay_usable(live_server: Any, browser: Any, language: str):
    game, ids = game_of(12)
    page = signed_in(browser, live_server, game, language)
    assert_readable(page, 12)
    chip(page, "result", "draw").click()
    chip(page, "tenpai", ids["Lena Schmidt"]).click()
    assert_readable(page, 12)
    save(page)
    game.refresh_from_db()
    # One tenpai among twelve: 3000 / 11 is no whole share, so each pair's is rounded up to 100: 300 from each.
    assert game.result["hands"][-1]["deltas"] == [-300] * 11 + [3300]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, f"entry-twelve-player-{language}")
    page.context.close()
