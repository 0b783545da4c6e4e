"""A player claims their own record with the personal code they were given (``confirmations.player_code``).

The code names one registration of one event, so it names the player: the account is linked to that record
(``Player.user``, one account per record and one record per account; a record merged into another links the
kept one). Wrong codes are counted against the guesser as every code is (``scoring.services.codes``), under
one scope for all claims: the right code always works, whatever the counts say.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from rules.errors import Refusal
from scoring.services.codes import code_attempt, typed
from scoring.services.confirmations import FIRST_CODE_LENGTH, player_code
from tournament.models import Event, Player, Registration
from tournament.services.invites import account_create

CLAIM_SCOPE = "claim"


def _candidates(code: str) -> list[tuple[int, int, int]]:
    """(event, player, version) of every registration whose code has the length of the one typed."""
    rows = Registration.objects.values_list("event_id", "player_id", "code_version")
    first = len(typed(code)) == FIRST_CODE_LENGTH
    return [row for row in rows if (row[2] == 0) == first]


def player_of_code(*, code: str, guesser: str) -> Player:
    """The player whose current personal code (in any event) ``code`` is, the kept record if it was merged;
    else Refusal on ``code``, counted against the guesser."""
    candidates = _candidates(code)
    expected = [player_code(Event(pk=event_id), player_id, version) for event_id, player_id, version in candidates]
    index = code_attempt(
        scope=CLAIM_SCOPE,
        guesser=guesser,
        given=code,
        expected=expected,
        too_many=_("too many wrong codes: try again in %(minutes)s minutes"),
        wrong=_("this is not a player's code: type it as it is on your slip"),
    )
    player = Player.objects.get(pk=candidates[index][1])
    while player.merged_into_id is not None:
        player = Player.objects.get(pk=player.merged_into_id)
    return player


def _link(player: Player, user: User) -> Player:
    """Link the account to the record, inside the caller's transaction; refused when either holds another."""
    held = Player.objects.filter(user=user).exclude(pk=player.pk).first()
    if held is not None:
        raise Refusal.one(
            "code", _("your account already holds the record of %(name)s: one record per account") % {"name": held.name}
        )
    linked = Player.objects.filter(pk=player.pk).filter(user__isnull=True).update(user=user)
    if not linked and not Player.objects.filter(pk=player.pk, user=user).exists():
        raise Refusal.one(
            "code", _("this player's record is already claimed by another account: ask the organiser if it is yours")
        )
    player.user = user
    return player


def player_claim(*, user: User, code: str, guesser: str) -> Player:
    """The signed-in ``user`` claims the record whose code this is."""
    player = player_of_code(code=code, guesser=guesser)  # outside the transaction: a wrong code stays counted
    with transaction.atomic():
        return _link(player, user)


def account_claim(*, username: str, email: str, password: str, code: str, guesser: str) -> tuple[User, Player]:
    """A visitor creates an account and claims their record in one step; nothing is created when the code is
    wrong or the record is already claimed."""
    player = player_of_code(code=code, guesser=guesser)
    with transaction.atomic():
        if Player.objects.filter(pk=player.pk, user__isnull=False).exists():
            raise Refusal.one(
                "code",
                _("this player's record is already claimed by another account: ask the organiser if it is yours"),
            )
        user = account_create(username=username, email=email, password=password)
        return user, _link(player, user)
