"""In Chromium at 360 x 740: every kind of hand in at most 6 taps and no swipe (issue 22).

The players have long names (two of them alike), as at a real table. A tap is counted as a thumb makes it: the
control must be on the first screen, not under the sticky Save bar, and the page must not have to scroll to
reach it (the Thumb of test_one_thumb fails the test otherwise). A triple ron takes 8 and one swipe: three
winners, the discarder, three values and Save, one tap each, and no fewer can say it.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.services.games import game_create
from scoring.services.hands import game_record_hand
from tests.e2e.conftest import PHONE
from tests.e2e.test_one_thumb import Thumb
from tests.factories import registered
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Kim Jung Ho", "Kim Jung Hee", "Park Seo Yeon", "Lee Min Jun")


def game_under(ruleset: str, hands: int = 0) -> tuple[Game, list[int]]:
    event = Event.objects.create(
        name=f"Open {ruleset}", slug=ruleset, ruleset_key=ruleset, public=True, status=Event.Status.RUNNING
    )
    ids = [p.pk for p in registered(event, *NAMES)]
    game = game_create(event=event, player_ids=ids)
    for k in range(hands):  # draws, each with one player tenpai in turn
        game_record_hand(game_id=game.pk, user=None, version=None, record={"result": "draw", "tenpai": [ids[k % 4]]})
    return game, ids


def opened(browser: Any, live_server: Any, game: Game) -> Any:
    user = User.objects.create_user(f"ref-{game.pk}")
    game.event.referees.add(user)
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/games/{game.pk}/entry/")
    return page


def last(game: Game, index: int | None = None) -> dict[str, Any]:
    hands = game.hands.order_by("index")
    hand = hands.get(index=index) if index is not None else hands.last()
    assert hand is not None
    record: dict[str, Any] = hand.record
    return record


def test_every_hand_kind_in_six_taps_and_no_swipe(live_server: Any, browser: Any):
    game, (e, s, w, n) = game_under("ema-2016")  # pays every ron of a discard
    page = opened(browser, live_server, game)
    # Names whole on the players' chips: wrapped onto two lines, never cut with an ellipsis.
    for name in page.locator(".seat-chips .name").all():
        assert name.evaluate("el => el.scrollWidth <= el.clientWidth")
        assert name.evaluate("el => getComputedStyle(el).textOverflow") != "ellipsis"

    def hand(taps: int, *steps: tuple[str, Any], most: int = 6) -> None:
        thumb = Thumb(page)
        for name, value in steps:
            thumb.tap(thumb.chip(name, value))
        thumb.save()
        assert thumb.taps == taps <= most

    hand(6, ("riichi", w), ("winner", s), ("loser", n), ("han", 2), ("fu", 40))
    assert last(game) == {"result": "ron", "winner": s, "loser": n, "han": 2, "fu": 40, "riichi": [w]}
    # South won, so South deals: a dealer tsumo with two riichi, 30 fu (the fu row starts at 30: no tap for it).
    hand(6, ("riichi", s), ("riichi", w), ("result", "tsumo"), ("winner", s), ("han", 3))
    assert last(game) == {"result": "tsumo", "winner": s, "han": 3, "fu": 30, "riichi": [s, w]}
    hand(4, ("result", "draw"), ("tenpai", e), ("tenpai", n))
    assert last(game) == {"result": "draw", "tenpai": [e, n]}
    # A draw with two riichi: whoever declared is tenpai, their chips come checked.
    hand(4, ("riichi", e), ("riichi", w), ("result", "draw"))
    assert last(game) == {"result": "draw", "tenpai": [e, w], "riichi": [e, w]}
    hand(3, ("result", "chombo"), ("player", w))
    assert last(game)["player"] == w
    # A double ron: the second winner is on the first screen; the first win folds into a line once he is chosen.
    hand(6, ("winner", s), ("loser", n), ("han", 2), ("win2_winner", w), ("win2_han", 3))
    assert last(game) == {
        "result": "ron",
        "loser": n,
        "wins": [{"winner": s, "han": 2, "fu": 30}, {"winner": w, "han": 3, "fu": 30}],
    }
    # A triple ron: one swipe, to the third winner's row (the first two wins folded into lines by then).
    thumb = Thumb(page)
    for name, value in (("winner", s), ("loser", n), ("han", 5), ("win2_winner", w), ("win2_han", 6)):
        thumb.tap(thumb.chip(name, value))
    thumb.chip("win3_winner", e).evaluate("el => el.scrollIntoView({block: 'center'})")  # the one swipe
    for name, value in (("win3_winner", e), ("win3_han", 7)):
        thumb.tap(thumb.chip(name, value))
    thumb.save()
    assert thumb.taps == 8
    assert [win["winner"] for win in last(game)["wins"]] == [s, w, e]
    # Correcting hand 2 after hand 7: its number on top opens it in the form, one tap; then the change and Save.
    thumb = Thumb(page)
    thumb.tap(page.locator(".hand-strip a", has_text="2"), navigates=True)
    page.wait_for_url("**?edit=1*")
    assert page.is_checked(f"input[name=winner][value='{s}']")
    thumb.tap(thumb.chip("han", 4))
    thumb.save()
    assert thumb.taps == 3
    assert last(game, 1)["han"] == 4
    assert "Hand 2 changed" in page.locator("#saved").inner_text()
    page.context.close()


def test_pao_beside_the_yakuman(live_server: Any, browser: Any):
    game, (_e, s, w, n) = game_under("wrc-2025")
    page = opened(browser, live_server, game)
    pao = page.locator(".field:has(input[name=pao])")
    assert not pao.is_visible()  # until a yakuman is chosen
    thumb = Thumb(page)
    thumb.tap(thumb.chip("winner", s))
    thumb.tap(thumb.chip("loser", n))
    thumb.tap(thumb.chip("yakuman", 1))
    thumb.tap(thumb.chip("pao", w))
    thumb.save()
    assert thumb.taps == 5
    assert last(game) == {"result": "ron", "winner": s, "loser": n, "yakuman": 1, "pao": w}
    page.context.close()


def test_a_ron_by_keyboard_alone(live_server: Any, browser: Any):
    game, (_e, s, _w, n) = game_under("ema-2016", hands=2)
    page = opened(browser, live_server, game)

    def tab_to(name: str, value: Any = None) -> None:
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.name") == name:
                break
        else:
            raise AssertionError(f"Tab never reaches {name}")
        if value is None:
            return
        for _ in range(12):  # a radio group: the arrows move the choice
            if page.evaluate("document.activeElement.value") == str(value):
                break
            page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.value") == str(value)
        # The chip in focus is seen: its outline.
        outline = page.evaluate("getComputedStyle(document.activeElement.closest('label')).outlineStyle")
        assert outline == "solid"

    tab_to("riichi")
    page.keyboard.press("Space")  # East's riichi stick
    tab_to("winner", s)
    tab_to("loser", n)
    tab_to("han", 3)
    tab_to("action")  # Preview, then Save
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.value") == "save"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    record = last(game)
    assert (record["winner"], record["loser"], record["han"], record["fu"]) == (s, n, 3, 30)
    assert len(record["riichi"]) == 1
    page.context.close()
