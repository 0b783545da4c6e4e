"""``Content-Security-Policy`` on every answer: the pages run only the scripts and styles served from here.

Django 5.2 has no CSP of its own. The templates keep no inline script, event handler or style (their
behaviour is in web/static/site/, Swagger UI's set-up in a file of its own), so the policy allows no
inline code at all: a name or a note that slipped past escaping could not run. Inline SVG (the QR codes,
the charts) is markup, not code; ``data:`` images are Swagger UI's icons.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

HEADER = "Content-Security-Policy"
POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",  # as X-Frame-Options: DENY, for the browsers that read only this
    ]
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        response.headers.setdefault(HEADER, POLICY)  # a view that needs its own policy sets it
        return response
