"""A new event started in one step (its players, its first round seated), and changes to an event's settings:
its rules fixed once play began, its standings recomputed when they count."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from rules.errors import Problem, Refusal
from scoring.services.games import round_seat
from scoring.services.rankings_follow import RANKING_SETTINGS, rankings_refresh
from scoring.services.registrations import players_register
from scoring.services.standings import standings_refresh
from tournament.errors import Conflict
from tournament.models import Event
from tournament.services.events import event_open
from tournament.services.seating import Method

# The settings the standings are computed from: changing one recomputes them.
STANDINGS_SETTINGS = frozenset(
    {"kind", "starts_on", "ends_on", "min_games", "best_games", "ranking", "substitute_points", "tiebreaks"}
)


def event_start(*, organiser: User, players: str = "", seat: bool = False, **fields: Any) -> Event:
    """A new event (``tournament.services.events.event_open``) with its pasted players registered and, with
    ``seat``, its round 1 seated at random: all or nothing, Refusal naming each bad line of the players."""
    with transaction.atomic():
        event = event_open(organiser=organiser, **fields)
        if players.strip():
            players_register(event=event, text=players, user=organiser)
        if seat:
            if not players.strip():
                raise Refusal.one("players", _("paste the players to seat round 1"))
            if not event.rounds.filter(number=1).exists():
                raise Refusal.one("rounds", _("round 1 is seated once the event has a round"))
            round_seat(event=event, number=1, method=Method.RANDOM)
    return event


def event_update(*, event: Event, **fields: Any) -> Event:
    """Change the event's settings (already checked one by one); Conflict if its rules may no longer change."""
    with transaction.atomic():
        locked = Event.objects.select_for_update(no_key=True).get(pk=event.pk)  # a game opened meanwhile counts
        problems = locked.rules_change_problems(
            key=fields.get("ruleset_key", locked.ruleset_key),
            overrides=fields.get("ruleset_overrides", locked.ruleset_overrides),
        )
        if "entrants" in fields and fields["entrants"] != locked.entrants and locked.rules_locked():
            problems.append(
                Problem(
                    "entrants",
                    _("who is seated (players or teams) is fixed once a round is seated or a game is opened"),
                )
            )
        if problems:
            raise Conflict(problems)
        changed = {name for name, value in fields.items() if getattr(locked, name) != value}
        for name, value in fields.items():
            setattr(locked, name, value)
        locked.save()
        if changed & STANDINGS_SETTINGS:
            standings_refresh(locked.pk)  # the rankings follow the recompute
        elif changed & RANKING_SETTINGS:
            rankings_refresh(locked.pk)
    return locked
