"""What the entry page answers the browser's offline queue (offline.js): JSON that says whether the hand is stored.

The queue sends each waiting hand as the entry form's own POST with the header
``X-Offline-Queue: 1``. A hand may leave the queue only when the answer says
``"stored": true``, which is given after the write has committed (or, for a hand
sent again with the same key, after the first send had committed). Every other
answer keeps it waiting and names the reason, so the page can say why and offer
what helps: sign in again, open the table again with its code, re-apply, drop.
A redirect is never an answer here: a login page at the end of one must not pass
for a saved hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.errors import Problem
from scoring.edge.writers import Barred
from tournament.models import Game
from web import refusals

HEADER = "X-Offline-Queue"
NOT_A_WRITER = gettext_lazy("Only the event's organisers and referees enter hands.")


def from_queue(request: HttpRequest) -> bool:
    """The request was sent by the offline queue, which reads JSON answers."""
    return request.headers.get(HEADER) == "1"


def stored(*, number: int, version: int, again: bool) -> JsonResponse:
    """The hand is on the server: hand ``number``, the game now at ``version`` (the next waiting hand's base)."""
    return JsonResponse(
        {"stored": True, "hand": number, "version": version, "again": again}, status=200 if again else 201
    )


def refused(problems: Iterable[Problem]) -> JsonResponse:
    """The hand is invalid as it stands: the referee must change or drop it, sending it again would not help."""
    return _not_stored(
        400, "refused", _("The server refused this hand."), problems=refusals.texts(list(problems), paths=True)
    )


def conflict() -> JsonResponse:
    return _not_stored(409, "conflict", _("Another referee changed this game while this hand waited."))


def not_writer(reason: Barred, game: Game) -> JsonResponse:
    """Why this session may not write here any more (scoring.edge.writers), and where to go to write again."""
    if reason is Barred.CODE:
        return _not_stored(
            403,
            "code",
            _("The table's code was changed: open the table again with the code on its card. The hand waits here."),
            url=reverse("game-code", args=[game.pk]),
        )
    if reason is Barred.HIDDEN:
        raise Http404("no such game")  # a private event's game, to a stranger, as the page answers it
    signin = redirect_to_login(reverse("game-entry", args=[game.pk]))["Location"]
    if reason is Barred.SIGN_IN:
        return _not_stored(401, "signin", _("Your sign-in has ended: sign in again. The hand waits here."), url=signin)
    return _not_stored(403, "forbidden", str(NOT_A_WRITER), url=signin)


def _not_stored(status: int, reason: str, message: str, **more: Any) -> JsonResponse:
    return JsonResponse({"stored": False, "reason": reason, "message": message, **more}, status=status)
