"""In Chromium at 360 px: the standings with movement, federation columns, points per round and teams fit the
phone (the page never scrolls sideways), and a points-per-round panel stays open while the table refreshes."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from scoring.models import Penalty
from scoring.services.standings import standings_recompute
from tests.e2e.conftest import screenshot
from tests.factories import EventFactory, RoundFactory, TableFactory, played, registered
from tournament.models import Event, Player, Registration, Team

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Annemarie Vandenberghe-Oosterhuis", "Bo", "Cyprien de la Tour d'Auvergne", "Di", "Ed", "Fay", "Gus", "Hal")


@pytest.fixture
def team_event() -> Event:
    """Two rounds of two tables (wrc-2025), every player with a federation id and a country, two teams."""
    event = EventFactory.create(
        name="Phone Team Open", slug="phone-teams", status=Event.Status.RUNNING, team_ranking="best", team_best=3
    )
    p = registered(event, *NAMES)
    for i, player in enumerate(p):
        Player.objects.filter(pk=player.pk).update(federation_id=f"04-12{i:04d}", country="Netherlands")
    for name, members in (("Amsterdam Riichi Club", p[:4]), ("Utrecht", p[4:])):
        Registration.objects.filter(event=event, player__in=members).update(
            team=Team.objects.create(event=event, name=name)
        )
    rounds = ([p[0], p[1], p[2], p[3]], [p[4], p[5], p[6], p[7]]), ([p[2], p[4], p[1], p[7]], [p[3], p[6], p[0], p[5]])
    for number, tables in enumerate(rounds, start=1):
        round_ = RoundFactory.create(event=event, number=number)
        for table_number, seats in enumerate(tables, start=1):
            hand = {"result": "ron", "winner": seats[table_number].pk, "loser": seats[3].pk, "han": 3, "fu": 40}
            played(event, seats, [hand], table=TableFactory.create(round=round_, number=table_number), end=True)
    standings_recompute(event)
    return event


def test_the_standings_fit_a_phone_and_the_rounds_stay_open(live_server: Any, page: Any, team_event: Event):
    page.goto(f"{live_server.url}/events/{team_event.slug}/standings/")
    assert page.locator("table.standings .move").count() == 8  # every ranked player has a movement mark
    assert page.locator("#teams").is_visible()
    # Federation id and country are there for wide screens, hidden on a phone: the page never scrolls sideways.
    assert page.locator("th", has_text="Federation ID").is_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    points = page.locator("details.rounds").first
    points.locator("summary").click()
    assert points.locator("li").count() == 2  # round 1 and round 2
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "standings-teams")
    # A change to the standings while the panel is open: the refreshed table keeps it open.
    opened = points.get_attribute("id")
    Penalty.objects.create(event=team_event, player=Player.objects.get(name="Hal"), points=Decimal("-1"), reason="late")
    standings_recompute(team_event)
    page.evaluate("document.querySelector('#standings table').dataset.old = 'yes'")
    page.wait_for_function("() => !document.querySelector('#standings table[data-old]')", timeout=40_000)  # polled
    assert "Hal -41.4" in page.locator("#standings").inner_text()  # −20.2 twice, −1 late: the new table
    assert page.locator(f"#{opened}").evaluate("details => details.open")
    page.set_viewport_size({"width": 1280, "height": 900})
    assert page.locator("th", has_text="Federation ID").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
