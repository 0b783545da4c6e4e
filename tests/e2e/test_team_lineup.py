"""In Chromium: a team's captain names who plays from their phone (360 px), from "My events" to the saved lineup;
the organiser names the other teams at 1280 px and the table's game opens. No page scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from scoring.services.games import round_seat
from tests.e2e.conftest import DESKTOP, PHONE, screenshot
from tests.factories import EventFactory, registered
from tournament.models import Event, Game, Lineup, Team
from tournament.services.seating import Method

pytestmark = pytest.mark.django_db(transaction=True)
TEAMS = ("Seoul Dragons", "Busan Tigers", "Incheon Cranes", "Jeju Fighters with a rather long team name")


def sign_in(page: Any, url: str, name: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", f"{name}-pass-1")
    page.click("main button[type=submit]")
    page.wait_for_url("**/me/")


def fits(page: Any, width: int) -> None:
    scrolled = page.evaluate("document.scrollingElement.scrollWidth")
    assert scrolled <= width, f"{page.url} is {scrolled} px wide at {width} px"


def test_a_captain_names_who_plays_on_a_phone_and_the_organiser_the_rest(live_server: Any, browser: Any):
    organiser = User.objects.create_user("org", password="org-pass-1")
    captain = User.objects.create_user("cap", password="cap-pass-1")
    event = EventFactory.create(
        slug="league",
        ruleset_key="m-league",
        entrants=Event.Entrants.TEAMS,
        team_ranking=Event.TeamRanking.SUM,
        public=False,
        organisers=[organiser],
    )
    for name in TEAMS:
        team = Team.objects.create(event=event, name=name, captain=captain if name == TEAMS[3] else None)
        registered(event, f"{name.split()[0]} One", f"{name.split()[0]} Two", team=team)
    event.rounds.create(number=1)
    round_seat(event=event, number=1, method=Method.RANDOM, seed=5)

    phone = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = phone.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server.url, "cap")
    page.click("a[href='/events/league/rounds/1/lineup/']")  # "Teams I captain": the round to name
    fits(page, PHONE["width"])
    assert page.locator("select[name^=team-]").count() == 1  # their own team's, and no other
    page.select_option("select[name^=team-]", label="Jeju Two")
    page.click("button:has-text('Save who plays')")
    page.wait_for_load_state()
    assert "1 player named." in page.inner_text("main")
    assert page.locator("select[name^=team-] option:checked").inner_text().strip() == "Jeju Two"
    fits(page, PHONE["width"])
    screenshot(page, "team-lineup-captain")
    phone.close()
    assert Lineup.objects.get().player.name == "Jeju Two"

    desktop = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    page = desktop.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server.url, "org")
    page.goto(f"{live_server.url}/events/league/manage/rounds/1/")
    assert page.locator("select[name^=team-]").count() == 4
    for name in TEAMS[:3]:
        team = Team.objects.get(name=name)
        page.select_option(f"select[name=team-{team.pk}]", label=f"{name.split()[0]} One")
    page.click("button:has-text('Save who plays')")
    page.wait_for_load_state()
    assert page.url.endswith("/manage/rounds/1/")  # back where the organiser named them
    game = Game.objects.get(table__round__number=1)
    assert page.locator(f"#lineups a[href='/games/{game.pk}/']").count() == 1  # the game opened, linked
    fits(page, DESKTOP["width"])
    page.set_viewport_size(PHONE)
    fits(page, PHONE["width"])
    desktop.close()
    assert sorted(s.player.name for s in game.seats.all()) == ["Busan One", "Incheon One", "Jeju Two", "Seoul One"]
