"""In Chromium at 360 x 740: the referee's loop made for one thumb (issue 13).

Every control a test taps must be on the first screen when it is tapped: inside the 740 px of the
viewport, not under the sticky Save bar, and the page must not scroll to reach it (the test never
scrolls). The taps are counted: a ron with one riichi is at most 6, a draw with two tenpai at most 4,
and the numbers saved follow from the event's preset (wrc-2025: 300 a honba, 1000 a riichi stick,
3000 of noten payments).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE, screenshot
from tournament.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


class Thumb:
    """Taps as a referee's thumb would, counting them; a control out of the first screen fails the test."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0

    def chip(self, name: str, value: Any) -> Any:
        return self.page.locator(f"label:has(> input[name={name}][value='{value}'])")

    def tap(self, target: Any, *, navigates: bool = False) -> None:
        box = target.bounding_box()
        assert box is not None, f"{target} is not on the page"
        where = f"{target} is at y={box['y']:.0f}..{box['y'] + box['height']:.0f}: off the first screen"
        assert box["y"] >= 0, where
        assert box["y"] + box["height"] <= PHONE["height"], where
        # Not hidden under anything (the sticky Save bar): the point a thumb presses is the control's own.
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        assert target.evaluate("(el, [x, y]) => el.contains(document.elementFromPoint(x, y))", [x, y]), (
            f"{target} is covered at ({x:.0f}, {y:.0f})"
        )
        before = self.page.evaluate("window.scrollY")
        target.click()
        self.taps += 1
        if not navigates:  # the tap did not have to scroll the page (a new page has a position of its own)
            assert self.page.evaluate("window.scrollY") == before

    def save(self) -> None:
        with self.page.expect_navigation():
            self.tap(self.page.locator("button[value=save]"), navigates=True)


def signed_in(page: Any, live_server: Any, tournament: dict[str, Any]) -> Any:
    User.objects.create_user("referee", password="table-1-referee")
    tournament["event"].referees.add(User.objects.get(username="referee"))
    page.goto(f"{live_server.url}/games/{tournament['game'].pk}/entry/")
    page.fill("input[name=username]", "referee")
    page.fill("input[name=password]", "table-1-referee")
    page.click("button[type=submit]")
    page.wait_for_url(f"**/games/{tournament['game'].pk}/entry/")
    return page


def last_hand(game: Game) -> tuple[dict[str, Any], list[int]]:
    game.refresh_from_db()
    hand = game.hands.order_by("index").last()
    assert hand is not None
    return hand.record, game.result["hands"][-1]["deltas"]


def test_a_ron_with_riichi_in_6_taps_and_a_draw_in_4_without_scrolling(
    live_server: Any, page: Any, tournament: dict[str, Any]
):
    game, ids = tournament["game"], tournament["ids"]
    ann, bo, cy, di = ids["Ann"], ids["Bo"], ids["Cy"], ids["Di"]
    rules = game.ruleset()
    page = signed_in(page, live_server, tournament)
    assert page.evaluate("window.scrollY") == 0
    # Hand 2 (E1, honba 1 after Ann's dealer win): Cy declares riichi, Bo rons Di for 1 han 30 fu.
    thumb = Thumb(page)
    thumb.tap(thumb.chip("riichi", cy))
    thumb.tap(thumb.chip("winner", bo))
    thumb.tap(thumb.chip("loser", di))
    thumb.tap(thumb.chip("han", 1))
    thumb.tap(thumb.chip("fu", 30))
    thumb.save()
    assert thumb.taps <= 6
    record, deltas = last_hand(game)
    assert record == {"result": "ron", "winner": bo, "loser": di, "han": 1, "fu": 30, "riichi": [cy]}
    # docs/rules.md §2: b = 30 × 2^(1+2) = 240, a non-dealer's ron 4b = 960, rounded up to 1000; + 1 honba
    # from the discarder; Cy's stick goes to Bo.
    ron = 1000
    assert deltas == [
        0,
        ron + rules.honba_points + rules.riichi_deposit,
        -rules.riichi_deposit,
        -(ron + rules.honba_points),
    ]  # by seat: Ann, Bo, Cy, Di
    # The page after the save: the confirmation and the next hand's form on the first screen; the hand
    # just saved is in the words of the notice and on the players' chips.
    notice = page.locator("#saved")
    expect(notice).to_have_text("Hand 2 added: Ron on Di: Bo 1 han 30 fu; riichi: Cy")
    box = notice.bounding_box()
    assert box is not None
    assert 0 <= box["y"] < PHONE["height"]
    # Bo won: he deals hand 3 (East), with the start score and what hand 2 paid him.
    assert thumb.chip("riichi", bo).inner_text().split() == [
        "East",
        "Bo",
        str(rules.start_points + deltas[1]),
        f"+{deltas[1]}",
    ]
    screenshot(page, "one-thumb-saved")

    # Hand 3 from there, with no scrolling back: a draw, Ann and Bo tenpai.
    thumb = Thumb(page)
    thumb.tap(thumb.chip("result", "draw"))
    thumb.tap(thumb.chip("tenpai", ann))
    thumb.tap(thumb.chip("tenpai", bo))
    thumb.save()
    assert thumb.taps <= 4
    record, deltas = last_hand(game)
    assert record == {"result": "draw", "tenpai": [ann, bo]}
    half = rules.noten_payment_total // 2  # docs/rules.md §3: 2 tenpai, each noten pays 1500, each tenpai gets 1500
    assert deltas == [half, half, -half, -half]
    # Newest first: hand 3 open on top, the earlier ones folded.
    hands = page.locator(".hand-list > li")
    expect(hands.first).to_contain_text("Draw, tenpai: Ann, Bo")
    assert page.locator(".hand-list > li > details:not([open])").count() == 2
    expect(hands.nth(1).locator("summary")).to_contain_text("Ron on Di: Bo 1 han 30 fu")


def test_the_fu_row_shows_only_when_the_han_need_it(live_server: Any, page: Any, tournament: dict[str, Any]):
    """wrc-2025 has kiriage mangan: 4 han 30 fu and 3 han 60 fu are mangan (docs/rules.md §2)."""
    page = signed_in(page, live_server, tournament)
    thumb = Thumb(page)
    fu = page.locator(".field:has(input[name=fu])")
    expect(fu).to_be_hidden()  # no han yet
    thumb.tap(thumb.chip("han", 4))
    expect(fu).to_be_visible()
    expect(fu.locator("legend")).to_contain_text("mangan from 30 fu")
    thumb.tap(thumb.chip("han", 3))
    expect(fu.locator("legend")).to_contain_text("mangan from 60 fu")
    thumb.tap(thumb.chip("han", 2))
    expect(fu.locator("legend")).not_to_contain_text("mangan")  # 2 han 110 fu is 1760 base points: no mangan
    thumb.tap(thumb.chip("fu", 40))
    thumb.tap(thumb.chip("han", 5))
    expect(fu).to_be_hidden()  # a mangan whatever the fu
    assert not page.is_checked("input[name=fu][value='40']")  # and a fu out of sight is not sent
    thumb.tap(thumb.chip("han", 5))
    assert not page.is_checked("input[name=han][value='5']")  # a second tap takes a chip back
    thumb.tap(thumb.chip("han", 6))
    thumb.tap(thumb.chip("yakuman", 1))
    assert not page.is_checked("input[name=han][value='6']")  # han and yakuman exclude each other
    assert page.is_checked("input[name=yakuman][value='1']")
    thumb.tap(thumb.chip("result", "draw"))
    expect(page.locator(".field:has(input[name=tenpai])")).to_be_visible()
    expect(page.locator(".field:has(input[name=han])")).to_be_hidden()


def test_every_error_of_the_hand_at_once_next_to_its_field(live_server: Any, page: Any, tournament: dict[str, Any]):
    game, ids = tournament["game"], tournament["ids"]
    page = signed_in(page, live_server, tournament)
    # An empty ron: the engine names everything it lacks, each next to its row of chips, all on the page.
    Thumb(page).save()
    for name, words in (
        ("winner", "is required for a ron"),
        ("loser", "is required for a ron"),
        ("han", "a win needs han and fu, or yakuman"),
    ):
        errors = page.locator(f".field:has(input[name={name}]) .errors")
        expect(errors).to_be_visible()
        expect(errors).to_contain_text(words)
    assert game.hands.count() == 1
    # 1 han 20 fu: the fu row stays open with the engine's message in it, whatever the han chosen.
    thumb = Thumb(page)
    page.goto(page.url.split("#")[0])
    thumb.tap(thumb.chip("winner", ids["Bo"]))
    thumb.tap(thumb.chip("loser", ids["Cy"]))
    thumb.tap(thumb.chip("han", 1))
    thumb.tap(thumb.chip("fu", 20))
    thumb.save()
    errors = page.locator(".field:has(input[name=fu]) .errors")
    expect(errors).to_be_visible()
    expect(errors).to_contain_text("20 fu is only possible with 2 han or more")
    assert page.is_checked("input[name=fu][value='20']")
    assert game.hands.count() == 1
    screenshot(page, "one-thumb-errors")


def test_the_header_is_one_line_on_a_phone(live_server: Any, page: Any, tournament: dict[str, Any]):
    page = signed_in(page, live_server, tournament)
    header = page.locator("header.top")
    box = header.bounding_box()
    assert box is not None
    assert box["height"] <= 48  # one line: the brand and the menu
    standings = header.get_by_role("link", name="Standings")
    expect(standings).to_be_hidden()
    Thumb(page).tap(header.locator("summary"))
    expect(standings).to_be_visible()
    expect(header.get_by_role("button", name="Sign out")).to_be_visible()
    page.set_viewport_size(DESKTOP)  # a laptop: everything in the line, no menu to open
    page.reload()
    expect(header.locator("summary")).to_be_hidden()
    expect(standings).to_be_visible()
