"""Who writes to a game from outside, and why someone may not: one answer for the API and the web.

The event's organisers and referees write to its games, signed in (a browser
session, an API token). Without an account, the players at a table write to
its game once their browser session was opened with the table's code
(``scoring.services.table_codes``); the API takes no table codes. Everyone
else is refused, for the reason that tells them what would help.
"""

from __future__ import annotations

from enum import StrEnum

from django.contrib.sessions.backends.base import SessionBase

from scoring.services.table_codes import table_code_lapsed, table_code_writer
from tournament.models import Game
from tournament.selectors import event_shown
from tournament.users import RequestUser, Writer


class Barred(StrEnum):
    """Why a request may not write to a game, in the order a refused writer is told."""

    CODE = "code"  # the session's table code was renewed or withdrawn: the card's new code opens it again
    SIGN_IN = "signin"  # nobody is signed in, and the one who signs in may be a referee
    HIDDEN = "hidden"  # a private event's game, to a stranger: answered as if it were not there
    FORBIDDEN = "forbidden"  # signed in, and neither an organiser nor a referee of the event


def game_writer(game: Game, *, user: RequestUser, session: SessionBase | None = None) -> Writer | None:
    """Who writes to ``game`` for this request: the signed-in user if the event's organiser or referee, else the
    table whose code opened ``session`` (a ``TableCodeWriter``, which the history names); None for anyone else."""
    if game.event.can_score(user):
        return user
    if session is None:
        return None
    return table_code_writer(game=game, session=session)


def barred(game: Game, *, user: RequestUser, session: SessionBase | None = None) -> Barred:
    """Why ``game_writer`` gave None. A lapsed table code is named only when ``session`` is given: the offline queue
    asks for it (the hand waits for the new code); the page sends a visitor to the login as before."""
    if session is not None and table_code_lapsed(game=game, session=session):
        return Barred.CODE
    if not user.is_authenticated:
        return Barred.SIGN_IN
    if not event_shown(game.event, user):
        return Barred.HIDDEN
    return Barred.FORBIDDEN
