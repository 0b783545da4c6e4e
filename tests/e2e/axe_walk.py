"""The accessibility walk: axe-core (WCAG 2.2 AA) on every page, in Chromium, at 360 and 1280 px, and no page wider
than the screen.

axe-core is the npm package (package.json pins it; ``make test`` runs ``npm ci``). Every named page of the site
(web/urls.py) and the accounts pages has a case below, on the events of tests/e2e/accessible_event.py. Signed in is
as their organiser, also a referee. The walk signed out (tests/e2e/test_accessibility.py) and signed in
(tests/e2e/test_accessibility_signed_in.py) are in modules of their own, so that two of ``make test``'s workers,
which take a module each, walk at once.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

from tests.e2e.accessible_event import PASSWORD, Made, build
from tests.e2e.conftest import DESKTOP, PHONE

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# Each named page, as paths on the events ({name} from Made.ids; {invite} the open event's referee link).
CASES: dict[str, list[str]] = {
    "home": ["/"],
    "event-new": ["/events/new/"],
    "event": ["/events/open/", "/events/spring-cup/", "/events/league/", "/events/solo-cup/", "/events/mcr-open/"],
    "standings": [
        "/events/open/standings/",
        "/events/spring-cup/standings/",
        "/events/league/standings/",
        "/events/solo-cup/standings/",
        "/events/mcr-open/standings/",
    ],
    "round": ["/events/open/rounds/1/", "/events/spring-cup/rounds/2/", "/events/league/rounds/1/"],
    "round-print": ["/events/open/rounds/1/print/"],
    "player": ["/events/open/players/{open_player}/", "/events/spring-cup/players/{cup_player}/"],
    "stages": ["/events/spring-cup/stages/"],
    "rankings": ["/rankings/"],
    "ranking": ["/rankings/ema/", "/rankings/spring-cup/"],
    "leaderboards": ["/events/open/leaderboards/", "/events/mcr-open/leaderboards/"],
    "career": ["/players/{open_player}/"],
    "game": ["/games/{open_game}/", "/games/{cup_game}/", "/games/{solo_game}/", "/games/{mcr_game}/"],
    "game-entry": [
        "/games/{open_game}/entry/",
        "/games/{open_game}/entry/?edit=0",
        "/games/{open_waiting}/entry/",
        "/games/{mcr_game}/entry/",
        "/games/{solo_game}/entry/",
    ],
    "game-code": ["/games/{open_waiting}/code/"],
    "game-scores": ["/games/{cup_game}/scores/"],
    "game-confirm": ["/games/{open_game}/confirm/"],
    "event-codes": ["/events/open/codes/"],
    "confirm-open": ["/confirm/"],
    "my-events": ["/me/"],
    "console": ["/events/open/manage/", "/events/spring-cup/manage/", "/events/league/manage/"],
    "console-settings": ["/events/open/manage/settings/"],
    "console-invite": [],  # a POST (below); the link it makes is shown on the console
    "referee-join": ["/events/open/referee/{invite}/"],
    "console-players": ["/events/open/manage/players/", "/events/league/manage/players/"],
    "console-player": ["/events/open/manage/players/{open_player}/"],
    "game-by-scores": ["/events/open/games/new/"],
    "console-stages": ["/events/spring-cup/manage/stages/"],
    "console-stage": ["/events/spring-cup/manage/stages/2/"],
    "console-cut": ["/events/spring-cup/manage/stages/2/cut/"],
    "console-round": [
        "/events/open/manage/rounds/1/",
        "/events/open/manage/rounds/2/",
        "/events/league/manage/rounds/1/",
    ],
    "console-cards": ["/events/open/manage/rounds/1/cards/"],
    "teams": ["/events/league/teams/"],
    "team": ["/events/league/teams/{team}/"],
    "round-lineup": ["/events/league/rounds/1/lineup/"],
    "login": ["/accounts/login/"],
    "password_reset": ["/accounts/password_reset/"],
    "password_reset_done": ["/accounts/password_reset/done/"],
    "password_reset_confirm": ["/accounts/reset/{reset}/", "/accounts/reset/MQ/not-a-token/"],
    "password_reset_complete": ["/accounts/reset/done/"],
    "claim": ["/me/claim/"],
    "organiser-join": ["/events/open/organise/{organiser_invite}/"],
    "projector": ["/events/open/projector/", "/events/spring-cup/projector/"],
    "game-overlay": ["/games/{open_game}/overlay/", "/games/{mcr_game}/overlay/"],
}
# Named paths that are no page: files, redirects, and the forms' POST targets (each answers GET with 405).
NOT_PAGES = {"service-worker", "language", "standings-csv", "results-csv", "leaderboards-csv", "live"}
POST_ONLY = {
    "console-publish",
    "console-invite",
    "console-referee-remove",
    "console-player-merge",
    "console-withdraw",
    "console-player-code",
    "console-stage-delete",
    "console-cut-undo",
    "console-round-new",
    "console-unseat",
    "console-clock",
    "console-end",
    "console-reopen",
    "console-substitute",
    "console-codes",
    "console-captain",
    "console-organiser-invite",
    "logout",
}
RUN_AXE = """async tags => (await axe.run(document, {runOnly: {type: 'tag', values: tags},
  resultTypes: ['violations']})).violations.map(
  v => ({id: v.id, nodes: v.nodes.map(n => n.target.join(' ') + ' :: ' +
                                       (n.failureSummary || '').split('\\n').slice(1, 3).join(' ').trim())}))"""


def site_names() -> dict[str, str]:
    """Every named path of the site's pages (web/urls.py) and of the accounts (/accounts/), name: route."""
    found: dict[str, str] = {}

    def walk(patterns: list[URLPattern | URLResolver], prefix: str) -> None:
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                if route == "" or route.startswith("accounts/"):
                    walk(entry.url_patterns, route)
            elif entry.name and (route.startswith("accounts/") or entry.lookup_str.startswith("web.")):
                found[entry.name] = route

    walk(get_resolver().url_patterns, "")
    return found


def paths(made: Made) -> Iterator[tuple[str, str]]:
    for name, cases in CASES.items():
        for case in cases:
            yield name, case.format(invite=made.invite, **made.ids, **made.links)


def sign_in(page: Any, url: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", "org")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url("**/me/")


def check(
    page: Any, script: str, url: str, label: str, made: Made, counts: dict[str, int], widths: dict[str, int]
) -> list[str]:
    """axe-core's violations on every page at 360 and then 1280 px, one line per element: rule, width, page,
    selector, and why."""
    found: list[str] = []
    seen: set[str] = set()
    for name, path in paths(made):
        page.set_viewport_size(PHONE)
        response = page.goto(url + path)
        # Signed out, an organiser's page is the sign-in page again (checked once) or the 403 page.
        assert response is not None, path
        assert response.status in (200, 403), f"{label} {path}: {response.status}"
        landed = "403" if response.status == 403 else page.url.removeprefix(url).split("?next=")[0]
        if landed != path and landed in seen:
            continue
        seen.add(landed)
        # What a tap opens is checked too: the phone's menu, the rounds behind a player's points, a team's members;
        # at the page's end, where the entry's sticky Save bar stands in its place, over nothing.
        page.evaluate(
            "document.querySelectorAll('details').forEach(d => d.setAttribute('open', ''));"
            "window.scrollTo(0, document.documentElement.scrollHeight)"
        )
        page.add_script_tag(content=script)
        for size in (PHONE, DESKTOP):
            page.set_viewport_size(size)
            violations = page.evaluate(RUN_AXE, TAGS)
            where = f"{size['width']}px {label} {path}"
            counts[f"{where} ({name})"] = len(violations)
            widths[f"{where} ({name})"] = width = page.evaluate("document.documentElement.scrollWidth")
            if width > size["width"]:  # reflow (WCAG 1.4.10): nothing scrolls the page sideways
                found.append(f"reflow {where} ({name}): {width} px wide")
            found += [f"{v['id']} {where} ({name}): {node}" for v in violations for node in v["nodes"]]
    return found


def walk(live_server: Any, browser: Any, axe_script: str, signed_in: bool) -> None:
    """Every page of CASES, signed in or out: axe-core finds nothing, and nothing is wider than the screen."""
    made = build()
    started = time.monotonic()
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    if signed_in:
        sign_in(page, live_server.url)
    counts: dict[str, int] = {}
    widths: dict[str, int] = {}
    found = check(page, axe_script, live_server.url, "in" if signed_in else "out", made, counts, widths)
    context.close()
    if report := os.environ.get("AXE_REPORT"):  # the counts per page, for a person to read
        seconds = round(time.monotonic() - started, 1)
        with open(report, "a", encoding="utf-8") as out:
            out.write(json.dumps({"counts": counts, "widths": widths, "found": found, "seconds": seconds}) + "\n")
    assert len(counts) > 40  # the walk visited the pages
    assert found == []
