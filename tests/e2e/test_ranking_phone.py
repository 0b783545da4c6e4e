"""In Chromium at 360x740: a ranking's page never scrolls sideways, and a row opens on its explanation."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.services.ranking_import import results_import
from tests.e2e.conftest import screenshot
from tests.e2e.test_public_phone import assert_fits

pytestmark = pytest.mark.django_db(transaction=True)

CSV = (
    "event_id,event_name,date,days,players,countries,weight,federation_id,name,country,place\n"
    "E1,Riichi Open of a Very Long Name in Copenhagen,2025-01-11,2,50,7,,04290031,Bartholomew Featherstonehaugh,"
    "DK,1\n"
    "E1,Riichi Open of a Very Long Name in Copenhagen,2025-01-11,2,50,7,,07000002,Bo Lind,SE,50\n"
    "E2,Spring Cup,2025-01-18,1,20,2,2.5,04290031,Bartholomew Featherstonehaugh,DK,20\n"
    "E2,Spring Cup,2025-01-18,1,20,2,2.5,07000002,Bo Lind,SE,1\n"
)


def test_a_ranking_fits_a_phone_and_explains_a_row(live_server: Any, page: Any):
    results_import(CSV)
    page.goto(f"{live_server.url}/rankings/ema/?as_of=2025-01-22")
    assert_fits(page)
    row = page.locator("details.explain").first
    assert not row.locator("ul.results").is_visible()
    row.locator("summary").click()
    assert row.locator("ul.results li.counted").count() == 2
    assert "1 of 50 → 1000 · weight 3 × time 1" in row.locator("ul.results li").first.inner_text()
    assert_fits(page)
    score = page.locator("table.ranking tbody tr td.score").first
    box = score.bounding_box()
    assert box["x"] + box["width"] <= 360  # the score stays on the screen with the explanation open
    screenshot(page, "phone-ranking")
    page.fill("#as_of", "2026-01-14")
    page.locator("form.as-of button").click()
    page.wait_for_url("**as_of=2026-01-14")  # the date picker asks for a year later: the results are halved
    later = page.locator("details.explain").first
    later.locator("summary").click()
    assert "weight 3 × time 0.5" in later.locator("ul.results").inner_text()
