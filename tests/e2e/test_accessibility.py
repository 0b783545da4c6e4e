"""In Chromium: axe-core (WCAG 2.2 AA) finds nothing on any page signed out, at 360 and 1280 px, and no page is
wider than the screen (the walk is tests/e2e/axe_walk.py; signed in, tests/e2e/test_accessibility_signed_in.py).

A new page without a case fails ``test_every_page_has_a_case``. Without axe-core installed the walk skips, unless
REQUIRE_AXE is set (CI sets it): then it fails.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.e2e.axe_walk import CASES, NOT_PAGES, POST_ONLY, site_names, walk

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_page_has_a_case():
    """A new page fails here until the walk below visits it (or it is named as no page, or as a POST)."""
    names = site_names()
    assert {"home", "game-entry", "console", "login"} <= names.keys()  # the walk found the site
    assert sorted(names.keys() - CASES.keys() - NOT_PAGES - POST_ONLY) == []
    assert sorted(name for name in CASES if name not in names) == []  # no case for a page that is gone
    assert sorted(name for name, paths in CASES.items() if not paths and name not in POST_ONLY) == []


def test_the_post_only_paths_are_no_page():
    client = Client()
    client.force_login(User.objects.create_user("org"))
    for name in POST_ONLY:
        route = site_names()[name]
        path = "/" + route.replace("<slug:slug>", "open").replace("<id:number>", "1").replace(
            "<id:player_id>", "1"
        ).replace("<id:user_id>", "1").replace("<id:team_id>", "1")
        assert client.get(path).status_code == 405, path


@pytest.mark.slow  # a minute or more: every page, twice
def test_no_page_has_an_axe_violation_signed_out(live_server: Any, browser: Any, axe_script: str):
    walk(live_server, browser, axe_script, signed_in=False)
