"""In Chromium at 360 and 1280 px: the organiser previews the cut into a top-4 final, decides the tie at the line
by ticking the players who go on, confirms, seats the final's first round by rank, and (at 1280 px) undoes the
cut before it is played. No page scrolls sideways.

The event (tests/web/stage_event.py): Ann and Eve +55.0 go on; Bo, Cy and Fay +20.0 are tied at the line for
the two places left.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.e2e.conftest import DESKTOP, PHONE
from tests.web.stage_event import with_final
from tournament.models import Game, Stage

pytestmark = pytest.mark.django_db(transaction=True)
CUT = "/events/spring-cup/manage/stages/2/cut/"


def fits(page: Any, size: dict[str, int]) -> None:
    """The page reads without scrolling sideways at this width."""
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= size["width"], f"{page.url} is {width} px wide at {size['width']} px"


def signed_in(page: Any, url: str) -> dict[str, Any]:
    organiser = User.objects.create_user("org", password="organiser-pass-1")
    _event, players, final = with_final(organiser)
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", "org")
    page.fill("input[name=password]", "organiser-pass-1")
    page.click("main button[type=submit]")
    page.wait_for_url("**/me/")
    return {"players": players, "final": final}


def tick(page: Any, name: str) -> None:
    page.locator("table.tied tr", has_text=name).locator("label.tick-box").click()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["360", "1280"])
def test_the_organiser_decides_the_tie_at_the_line_and_seats_the_final(
    live_server: Any, page: Any, size: dict[str, int]
):
    page.set_viewport_size(size)
    made = signed_in(page, live_server.url)
    page.goto(live_server.url + CUT)
    assert page.locator("table.going tbody tr").all_inner_texts() == ["=1\tAnn\t55.0\t+27.50", "=1\tEve\t55.0\t+27.50"]
    assert "Tied at the line: 3 players for 2 places" in page.inner_text("#tie")
    assert page.locator("#tie input[type=checkbox]").count() == 3
    fits(page, size)

    tick(page, "Fay")  # one of two
    page.click("text=Confirm the cut")
    page.wait_for_load_state()
    assert "tick 2 of the tied players (1 ticked)" in page.inner_text("#tie")
    assert page.locator("table.tied tr", has_text="Fay").locator("input").is_checked()  # the choice is kept
    assert Stage.objects.get(pk=made["final"].pk).through is None
    fits(page, size)

    tick(page, "Bo")
    page.click("text=Confirm the cut")
    page.wait_for_load_state()
    assert "Confirmed: 4 go on." in page.inner_text("main")
    players = made["players"]
    assert Stage.objects.get(pk=made["final"].pk).through == [players[n].pk for n in ("Ann", "Eve", "Bo", "Fay")]
    assert "Cy" in page.inner_text("main").split("Tied at the line, not chosen", 1)[1]
    fits(page, size)

    page.click("text=Add Final's first round and seat it")
    page.wait_for_url("**/manage/rounds/3/")
    assert page.locator("input[name=method][value=rank]").is_checked()
    page.click("button[value=seat]")
    page.wait_for_load_state()
    fits(page, size)
    game = Game.objects.get(table__round__number=3)
    assert [s.player.name for s in game.seats.order_by("position")] == ["Ann", "Eve", "Bo", "Fay"]


def test_the_cut_is_undone_before_the_final_is_played(live_server: Any, page: Any):
    page.set_viewport_size(DESKTOP)
    made = signed_in(page, live_server.url)
    page.goto(live_server.url + CUT)
    tick(page, "Bo")
    tick(page, "Cy")
    page.click("text=Confirm the cut")
    page.wait_for_load_state()
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("text=Undo the cut")
    page.wait_for_load_state()
    assert "The cut into Final is undone" in page.inner_text("main")
    assert page.locator("#tie input[type=checkbox]:checked").count() == 0  # the tie is open again
    assert Stage.objects.get(pk=made["final"].pk).through is None
    fits(page, DESKTOP)
