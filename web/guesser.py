"""Who sent a code, from the request: the one place the pages read it (scoring.services.codes counts the tries)."""

from __future__ import annotations

from django.http import HttpRequest

from scoring.services.codes import guesser_of


def guesser(request: HttpRequest) -> str:
    """The browser's session when the server holds it, else its address. A made-up session cookie on every try
    must not make each try a new guesser, so a session the server does not hold counts as none."""
    key = request.session.session_key
    known = key if key and request.session.exists(key) else None
    return guesser_of(known, request.META.get("REMOTE_ADDR", ""))
