"""In Chromium, by keyboard alone: Tab reaches every control of the referee's entry page and of the organiser's
console, each shows the focus ring where it is (the chips' hidden radio buttons on their label); a chosen han is
taken back with Space, as a second tap does."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.accessible_event import PASSWORD, build

pytestmark = pytest.mark.django_db(transaction=True)
# The element Tab reached, whether it (or, for a chip's hidden radio, its label) shows a ring of 2 px or more.
FOCUSED = """() => { const e = document.activeElement;
  const shown = e.matches('label > input') ? e.closest('label') : e;
  const style = getComputedStyle(shown);
  return {key: e.tagName + ' ' + (e.name || e.id || e.textContent.trim().slice(0, 30)) + ' ' + (e.value || ''),
          ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2}; }"""
CONTROLS = """() => [...document.querySelectorAll(
  'a[href], button, input:not([type=hidden]), select, textarea, summary')]
  .filter(e => e.checkVisibility() && !e.disabled).length"""


def tab_through(page: Any) -> list[dict[str, Any]]:
    """Tab from the top of the page to its end (the focus comes back to the body or to the first control)."""
    reached: list[dict[str, Any]] = []
    for _ in range(400):
        page.keyboard.press("Tab")
        now = page.evaluate(FOCUSED)
        if now["key"].startswith("BODY") or (reached and now["key"] == reached[0]["key"]):
            break
        reached.append(now)
    return reached


@pytest.mark.parametrize("path", ["/games/{open_waiting}/entry/", "/events/open/manage/"], ids=["entry", "console"])
def test_every_control_is_reached_by_tab_and_shows_the_ring(live_server: Any, page: Any, path: str):
    made = build()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "org")
    page.fill("input[name=password]", PASSWORD)
    page.keyboard.press("Enter")  # the form is sent from the keyboard too
    page.wait_for_url("**/me/")
    page.goto(live_server.url + path.format(**made.ids))
    reached = tab_through(page)
    # A group of radio buttons is one Tab stop (the arrows move inside it): the page's controls, less those.
    radios = page.evaluate(
        "() => [...document.querySelectorAll('input[type=radio]')].filter(e => e.checkVisibility()).map(e => e.name)"
    )
    assert len(reached) >= page.evaluate(CONTROLS) - (len(radios) - len(set(radios)))
    assert [r["key"] for r in reached if not r["ring"]] == []


def test_space_takes_back_a_chosen_han(live_server: Any, page: Any):
    made = build()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "org")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url("**/me/")
    page.goto(f"{live_server.url}/games/{made.ids['open_waiting']}/entry/")
    three = page.locator("input[name=han][value='3']")
    three.focus()
    page.keyboard.press("Space")
    assert three.is_checked()
    page.keyboard.press("Space")
    assert not three.is_checked()
    assert page.locator("input[name=han]:checked").count() == 0
