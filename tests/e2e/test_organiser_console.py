"""In Chromium at 360 px: a new organiser runs a 12-player event from the browser, counted step by step.

From "create event" to the first hand's entry page the issue measured 78 steps and 23 page loads in the
admin; the target is at most 15 steps. Every click and every fill is a step here; no page scrolls sideways.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.e2e.conftest import PHONE, screenshot
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db(transaction=True)
NAMES = ["Ann Lee", "Bo Kim", "Cy Park", "Dee Choi", "Eve Han", "Fay Jung", "Gus Yoon", "Hana Lim", "Ivy Seo",
         "Jun Oh", "Kai Moon", "Lee Shin"]
MAX_STEPS = 15


class Counted:
    """The page, with each action a person takes counted, and the page loads it causes."""

    def __init__(self, page: Any) -> None:
        self.page, self.loads = page, 0
        self.steps: list[str] = []
        page.on("load", self._loaded)

    def _loaded(self, _page: Any) -> None:
        self.loads += 1

    def click(self, selector: str) -> None:
        self.steps.append(f"click {selector}")
        self.page.click(selector)
        self.page.wait_for_load_state()

    def fill(self, selector: str, value: str) -> None:
        self.steps.append(f"fill {selector}")
        self.page.fill(selector, value)

    def fits(self) -> None:
        """The page reads without scrolling sideways at 360 px."""
        width = self.page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= PHONE["width"], f"{self.page.url} is {width} px wide"


def test_a_new_organiser_reaches_the_first_hand_in_at_most_15_steps(live_server: Any, page: Any):
    User.objects.create_user("org", password="organiser-pass-1")
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "org")
    page.fill("input[name=password]", "organiser-pass-1")
    page.click("button[type=submit]")
    page.wait_for_url("**/me/")

    walk = Counted(page)  # from here on every action counts
    walk.click("a[href='/events/new/']")
    walk.fill("input[name=name]", "Thursday Cup")
    walk.click("form.form button[type=submit]")
    walk.fits()
    walk.fill("textarea[name=text]", "\n".join(NAMES))
    walk.click("button[value=check]")
    assert "12 lines read" in page.inner_text("main")
    walk.fits()
    walk.click("button[value=register]")
    walk.click("a.button[href$='/manage/rounds/1/']")
    walk.click("button[value=preview]")
    walk.fits()
    walk.click("button[value=seat]")
    walk.fits()
    screenshot(page, "console-round-seated")
    walk.click("a[href$='/entry/'] >> nth=0")
    assert page.locator("input[name=result]").count() > 0  # the referee's form, ready for the first hand

    event = Event.objects.get(name="Thursday Cup")
    assert event.registrations.count() == 12
    assert Game.objects.filter(event=event, table__round__number=1).count() == 3
    assert len(walk.steps) <= MAX_STEPS, walk.steps
    assert walk.loads <= len(walk.steps), walk.loads
    print(f"organiser: {len(walk.steps)} steps, {walk.loads} page loads to the first hand's form")
