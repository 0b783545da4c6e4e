"""A real browser against the running server: Playwright driving Debian's Chromium.

The server is pytest-django's live server (a real HTTP server on the test
database). Chromium must be installed (``apt-get install chromium``; the
Makefile and .ci/run do it): the tests fail rather than skip without it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from tests.factories import EventFactory, RoundFactory, TableFactory, played, registered
from tournament.models import Event

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make around it are
# ordinary blocking calls, which Django would otherwise refuse inside a running loop.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).parent / "screenshots"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
AXE = Path(settings.BASE_DIR) / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (make test does it where apt-get works)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    # Playwright evaluates a string predicate (wait_for_function("x === 1")) with eval, which the site's
    # Content-Security-Policy refuses: the other tests drive the pages past it, and
    # test_content_security_policy.py loads them under it (``strict_page``).
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def strict_page(browser: Any) -> Iterator[Any]:
    """A page under the site's Content-Security-Policy, as a visitor's browser loads it."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def screenshot(page: Any, name: str) -> None:
    """The page at phone and desktop widths, for a person to look at (not compared by the tests)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(PHONE)


@pytest.fixture
def tournament() -> dict[str, Any]:
    """A running public wrc-2025 event: round 1, one table, Ann (East) has won 7700 from Cy."""
    event = EventFactory.create(name="Phone Open", slug="phone-open", status=Event.Status.RUNNING)
    players = registered(event, "Ann", "Bo", "Cy", "Di")
    ids = {p.name: p.pk for p in players}
    table = TableFactory.create(round=RoundFactory.create(event=event, number=1), number=1)
    game = played(
        event, players, [{"result": "ron", "winner": ids["Ann"], "loser": ids["Cy"], "han": 3, "fu": 40}], table=table
    )
    return {"event": event, "game": game, "ids": ids}


@pytest.fixture(scope="module")
def axe_script() -> str:
    """axe-core's script, for the accessibility walk (tests/e2e/axe_walk.py)."""
    if not AXE.exists():
        if os.environ.get("REQUIRE_AXE"):
            pytest.fail(f"{AXE} is missing: run `npm ci` (make test does)")
        pytest.skip(f"axe-core is not installed ({AXE}): `npm ci` installs it (make test does, where npm is)")
    return AXE.read_text(encoding="utf-8")
