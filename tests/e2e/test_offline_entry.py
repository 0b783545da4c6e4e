"""In Chromium: the entry page without a network. Hands entered offline wait in the browser, survive a reload,
and reach the server exactly once and in order; a change by another referee in between stops them until the
referee re-applies or drops each."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.services.hands import game_record_hand
from tests.e2e.conftest import PHONE, screenshot
from tests.e2e.test_referee_entry import fill_ron, tap

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, bypass_csp=True)  # string predicates: see conftest.page
    yield context
    context.close()


def signed_in(context: Any, live_server: Any, tournament: dict[str, Any]) -> Any:
    referee = User.objects.create_user("referee", password="table-1-referee")
    tournament["event"].referees.add(referee)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/games/{tournament['game'].pk}/entry/")
    page.fill("input[name=username]", "referee")
    page.fill("input[name=password]", "table-1-referee")
    page.click("button[type=submit]")
    page.wait_for_url(f"**/games/{tournament['game'].pk}/entry/")
    # The service worker takes the page in hand, and keeps a copy of it once it has been loaded through it.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    return page


def waiting_says(page: Any, words: str) -> None:
    """The waiting panel says ``words``, once the page has read its queue (IndexedDB answers after the load)."""
    expect(page.locator("#waiting [data-count]")).to_have_text(words)


def enter_offline(page: Any, hands: list[tuple[int, int, int]]) -> None:
    for number, (winner, loser, han) in enumerate(hands, start=1):
        fill_ron(page, winner, loser, han, 30)
        page.click("button[value=save]")
        page.wait_for_function(f"document.querySelectorAll('#waiting ol li').length === {number}")


def hands_on_server(game: Any) -> list[tuple[int, int, int]]:
    return [(h.record["winner"], h.record["loser"], h.record["han"]) for h in game.hands.order_by("index")]


def test_hands_entered_offline_reach_the_server_once_and_in_order(
    live_server: Any, context: Any, tournament: dict[str, Any]
):
    game, ids = tournament["game"], tournament["ids"]
    page = signed_in(context, live_server, tournament)
    ann, bo, cy, di = ids["Ann"], ids["Bo"], ids["Cy"], ids["Di"]
    offline = [(bo, cy, 1), (cy, di, 2), (di, ann, 1), (ann, bo, 2), (bo, di, 1)]
    before = hands_on_server(game)

    context.set_offline(True)
    enter_offline(page, offline)
    waiting_says(page, "5 hands waiting to be sent")
    assert hands_on_server(game) == before  # nothing left the browser
    # A half-entered hand and the queue both survive a reload with no network (the service worker's copy).
    page.check("input[name=result][value=tsumo]")
    page.check(f"input[name=winner][value='{cy}']")
    reloaded = page.reload()
    assert reloaded is not None
    assert reloaded.from_service_worker  # the server was not asked: the worker's copy
    waiting_says(page, "5 hands waiting to be sent")
    assert page.is_checked(f"input[name=winner][value='{cy}']")
    assert page.is_checked("input[name=result][value=tsumo]")
    screenshot(page, "entry-offline")

    context.set_offline(False)
    page.wait_for_function("document.getElementById('waiting').hidden === true", timeout=30_000)
    assert hands_on_server(game) == before + offline  # each exactly once, in the order entered
    assert game.changes.filter(action="add").count() == len(offline)


def test_a_change_by_another_referee_stops_the_queue_until_the_referee_decides(
    live_server: Any, context: Any, tournament: dict[str, Any]
):
    game, ids = tournament["game"], tournament["ids"]
    page = signed_in(context, live_server, tournament)
    ann, bo, cy, di = ids["Ann"], ids["Bo"], ids["Cy"], ids["Di"]
    context.set_offline(True)
    enter_offline(page, [(bo, cy, 1), (cy, di, 2)])
    # Meanwhile, at the organisers' desk, another referee adds a hand to the same game.
    game_record_hand(
        game_id=game.pk,
        record={"result": "ron", "winner": di, "loser": ann, "han": 3, "fu": 30},
        user=None,
        version=None,
    )
    context.set_offline(False)
    page.wait_for_selector("#waiting [data-conflict]:not([hidden])")
    waiting_says(page, "2 hands waiting to be sent")
    # The game as it is now: the list is drawn again after the conflict is shown (a busy machine shows the gap).
    expect(page.locator(".hand-list")).to_contain_text("Ron on Ann: Di 3 han 30 fu")
    screenshot(page, "entry-conflict")
    page.click("#waiting li:nth-child(1) button[data-apply]")
    # Sent on the game as it is now; the page reloads with it and the one hand still waiting.
    expect(page.locator(".hand-list")).to_contain_text("Ron on Cy: Bo 1 han 30 fu", timeout=30_000)
    waiting_says(page, "1 hand waiting to be sent")
    # Dropping asks first, and says what the hand was so that the referee can write it down.
    asked: list[str] = []

    def accept(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)
    page.click("#waiting li:nth-child(1) button[data-drop]")
    page.wait_for_function("document.getElementById('waiting').hidden === true")
    assert asked == [
        "Drop this hand? It will not be sent. Write it down first if you need it:\n\n"
        "Ron West · Cy ← North · Di 2 han 30 fu"
    ]
    assert hands_on_server(game)[-2:] == [(di, ann, 3), (bo, cy, 1)]  # re-applied on top; the other dropped


def test_offline_the_page_refuses_the_han_fu_pairs_the_engine_refuses(
    live_server: Any, context: Any, tournament: dict[str, Any]
):
    """The pairs come from the engine (the page's accepted-fu JSON): 1 han 20 fu on a ron, and 2 han 25 fu on a
    tsumo (chiitoitsu by tsumo is 3 han), which the script's own rule used to let through."""
    game, ids = tournament["game"], tournament["ids"]
    page = signed_in(context, live_server, tournament)
    context.set_offline(True)
    refused = page.locator("#waiting [data-problem]")
    fill_ron(page, ids["Bo"], ids["Cy"], 1, 20)
    page.click("button[value=save]")
    expect(refused).to_have_text("These han and fu cannot make a hand.")
    tap(page, "result", "tsumo")
    tap(page, "han", 2)
    tap(page, "fu", 25)
    page.click("button[value=save]")
    expect(refused).to_have_text("These han and fu cannot make a hand.")
    tap(page, "han", 3)  # the 25 fu stay chosen
    page.click("button[value=save]")
    page.wait_for_function("document.querySelectorAll('#waiting ol li').length === 1")
    expect(refused).to_be_hidden()
    context.set_offline(False)
    page.wait_for_function("document.getElementById('waiting').hidden === true", timeout=30_000)
    assert game.hands.order_by("index").last().record == {"result": "tsumo", "winner": ids["Bo"], "han": 3, "fu": 25}
