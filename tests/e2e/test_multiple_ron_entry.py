"""In Chromium, on a phone, in English and Korean: the entry page offers more winners only where the rules pay
several rons (ema-2016), says the head bump where they do not (wrc-2025), and a hand that declared two rons under a
head bump says in the hand list who was paid."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.services.games import game_create
from scoring.services.hands import game_record_hand
from tests.e2e.conftest import PHONE, SCREENSHOTS, screenshot
from tests.factories import registered
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {
        "more": "Multiple ron: more winners",
        "hint": "only the first in turn after the discarder wins",
        "bumped": "head bump: Cy, first after the discarder; not paid: Ann 2 han 30 fu",
        "declared": "More rons declared (head bump decides)",
    },
    "ko": {
        "more": "더블 론: 다른 화료자",
        "hint": "방총자 다음 순서의 첫 번째 사람만 화료합니다",
        "bumped": "머리치기: 방총자 다음 순서인 Cy; 지급하지 않음: Ann 2판 30부",
        "declared": "선언된 다른 론 (머리치기로 결정)",
    },
}


def game_under(ruleset: str) -> tuple[Game, dict[str, int]]:
    event = Event.objects.create(
        name=f"Open {ruleset}", slug=ruleset, ruleset_key=ruleset, public=True, status=Event.Status.RUNNING
    )
    players = registered(event, "Ann", "Bo", "Cy", "Di")
    return game_create(event=event, player_ids=[p.pk for p in players]), {p.name: p.pk for p in players}


def signed_in(browser: Any, live_server: Any, game: Game, language: str) -> Any:
    """A phone's page, signed in as one of the game's referees, asking for ``language``."""
    user = User.objects.create_user(f"ref-{game.pk}-{language}")
    game.event.referees.add(user)
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": language})
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_offer_follows_the_rules(live_server: Any, browser: Any, language: str):
    words = WORDS[language]
    head_bump, p = game_under("wrc-2025")
    # A hand that declared two rons (as the API and score sheets may send it): Cy, first after Bo, is paid.
    game_record_hand(
        game_id=head_bump.pk,
        user=None,
        version=None,
        record={
            "result": "ron",
            "loser": p["Bo"],
            "wins": [{"winner": p["Ann"], "han": 2, "fu": 30}, {"winner": p["Cy"], "han": 3, "fu": 40}],
        },
    )
    page = signed_in(browser, live_server, head_bump, language)
    page.goto(f"{live_server.url}/games/{head_bump.pk}/entry/")
    assert page.locator(".head-bump").is_visible()
    assert words["hint"] in page.locator(".head-bump").inner_text()
    assert page.locator("summary", has_text=words["more"]).count() == 0
    assert words["bumped"] in page.locator("body").inner_text()
    screenshot(page, f"entry-head-bump-{language}")
    # The hint as a thumb scrolls to it, above the sticky buttons (a full-page picture puts them over it).
    page.locator(".head-bump").evaluate("e => e.scrollIntoView({block: 'center'})")
    page.screenshot(path=str(SCREENSHOTS / f"entry-head-bump-{language}-hint.png"))
    # Editing that hand: both declarations are in the form, the second opened, the head bump said.
    page.goto(f"{live_server.url}/games/{head_bump.pk}/entry/?edit=0")
    assert page.locator("summary", has_text=words["declared"]).is_visible()
    assert page.is_checked(f"input[name=win2_winner][value='{p['Cy']}']")
    page.locator("summary", has_text=words["declared"]).evaluate("e => e.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(SCREENSHOTS / f"entry-head-bump-{language}-edit.png"))
    page.context.close()

    several, _ = game_under("ema-2016")
    page = signed_in(browser, live_server, several, language)
    page.goto(f"{live_server.url}/games/{several.pk}/entry/")
    # Inline, no tap to open it: the second winner's chips are on the page (test_six_taps counts the taps).
    more = page.get_by_role("group", name=words["more"])
    assert more.is_visible()
    assert page.locator(".head-bump").count() == 0
    assert more.locator("label:has(input[name=win2_winner]:not([value='']))").first.is_visible()
    screenshot(page, f"entry-double-ron-{language}")
    page.context.close()
