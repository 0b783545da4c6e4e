"""Events, their players and their rounds."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.text import slugify

from tournament.models import Event, Player, Registration, Round

SLUG_BASE_LENGTH = 70  # leaves room in the 80-character slug for a "-123" suffix


def event_create(*, organiser: Any, **fields: Any) -> Event:
    """A new event with a slug made from its name (unique, numbered on a clash); ``organiser`` runs it."""
    base = slugify(fields["name"])[:SLUG_BASE_LENGTH] or "event"
    slug, n = base, 1
    while Event.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    with transaction.atomic():
        event = Event.objects.create(slug=slug, **fields)
        event.organisers.add(organiser)
    return event


def player_register(*, event: Event, team: str = "", substitute: bool = False, **fields: Any) -> Registration:
    """A new player registered in the event (in ``team`` if named, created on first use)."""
    with transaction.atomic():
        player = Player.objects.create(**fields)
        team_row = event.teams.get_or_create(name=team)[0] if team else None
        return Registration.objects.create(event=event, player=player, team=team_row, substitute=substitute)


def round_add(*, event: Event, **fields: Any) -> Round:
    """The event's next round, numbered after the last one (two organisers adding at once get two numbers)."""
    with transaction.atomic():
        Event.objects.select_for_update(no_key=True).filter(pk=event.pk).first()  # one round added at a time per event
        last = event.rounds.order_by("-number").first()
        return Round.objects.create(event=event, number=(last.number + 1) if last else 1, **fields)
