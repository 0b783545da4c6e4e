"""In Chromium: a hand waiting in the browser leaves it only when the server says it stored it. An ended session,
a renewed table code, a new sign-in's CSRF token, a server error and an answer lost on the way each keep the hand,
say why in words and offer what helps; no hand is lost and none is stored twice."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.utils import translation
from playwright.sync_api import expect

from scoring.services.table_codes import round_codes_issue, table_code, table_code_revoke
from tests.e2e.conftest import PHONE, screenshot
from tests.e2e.test_offline_entry import enter_offline, hands_on_server, waiting_says

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-1-referee"
ENTRY = "**/games/*/entry/"


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    # page.route does not see requests a service worker handles: these tests stop the answers, not the worker.
    context = browser.new_context(viewport=PHONE, service_workers="block", bypass_csp=True)  # string predicates
    yield context
    context.close()


@pytest.fixture
def page(context: Any, live_server: Any, tournament: dict[str, Any]) -> Any:
    User.objects.create_user("referee", password=PASSWORD)
    tournament["event"].referees.add(User.objects.get(username="referee"))
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server, f"/games/{tournament['game'].pk}/entry/")
    return page


def sign_in(page: Any, live_server: Any, then: str) -> None:
    if "/accounts/login/" not in page.url:
        page.goto(f"{live_server.url}/accounts/login/?next={then}")
    page.fill("input[name=username]", "referee")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"**{then}")


def why(page: Any) -> Any:
    return page.locator("#waiting li .why")


def posts(page: Any, answer: Callable[[Any], None]) -> None:
    """The entry page's POSTs go to ``answer``; everything else to the server."""
    page.route(ENTRY, lambda route: answer(route) if route.request.method == "POST" else route.continue_())


def queue_one(page: Any, context: Any, ids: dict[str, int]) -> tuple[int, int, int]:
    hand = (ids["Bo"], ids["Cy"], 1)
    context.set_offline(True)
    enter_offline(page, [hand])
    return hand


def on_the_page(page: Any, words: str) -> None:
    """The page shows the hand (it reloads with the game once the queue has sent it)."""
    expect(page.locator(".hand-list")).to_contain_text(words, timeout=30_000)
    expect(page.locator("#waiting")).to_be_hidden()


def test_an_ended_session_keeps_the_hand_until_the_referee_signs_in_again(
    live_server: Any, context: Any, page: Any, tournament: dict[str, Any]
):
    game = tournament["game"]
    before = hands_on_server(game)
    hand = queue_one(page, context, tournament["ids"])
    Session.objects.all().delete()  # the session ended while the phone was offline
    context.set_offline(False)
    expect(why(page)).to_have_text("Your sign-in has ended: sign in again. The hand waits here.")
    waiting_says(page, "1 hand waiting to be sent")
    assert hands_on_server(game) == before
    screenshot(page, "queue-signed-out")
    page.click("#waiting a[data-signin]")  # the login, then back to this page, which sends what waits
    sign_in(page, live_server, f"/games/{game.pk}/entry/")
    on_the_page(page, "Ron on Cy: Bo 1 han 30 fu")
    assert hands_on_server(game) == [*before, hand]


def test_a_renewed_table_code_keeps_the_hand_until_the_table_is_opened_with_the_new_code(
    live_server: Any, context: Any, tournament: dict[str, Any]
):
    game, table = tournament["game"], tournament["game"].table
    round_codes_issue(round_=table.round)
    table.refresh_from_db()
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/code/")
    page.fill("input[name=code]", table_code(table))
    page.click("main button[type=submit]")
    page.wait_for_url(f"**/games/{game.pk}/entry/")
    before = hands_on_server(game)
    hand = queue_one(page, context, tournament["ids"])
    table_code_revoke(table=table, renew=True)  # the organiser gives the table a new code meanwhile
    context.set_offline(False)
    expect(why(page)).to_contain_text("The table's code was changed")
    waiting_says(page, "1 hand waiting to be sent")
    assert hands_on_server(game) == before
    page.click("#waiting a[data-signin=code]")
    page.fill("input[name=code]", table_code(table))
    page.click("main button[type=submit]")
    on_the_page(page, "Ron on Cy: Bo 1 han 30 fu")
    assert hands_on_server(game) == [*before, hand]
    assert game.changes.order_by("pk").last().author == "table 1's code"


def test_after_a_new_sign_in_the_waiting_hand_goes_with_the_new_csrf_token(
    live_server: Any, context: Any, page: Any, tournament: dict[str, Any]
):
    game = tournament["game"]
    before = hands_on_server(game)
    hand = queue_one(page, context, tournament["ids"])
    posts(page, lambda route: route.abort())  # the network comes back, but not yet to the server
    context.set_offline(False)
    expect(why(page)).to_have_text("Not sent: no answer from the server. Trying again in 5 s.")
    # Meanwhile the referee signs in again in another tab: a new session and a new CSRF token.
    other = context.new_page()
    sign_in(other, live_server, "/")
    other.close()
    page.unroute(ENTRY)
    page.click("#waiting button[data-retry]")
    on_the_page(page, "Ron on Cy: Bo 1 han 30 fu")
    assert hands_on_server(game) == [*before, hand]


def test_a_server_error_keeps_the_hand_and_tries_again_less_often(
    live_server: Any, context: Any, page: Any, tournament: dict[str, Any]
):
    game = tournament["game"]
    before = hands_on_server(game)
    hand = queue_one(page, context, tournament["ids"])
    failed: list[str] = []

    def fail(route: Any) -> None:
        failed.append(route.request.url)
        route.fulfill(status=500, body="Server Error")

    posts(page, fail)
    context.set_offline(False)
    expect(why(page)).to_have_text("Not sent: the server failed (error 500). Trying again in 5 s.")
    page.click("#waiting button[data-retry]")
    expect(why(page)).to_have_text("Not sent: the server failed (error 500). Trying again in 10 s.")
    assert len(failed) == 2  # the referee's try and the first: no retry every few seconds
    assert hands_on_server(game) == before
    waiting_says(page, "1 hand waiting to be sent")
    # In Korean, after a reload: the hand still waits, and the page says why in the reader's language.
    context.add_cookies([{"name": "django_language", "value": "ko", "url": live_server.url}])
    page.reload()
    with translation.override("ko"):
        expected = translation.gettext("Not sent: the server failed (error %s).") % 500
    expect(why(page)).to_contain_text(expected)
    screenshot(page, "queue-server-error-ko")
    page.unroute(ENTRY)
    page.click("#waiting button[data-retry]")
    expect(page.locator("#waiting")).to_be_hidden(timeout=30_000)
    assert hands_on_server(game) == [*before, hand]


def test_an_answer_lost_on_the_way_is_sent_again_and_stored_once(
    live_server: Any, context: Any, page: Any, tournament: dict[str, Any]
):
    game, ids = tournament["game"], tournament["ids"]
    before = hands_on_server(game)
    hands = [(ids["Bo"], ids["Cy"], 1), (ids["Cy"], ids["Di"], 2)]
    context.set_offline(True)
    enter_offline(page, hands)
    lost: list[int] = []

    def lose_the_answer(route: Any) -> None:
        if lost:
            route.continue_()
            return
        route.fetch()  # the server stores the first hand...
        lost.append(game.hands.count())
        route.abort("connectionreset")  # ...and the phone never hears so

    posts(page, lose_the_answer)
    context.set_offline(False)
    expect(why(page)).to_have_text("Not sent: no answer from the server. Trying again in 5 s.")
    waiting_says(page, "2 hands waiting to be sent")
    assert hands_on_server(game) == [*before, hands[0]]  # stored, though the page could not know
    page.click("#waiting button[data-retry]")
    on_the_page(page, "Ron on Di: Cy 2 han 30 fu")
    assert hands_on_server(game) == [*before, *hands]  # the first not doubled, the second after it
    assert game.changes.filter(action="add").count() == len(hands)


def test_a_hand_the_server_refuses_says_why_and_goes_back_into_the_form(
    live_server: Any, context: Any, page: Any, tournament: dict[str, Any]
):
    game, ids = tournament["game"], tournament["ids"]
    before = hands_on_server(game)
    queue_one(page, context, ids)
    # The game's rules changed while the phone was offline, say: the server now refuses 1 han as sent.
    posts(page, lambda route: route.continue_(post_data=route.request.post_data.replace("han=1", "han=100")))
    context.set_offline(False)
    expect(why(page)).to_contain_text("The server refused this hand. han: ")
    assert page.locator("#waiting button[data-retry]").count() == 0  # sending it again would not help
    screenshot(page, "queue-refused")
    page.click("#waiting button[data-edit]")
    expect(page.locator("#waiting")).to_be_hidden()
    assert page.is_checked(f"input[name=winner][value='{ids['Bo']}']")  # back in the form, to correct
    assert page.is_checked(f"input[name=loser][value='{ids['Cy']}']")
    assert hands_on_server(game) == before
