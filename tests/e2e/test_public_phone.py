"""In Chromium at 360x740: the public game, player, round and event pages never scroll sideways (issue 13)."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.services.hands import game_record_hand
from scoring.services.standings import standings_recompute
from scoring.sheet.record import HandRecord
from tests.e2e.conftest import screenshot
from tests.factories import EventFactory, RoundFactory, TableFactory, played, registered
from tournament.models import Event

pytestmark = pytest.mark.django_db(transaction=True)

# Elements inside the page that scroll sideways on their own (a table in a scrolling box counts as much as the
# page itself: the reader still has to swipe to see the numbers).
INNER_SCROLL = """() => [...document.querySelectorAll('main *')].filter(e => {
  const style = getComputedStyle(e);
  return ['auto', 'scroll'].includes(style.overflowX) && e.scrollWidth > e.clientWidth + 1 && e.offsetParent;
}).map(e => e.tagName + '.' + e.className)"""


@pytest.fixture
def tournament() -> dict[str, Any]:
    """Round 1 played (a long name among the players), round 2 under way: two hands entered."""
    event = EventFactory.create(name="Phone Open", slug="phone-open", status=Event.Status.RUNNING)
    players = registered(event, "Ann", "Bartholomew Featherstonehaugh", "Cy", "Di")
    ann, bart, cy, di = (p.pk for p in players)
    table = TableFactory.create(round=RoundFactory.create(event=event, number=1), number=1)
    finished = played(
        event,
        players,
        [
            {"result": "ron", "winner": bart, "loser": cy, "han": 4, "fu": 30, "riichi": [bart, di]},
            {"result": "tsumo", "winner": di, "han": 2, "fu": 30},
            {"result": "draw", "tenpai": [ann, cy], "riichi": [cy]},
        ],
        table=table,
        end=True,
    )
    playing = played(
        event,
        [players[2], players[3], players[0], players[1]],
        table=TableFactory.create(round=RoundFactory.create(event=event, number=2), number=1),
    )
    records: list[HandRecord] = [
        {"result": "ron", "winner": ann, "loser": bart, "han": 3, "fu": 40},
        {"result": "draw", "tenpai": [cy], "riichi": [cy]},
    ]
    for record in records:
        game_record_hand(game_id=playing.pk, user=None, version=None, record=record)
    played(event, players, [{"result": "tsumo", "winner": ann, "han": 1, "fu": 30}], end=True)  # at no table
    standings_recompute(event)
    return {"event": event, "finished": finished, "playing": playing, "bart": bart}


def assert_fits(page: Any) -> None:
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    assert page.evaluate(INNER_SCROLL) == []


def test_public_pages_fit_a_phone(live_server: Any, page: Any, tournament: dict[str, Any]):
    event, slug = tournament["event"], tournament["event"].slug
    page.goto(f"{live_server.url}/games/{tournament['finished'].pk}/")
    assert_fits(page)
    cards = page.locator("ol.hand-cards > li")
    assert cards.count() == 3
    assert cards.first.locator("dl.changes dd").first.is_visible()
    assert not page.locator("table.hands").is_visible()  # the laptop's table, hidden on the phone
    # Bartholomew: 30000 + 8000 (4 han 30 fu, rounded up to mangan in wrc-2025) + both sticks - his own - 1000 of
    # Di's tsumo as dealer - 1500 noten = 36500; the stick left at the end goes to first place: 37500 -> +7.5 + 15.
    assert page.locator("table.final td.points").first.inner_text() == "+22.5"
    screenshot(page, "phone-game")

    page.goto(f"{live_server.url}/events/{slug}/players/{tournament['bart']}/")
    assert_fits(page)
    for label in page.locator("figure.chart svg text").all():
        assert label.evaluate("t => parseFloat(getComputedStyle(t).fontSize)") >= 11
        assert label.bounding_box()["height"] >= 11  # as drawn, not shrunk with the picture
    total = page.locator("table.player-games tbody tr td:last-child").first
    box = total.bounding_box()
    assert box["x"] + box["width"] <= 360  # the total is on the screen
    screenshot(page, "phone-player")

    page.goto(f"{live_server.url}/events/{slug}/rounds/2/")
    assert_fits(page)
    link = page.locator(".table-card a.game-link")
    assert link.bounding_box()["height"] >= 44
    # Cy deals first; Ann (West) wins: Di deals E2; a draw with Di noten: Ann deals E3, one honba, Cy's stick.
    assert "East 3 · Ann deals · honba 1 · 1 stick" in link.inner_text()
    link.click()
    page.wait_for_url(f"**/games/{tournament['playing'].pk}/")
    screenshot(page, "phone-round-game")

    page.goto(f"{live_server.url}/events/{slug}/")
    assert_fits(page)
    for card in page.locator(".card-links > li > a:first-child").all():
        assert card.bounding_box()["height"] >= 44
    screenshot(page, "phone-event")
    assert event.games.count() == 3


def test_the_career_and_the_leaderboards_fit_a_phone(live_server: Any, page: Any, tournament: dict[str, Any]):
    """Issue 21: the statistics' charts are drawn to the phone's width, their words kept at a readable size."""
    slug, bart = tournament["event"].slug, tournament["bart"]
    page.goto(f"{live_server.url}/players/{bart}/")
    assert_fits(page)
    bars = page.locator("ul.bars svg.bar")
    assert bars.count() >= 4 + 3  # four places; win, deal-in, tsumo share (and riichi, tenpai) rates
    for bar in bars.all():
        assert 200 <= bar.bounding_box()["width"] <= 340
    for label in page.locator("figure.trend svg text").all():
        assert label.evaluate("t => parseFloat(getComputedStyle(t).fontSize)") >= 11
    # Bartholomew played the two finished games: 1 win (the 4 han ron) in 4 hands; the tsumo game is Ann's.
    assert "25.0% · 1 of 4 hands" in page.locator("ul.bars").nth(1).inner_text()
    screenshot(page, "phone-career")
    page.goto(f"{live_server.url}/events/{slug}/leaderboards/")
    assert_fits(page)
    assert page.locator("table.board").count() == 3
    screenshot(page, "phone-leaderboards")


def test_a_hand_linked_from_the_statistics_is_shown_on_a_wide_screen(
    live_server: Any, page: Any, tournament: dict[str, Any]
):
    """The card of hand N is the link's anchor; on a wide screen, where the cards give way to the table, the
    site's script brings the table's row into view instead."""
    page.set_viewport_size({"width": 1280, "height": 400})
    game = tournament["finished"]
    page.goto(f"{live_server.url}/games/{game.pk}/#hand-3")
    page.wait_for_load_state("load")
    row = page.locator("#hand-3-row")
    assert row.is_visible()
    box = row.bounding_box()
    assert 0 <= box["y"] <= 400  # in the window, not below it
