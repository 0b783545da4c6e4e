"""Invitation links and the accounts made through them: a referee's or a co-organiser's link, and a password reset
that unlocks a locked-out username.

Accounts are open to the invited only: whoever holds an event's current referee or organiser link creates an
account through it (and becomes one at once), and a player creates one with their personal code
(``scoring.services.claims``). Each link is a secret on the event, renewed or revoked by its organisers.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Literal

from axes.utils import reset as axes_reset
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from rules.errors import Refusal
from tournament.models import Event
from tournament.users import RequestUser

Role = Literal["referee", "organiser"]
ROLES: tuple[Role, ...] = ("referee", "organiser")


def invite_secret(event: Event, role: Role) -> str:
    return event.organiser_invite if role == "organiser" else event.referee_invite


def invite_valid(event: Event, role: Role, invite: str) -> bool:
    """``invite`` is the secret of the event's current link for ``role``."""
    secret = invite_secret(event, role)
    # As bytes: compare_digest refuses str with letters outside ASCII, which anyone can type into the link.
    return bool(secret) and hmac.compare_digest(invite.encode(), secret.encode())


def invite_refusal(role: Role) -> str:
    """Why a link does not work, in the reader's language."""
    if role == "organiser":
        return _("This organiser link is not valid any more: ask the organiser for a new one.")
    return _("This referee link is not valid any more: ask the organiser for a new one.")


def invite_renew(*, event: Event, role: Role, revoke: bool = False) -> Event:
    """A new link for ``role`` (the old one stops working), or none at all."""
    field = "organiser_invite" if role == "organiser" else "referee_invite"
    setattr(event, field, "" if revoke else secrets.token_urlsafe(18))
    event.save(update_fields=[field])
    return event


def invite_accept(*, event: Event, user: User, role: Role, invite: str) -> None:
    """The signed-in ``user`` becomes a referee or a co-organiser of the event, if ``invite`` is its link's."""
    if not invite_valid(event, role, invite):
        raise Refusal.one("invite", invite_refusal(role))
    (event.organisers if role == "organiser" else event.referees).add(user)


def account_create(*, username: str, email: str, password: str) -> User:
    """A new account (the form checked the name is free and the password passes the validators)."""
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise Refusal.one("username", _("this user name is taken: choose another"))
    return get_user_model().objects.create_user(username=username, email=email, password=password)


def signup_by_invite(*, event: Event, role: Role, invite: str, username: str, email: str, password: str) -> User:
    """A new account that is at once a referee or co-organiser of the event; nothing is created when the link is
    not (or no longer) valid."""
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)  # a revoke meanwhile wins
        if not invite_valid(locked, role, invite):
            raise Refusal.one("invite", invite_refusal(role))
        user = account_create(username=username, email=email, password=password)
        invite_accept(event=locked, user=user, role=role, invite=invite)
    return user


def password_reset_unlock(user: RequestUser) -> int:
    """A password set through the e-mailed reset link ends the username's sign-in lockout (django-axes): whoever
    holds the mailbox is the owner, and the old password the guessers tried no longer opens the account. The
    number of failed attempts forgotten."""
    return int(axes_reset(username=user.get_username()))
