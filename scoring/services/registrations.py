"""Changes to an event's players that its standings follow: who is registered, withdrawn, a substitute, in which
team. The structure is the tournament app's; the recompute after the commit is the standings'.

Every write of a registration, whichever door it comes through (these services, the API's registration, the
admin's inline, an import that registers the players it meets), is followed by the standings through one
mechanism: ``registration_written``, connected to the Registration model's saves and deletions. The code creates
registrations through one function, ``tournament.services.roster.registration_add``, which never bulk-creates
(a bulk write sends no signal).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from scoring.services.standings import standings_batch, standings_refresh
from tournament.models import Event, Player, Registration
from tournament.services import roster
from tournament.users import RequestUser


def registration_written(instance: Registration, raw: bool = False, origin: Any = None, **kwargs: Any) -> None:
    """A registration was saved or deleted: the standings list every registered player, so they are refreshed
    after the commit. Not for a backup being restored (raw rows, recomputed at its end) nor for the deletion of
    the event itself (nothing left to rank)."""
    if raw or isinstance(origin, Event) or (isinstance(origin, QuerySet) and origin.model is Event):
        return
    standings_refresh(instance.event_id)


def registrations_add_many(*, event: Event, players: Sequence[Player]) -> list[Registration]:
    """Register many players at once (an import's new players), the standings following once for them all."""
    return roster.registrations_add_many(event=event, players=players, follow=standings_refresh)


def players_register(*, event: Event, text: str, user: RequestUser | None) -> roster.RosterSaved:
    """Register every player of a pasted list and set the teams of those it names who are registered already,
    all or none (tournament.services.roster), as ``user`` may; one recompute."""
    with transaction.atomic(), standings_batch():
        return roster.roster_register(event=event, text=text, user=user)


def registration_change(*, registration: Registration, player: Player, team: str, substitute: bool) -> Registration:
    """A registered player's details, team and substitute mark, saved together."""
    with transaction.atomic():
        player.save()
        return roster.registration_update(registration=registration, player=player, team=team, substitute=substitute)


def registration_withdraw(*, registration: Registration, withdrawn: bool = True) -> Registration:
    return roster.registration_withdraw(registration=registration, withdrawn=withdrawn)
