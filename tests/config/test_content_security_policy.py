"""Every answer carries a Content-Security-Policy that runs no inline code (issue 25, item 11); so the
templates keep none: no inline script, no event handler attribute, no style block or attribute."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db

INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE), "an inline <script>"),
    (re.compile(r"\son[a-z]+\s*=", re.IGNORECASE), "an event handler attribute"),
    (re.compile(r"<style\b", re.IGNORECASE), "a <style> block"),
    (re.compile(r"\sstyle\s*=", re.IGNORECASE), "a style attribute"),
]


def directives(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {name: values for name, *values in (part.split() for part in header.split(";") if part.strip())}


@pytest.mark.parametrize(
    "path", ["/", "/events/nope/", "/accounts/login/", "/api/v1/rulesets/", "/health/", "/admin/login/", "/api/nothing"]
)
def test_every_answer_runs_only_the_sites_own_scripts(path: str):
    policy = directives(Client().get(path))
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]


def test_the_api_docs_page_lets_in_its_inline_styles_only():
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert re.search(r'<script src="/api/docs/\?[^"]*script=', page)  # its set-up script is a file of its own
    assert "<script>" not in page
    policy = directives(response)
    assert (policy["script-src"], policy["style-src"]) == (["'self'"], ["'self'", "'unsafe-inline'"])
    script = Client().get("/api/docs/?script=")
    assert (script.status_code, script["Content-Type"].split(";")[0]) == (200, "application/javascript")


def test_no_template_holds_inline_code():
    found = [
        f"{path.relative_to(settings.BASE_DIR)}: {what}"
        for path in sorted((settings.BASE_DIR / "templates").rglob("*.html"))
        for pattern, what in INLINE
        if pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_scan_finds_what_it_looks_for():
    samples = ["<script>alert(1)</script>", '<select onchange="x()">', "<style>p{}</style>", '<p style="x">']
    assert [any(p.search(s) for p, _ in INLINE) for s in samples] == [True] * 4
    assert not any(p.search('<script src="/static/a.js" defer></script> <p class="one">') for p, _ in INLINE)
