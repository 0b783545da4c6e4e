"""In Chromium at 360 px: a referee opens the organiser's link signed out, creates an account and reaches their
table's entry page, every click and fill counted; no page scrolls sideways, and the first table is on the first
screen (no swipe)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from scoring.services.games import round_seat
from tests.e2e.conftest import PHONE, screenshot
from tests.factories import EventFactory, RoundFactory, registered
from tournament.models import Event
from tournament.services.invites import invite_renew
from tournament.services.seating import Method

pytestmark = pytest.mark.django_db(transaction=True)
MAX_STEPS = 6  # the four fields, "Create my account", the table


def test_a_referee_signs_up_from_the_link_and_reaches_their_table_in_six_steps(live_server: Any, page: Any):
    organiser = User.objects.create_user("org")
    event = EventFactory.create(
        slug="spring", name="Spring Cup", public=True, status=Event.Status.RUNNING, organisers=[organiser]
    )
    registered(event, *[f"Player {n}" for n in range(12)])
    RoundFactory.create(event=event, number=1)
    round_seat(event=event, number=1, method=Method.RANDOM, seed=3)
    link = f"{live_server.url}/events/spring/referee/{invite_renew(event=event, role='referee').referee_invite}/"
    steps: list[str] = []

    def step(what: str, action: Any) -> None:
        steps.append(what)
        action()
        page.wait_for_load_state()

    def fits() -> None:
        width = page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= PHONE["width"], f"{page.url} is {width} px wide"

    page.goto(link)  # the link, opened from the organiser's message: not a step
    fits()
    screenshot(page, "accounts-sign-up")
    for name, value in (
        ("username", "hana"),
        ("email", "hana@example.org"),
        ("password1", "tile-wall-dragon-42"),
        ("password2", "tile-wall-dragon-42"),
    ):
        step(f"fill {name}", lambda n=name, v=value: page.fill(f"input[name={n}]", v))
    step("click Create my account", lambda: page.click("form.account button[type=submit]"))
    page.wait_for_url("**/me/#tables")
    fits()
    first = page.locator("#tables a[href$='/entry/']").first
    box = first.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= PHONE["height"], box  # on the first screen
    screenshot(page, "accounts-my-tables")
    step("click table 1", lambda: first.click())
    assert page.locator("input[name=result]").count() > 0  # the entry form, ready for the first hand
    table_one = event.games.get(table__number=1)
    assert page.url.endswith(f"/games/{table_one.pk}/entry/")
    assert event.can_score(User.objects.get(username="hana"))
    assert len(steps) <= MAX_STEPS, steps
