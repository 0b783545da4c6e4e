"""What "My events and tables" reads: the tables of the current round of each event the user scores, with their
state, and the claimed player's own record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.models import Confirmation
from tournament.models import Event, Game, Player, Round
from tournament.selectors import visible_events
from tournament.users import RequestUser


@dataclass(frozen=True)
class MyTable:
    event: Event
    round: Round
    number: int
    game_id: int
    state: str  # waiting, playing, done, confirmed
    hands: int

    @property
    def state_words(self) -> str:
        if self.state == "playing":
            return _("in play (hand %(n)s)") % {"n": self.hands + 1}
        return {"waiting": _("not started"), "done": _("finished"), "confirmed": _("confirmed")}[self.state]


def current_round(event: Event) -> Round | None:
    """The round being played: the last one seated."""
    return event.rounds.filter(tables__isnull=False).distinct().order_by("-number").first()


def table_state(status: str, hands: int, seats: int, confirmed: int, disputed: int) -> str:
    """not started, in play, finished, or confirmed by every player (none disputing)."""
    if status != Game.Status.FINISHED:
        return "playing" if hands else "waiting"
    return "confirmed" if confirmed == seats and not disputed else "done"


def scored_events(user: RequestUser) -> list[Event]:
    """The events the user is named to score (referee or organiser), not finished, latest first."""
    if not user.is_authenticated:
        return []
    events = (
        Event.objects.filter(Q(referees=user) | Q(organisers=user))
        .exclude(status=Event.Status.FINISHED)
        .distinct()
        .order_by("-starts_on", "name")
    )
    return list(events)


def my_tables(user: RequestUser) -> list[MyTable]:
    """The tables of each scored event's current round, by event and table number: one query per event."""
    confirmed = Q(confirmations__verdict=Confirmation.Verdict.CONFIRMED)
    disputed = Q(confirmations__verdict=Confirmation.Verdict.DISPUTED)
    lines: list[MyTable] = []
    for event in scored_events(user):
        round_ = current_round(event)
        if round_ is None:
            continue
        rows = (
            Game.objects.filter(table__round=round_)
            .order_by("table__number")
            # Grouped by these alone: grouped by the whole row, SQLite read every game's stored result too.
            .values("pk", "table__number", "status")
            .annotate(
                hands_n=Count("hands", distinct=True),
                seats_n=Count("seats", distinct=True),
                confirmed_n=Count("confirmations", distinct=True, filter=confirmed),
                disputed_n=Count("confirmations", distinct=True, filter=disputed),
            )
            .values_list("pk", "table__number", "status", "hands_n", "seats_n", "confirmed_n", "disputed_n")
        )
        lines += [
            MyTable(
                event=event,
                round=round_,
                number=number,
                game_id=pk,
                hands=hands,
                state=table_state(status, hands, seats, yes, no),
            )
            for pk, number, status, hands, seats, yes, no in rows
        ]
    return lines


def claimed_player(user: RequestUser) -> Player | None:
    return Player.objects.filter(user=user).first() if user.is_authenticated else None


def player_codes(player: Player, events: QuerySet[Event]) -> list[tuple[Event, str]]:
    """The events (among those the user may see) where the claimed player is registered, each with the address of
    the player's page there, which shows the personal code to its owner."""
    shown = events.filter(registrations__player=player).distinct().order_by("-starts_on", "name")
    return [(e, reverse("player", kwargs={"slug": e.slug, "player_id": player.pk})) for e in shown]


def my_page(user: RequestUser) -> dict[str, Any]:
    """The tables to score now, and the claimed player's record with their personal code pages."""
    player = claimed_player(user)
    return {
        "tables": my_tables(user),
        "me": player,
        "my_codes": player_codes(player, visible_events(user)) if player else [],
    }
