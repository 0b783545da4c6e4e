"""Changes to an event's players that its standings follow: who is registered, withdrawn, a substitute, in which
team. The structure is the tournament app's; the recompute after the commit is the standings'."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from scoring.services.standings import standings_refresh
from tournament.models import Event, Player, Registration
from tournament.services import roster


def players_register(*, event: Event, text: str, user: Any) -> list[Registration]:
    """Register every player of a pasted list, all or none (tournament.services.roster), as ``user`` may."""
    with transaction.atomic():
        added = roster.roster_register(event=event, text=text, user=user)
        standings_refresh(event.pk)
    return added


def registration_change(*, registration: Registration, player: Player, team: str, substitute: bool) -> Registration:
    """A registered player's details, team and substitute mark, saved together."""
    with transaction.atomic():
        player.save()
        changed = roster.registration_update(registration=registration, player=player, team=team,
                                             substitute=substitute)
        standings_refresh(registration.event_id)
    return changed


def registration_withdraw(*, registration: Registration, withdrawn: bool = True) -> Registration:
    with transaction.atomic():
        changed = roster.registration_withdraw(registration=registration, withdrawn=withdrawn)
        standings_refresh(registration.event_id)
    return changed
