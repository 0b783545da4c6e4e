"""In Chromium: axe-core (WCAG 2.2 AA) finds nothing on any page signed in as the events' organiser, at 360 and
1280 px, and no page is wider than the screen (the walk is tests/e2e/axe_walk.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.axe_walk import walk

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.slow  # two minutes or more: every page, the organiser's included, twice
def test_no_page_has_an_axe_violation_signed_in(live_server: Any, browser: Any, axe_script: str):
    walk(live_server, browser, axe_script, signed_in=True)
