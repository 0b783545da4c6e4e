"""In Chromium, under the site's Content-Security-Policy: every page loads with no violation reported, and
what the inline handlers used to do still works (the delete's question, the referee link selected at a tap;
the language switch is tests/e2e/test_pages_in_browser.py::test_korean_pages); Swagger UI draws the API."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from scoring.services.table_codes import round_codes_issue
from tournament.models import Event
from tournament.services.invites import invite_renew

pytestmark = pytest.mark.django_db(transaction=True)


def violations(page: Any) -> list[str]:
    """What the browser refused under the policy, as its console reports it, from now on."""
    found: list[str] = []
    page.on("console", lambda m: found.append(m.text) if "Content Security Policy" in m.text else None)
    return found


def sign_in(page: Any, url: str, event: Event) -> None:
    User.objects.create_superuser("org", password="organiser-pass-1")
    event.organisers.add(User.objects.get(username="org"))
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", "org")
    page.fill("input[name=password]", "organiser-pass-1")
    page.click("button[type=submit]")
    page.wait_for_url("**/me/")


def test_every_page_loads_without_a_violation(live_server: Any, strict_page: Any, tournament: dict[str, Any]):
    page, event, game = strict_page, tournament["event"], tournament["game"]
    invite_renew(event=event, role="referee")
    round_codes_issue(round_=event.rounds.get())
    refused = violations(page)
    sign_in(page, live_server.url, event)
    slug, player = event.slug, tournament["ids"]["Ann"]
    for path in [
        "/",
        f"/events/{slug}/",
        f"/events/{slug}/standings/",
        f"/events/{slug}/rounds/1/",
        f"/events/{slug}/rounds/1/print/",
        f"/events/{slug}/players/{player}/",
        f"/players/{player}/",
        f"/events/{slug}/leaderboards/",
        f"/games/{game.pk}/",
        f"/games/{game.pk}/entry/",
        f"/games/{game.pk}/confirm/",
        f"/events/{slug}/codes/",
        f"/events/{slug}/manage/",
        f"/events/{slug}/manage/players/",
        f"/events/{slug}/manage/rounds/1/",
        f"/events/{slug}/manage/rounds/1/cards/",
        f"/events/{slug}/manage/settings/",
        "/me/",
        "/admin/",
        f"/admin/tournament/game/{game.pk}/change/",
    ]:
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200, path
        page.wait_for_load_state("load")
    assert refused == []
    # The table cards keep their look from the stylesheet that replaced the inline one.
    page.goto(f"{live_server.url}/events/{slug}/manage/rounds/1/cards/")
    assert page.locator(".table-card-print").first.evaluate("card => getComputedStyle(card).borderTopStyle") == "dashed"


def test_swagger_ui_draws_the_api(live_server: Any, strict_page: Any):
    page = strict_page
    refused = violations(page)
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "Mahjong tournament manager API" in page.locator(".swagger-ui .info .title").inner_text()
    page.wait_for_selector(".opblock-summary-path")
    assert refused == []


def test_the_handlers_moved_to_the_sites_script_still_work(
    live_server: Any, strict_page: Any, tournament: dict[str, Any]
):
    page, event, game = strict_page, tournament["event"], tournament["game"]
    invite_renew(event=event, role="referee")
    refused = violations(page)
    sign_in(page, live_server.url, event)
    # The referee link is selected whole at a tap.
    page.goto(f"{live_server.url}/events/{event.slug}/manage/")
    page.click("input.copy")
    assert page.evaluate(
        "window.getSelection().toString() || document.activeElement.value.substring("
        "document.activeElement.selectionStart, document.activeElement.selectionEnd)"
    ) == page.input_value("input.copy")
    # Deleting a hand asks first; "cancel" keeps it.
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", answer)
    page.goto(f"{live_server.url}/games/{game.pk}/entry/")
    page.click(".hand-actions button.danger")
    assert asked == ["Delete hand 1? The later hands are replayed without it."]
    assert game.hands.count() == 1
    assert refused == []
