"""Who asks and who writes: the two types the services take for a person, instead of ``Any``.

``RequestUser`` is Django's user as a request carries it (signed in or anonymous): what the selectors and the
permission checks read. ``Writer`` is whoever makes a change that the history keeps: a signed-in user, the
players at a table entering their hands with its code (``scoring.services.hands.TableCodeWriter``), or, as
``None``, an importer or a script. The history names a writer by ``get_username``; only an account is stored
as the row's author (``account``).
"""

from __future__ import annotations

from typing import Protocol, TypeAlias

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied

RequestUser: TypeAlias = User | AnonymousUser


class Writer(Protocol):
    """Who writes a change: a signed-in or anonymous user, or a table's code."""

    @property
    def is_authenticated(self) -> bool: ...

    def get_username(self) -> str: ...


def signed_in(user: RequestUser) -> User:
    """The account of a page only a signed-in user reaches (``login_required``, or a signed-in visitor's branch):
    Django types ``request.user`` as either kind, the services that need an account take a ``User``."""
    if not isinstance(user, User):
        raise PermissionDenied("sign in first")
    return user


def account(writer: Writer | None) -> User | None:
    """The account to record as having made a change: nobody for a table's code, an importer, a script or an
    anonymous call."""
    return writer if isinstance(writer, User) and writer.is_authenticated else None
