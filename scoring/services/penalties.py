"""Penalties the organisers give, each sealed into a history: one in a game into the game's chain (the game is
replayed with it: its result shows it at once), one on the event itself into the event's own chain
(``EventChange``), which ``verify_history`` checks as it checks the games'."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction

from rules.errors import Problem, Refusal
from scoring.models import EventChange, Penalty
from scoring.services import chain
from scoring.services.hands import game_penalty
from scoring.services.stage_checks import cuts_check
from scoring.services.standings import standings_refresh
from tournament.models import Event
from tournament.users import Writer


def penalty_save(*, penalty: Penalty, user: Writer | None) -> Penalty:
    """Give a penalty, or change one (its event and game stay: the admin shows them read-only once given)."""
    if penalty.event.ruleset().is_solo:
        # A game's sheet refuses it too: the solo race to tenpai ranks draws and value, it has no points.
        raise Refusal([Problem.of("points", "solo_no_penalties")])
    _sealed(penalty, user, lambda: penalty.save())
    return penalty


def penalty_delete(*, penalty: Penalty, user: Writer | None) -> None:
    _sealed(penalty, user, lambda: penalty.delete())


def event_penalties_seal(event: Event) -> None:
    """Seal, as found, the penalties an event was given before they were sealed (``verify_history --seal``)."""
    if not EventChange.objects.filter(event=event).exists():
        _sealed(Penalty(event=event), None, lambda: None)


def _sealed(penalty: Penalty, user: Writer | None, apply: Callable[[], Any]) -> None:
    if penalty.game_id is not None:
        game_penalty(game_id=penalty.game_id, user=user, apply=lambda _game: apply())
        return
    with transaction.atomic():
        event = Event.objects.select_for_update(no_key=True).get(pk=penalty.event_id)  # one chain, no fork
        own = Penalty.objects.filter(event=event, game__isnull=True)
        before = chain.penalties_of(own)
        apply()
        chain.event_change(event, EventChange.Action.PENALTY, before=before, after=chain.penalties_of(own), user=user)
        cuts_check(event=event, after=1, user=user)  # the event's own penalties count in its first stage
        standings_refresh(event.pk)


def event_penalties_problem(event: Event) -> str | None:
    """The event's own penalties as stored, against its sealed chain: None when they are what it says."""
    entries = [chain.exported(c) for c in EventChange.objects.filter(event=event).order_by("id")]
    stored = chain.penalties_of(Penalty.objects.filter(event=event, game__isnull=True))
    if not entries and stored:
        return (
            "its penalties were given before penalties were sealed: if they are right, `manage.py "
            "verify_history --seal` seals them"
        )
    report = chain.verify_entries(entries)
    if not report.intact:
        return f"its penalties' {report.problem}"
    if report.unsealed:  # written since keys were used, or not at all: a plain hash here was forged
        return "its penalties' history carries no keyed seal: it was written behind the application's back"
    own = [e for e in entries if e["action"] == EventChange.Action.PENALTY]
    sealed = own[-1]["after"] if own else []
    if stored != sealed:
        return (
            "the event's penalties differ from what its history says: a penalty was given, changed or taken "
            "back outside the application"
        )
    return None
