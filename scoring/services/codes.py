"""Codes people type (a table's, a player's), and the wrong ones counted against whoever sent them.

Wrong codes are CodeFailure rows in the database, so every web process and
worker sees the same count with no cache. They limit the guesser, never the
code's owner: the right code is accepted from anyone at any time, so a
stranger's guesses (from the venue's shared address or anywhere else) never
lock out the player or the table that holds it. A guesser (a browser's
session, or its address when it keeps no session) that sent
``CODE_FAILURE_LIMIT`` wrong codes for one code within ``CODE_FAILURE_WINDOW``
is told to wait; so is everyone once a code had ``CODE_FAILURE_CEILING`` wrong
tries in the last hour. Nothing more is stored for a guesser told to wait, and
each write deletes the rows older than the longer window: the table stays small.

Why the codes are long enough: because the right code always works, a program
that ignores the refusals is held back only by how fast the server answers, so
the length of the codes is what protects them. Codes are 10 characters of
base32, 2^50 (about 10^15) possibilities: at 1,000 answered requests a second,
far more than this server answers, finding one code takes 2^49 / 1000 s, about
17,800 years, on average. The shorter confirmation codes of the players
registered before (8 characters, 2^40) take about 17 years at that rate, and a
reissue replaces them with long ones. A person who heeds the refusals gets at
most CODE_FAILURE_CEILING (60) wrong tries an hour at one code: 2^49 / 60 hours.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, QuerySet
from django.utils import timezone

from rules.errors import Problem, Refusal
from scoring.models import CodeFailure
from tournament.errors import TooManyTries

HOUR = timedelta(hours=1)
# Base32 has no 0, 1 or 8: a person who reads O, I or B as a digit still gets in.
LOOK_ALIKE = str.maketrans({"0": "O", "1": "I", "8": "B"})


def guesser_of(session_key: str | None, address: str) -> str:
    """Who sent a code: the browser's session when it has one, else its address; hashed, as neither is to be
    stored (a session key opens the session)."""
    who = f"session:{session_key}" if session_key else f"address:{address}"
    return hashlib.sha256(who.encode()).hexdigest()


def typed(given: str) -> str:
    """A code as a person typed it, in the form codes are compared: capitals, no dashes or spaces. Letters
    outside ASCII (a Korean keyboard's) are in no code, and compare_digest refuses them in a str."""
    return "".join(ch for ch in given.upper() if ch.isascii() and ch.isalnum()).translate(LOOK_ALIKE)


def code_attempt(*, scope: str, guesser: str, given: str, expected: Sequence[str], too_many: str, wrong: str) -> int:
    """Which of ``expected`` the code a person typed is (its index); else Refusal(``wrong``), counted against
    the guesser, or TooManyTries(``too_many``, with the minutes to wait) once over a limit."""
    code = typed(given)
    for index, candidate in enumerate(expected):
        if hmac.compare_digest(code, candidate.replace("-", "")):
            CodeFailure.objects.filter(scope=scope, guesser=guesser).delete()  # its own typos are forgiven
            return index
    now = timezone.now()
    window: timedelta = settings.CODE_FAILURE_WINDOW
    CodeFailure.objects.filter(at__lt=now - max(window, HOUR)).delete()
    wait = _wait(
        CodeFailure.objects.filter(scope=scope, guesser=guesser), settings.CODE_FAILURE_LIMIT, window, now
    ) or _wait(CodeFailure.objects.filter(scope=scope), settings.CODE_FAILURE_CEILING, HOUR, now)
    if wait:
        raise TooManyTries([Problem("code", too_many % {"minutes": math.ceil(wait / 60)})], retry_after=wait)
    CodeFailure.objects.create(scope=scope, guesser=guesser, at=now)
    raise Refusal.one("code", wrong)


def _wait(failures: QuerySet[CodeFailure], limit: int, window: timedelta, now: datetime) -> int:
    """Seconds until fewer than ``limit`` of ``failures`` fall in the window; 0 when they already do."""
    times = list(failures.filter(at__gte=now - window).order_by("-at").values_list("at", flat=True)[:limit])
    if len(times) < limit:
        return 0
    return max(1, math.ceil((times[-1] + window - now).total_seconds()))


def recent_failures(scopes: Iterable[str]) -> dict[str, int]:
    """Wrong codes in the last hour for each scope that had any (the organisers' console shows them)."""
    rows = (
        CodeFailure.objects.filter(scope__in=list(scopes), at__gte=timezone.now() - HOUR)
        .values("scope")
        .annotate(n=Count("id"))
    )
    return {row["scope"]: row["n"] for row in rows}
