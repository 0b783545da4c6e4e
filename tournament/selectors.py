"""Reading an event's structure: what a user may see, and how a game's players are named."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import models
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet, prefetch_related_objects

from tournament.models import Event, Game, Player, Registration, Seat
from tournament.users import RequestUser

M = TypeVar("M", bound=models.Model)

SLUG_LENGTH = Event._meta.get_field("slug").max_length or 0
SLUG_PATTERN = r"^[-a-zA-Z0-9_]+$"  # what Django's SlugField takes (validate_slug)


def is_slug(text: str) -> bool:
    """Whether ``text`` can be an event's slug; asked before it goes into a query, which a NUL or a surrogate breaks."""
    return len(text) <= SLUG_LENGTH and re.fullmatch(SLUG_PATTERN, text) is not None


def is_row_id(text: str) -> bool:
    """Whether ``text`` is a number a form may name a row by: ASCII digits that fit a bigint (``"²".isdigit()`` is
    true, and int() refuses it)."""
    return re.fullmatch(r"[0-9]{1,18}", text) is not None


def visible_events(user: RequestUser) -> QuerySet[Event]:
    """Public events for everyone; private ones for their organisers, referees, team captains and staff."""
    events = Event.objects.all()
    if user.is_authenticated and user.is_staff:
        return events
    if user.is_authenticated:
        return events.filter(Q(public=True) | Q(organisers=user) | Q(referees=user) | Q(teams__captain=user)).distinct()
    return events.filter(public=True)


def findable_players(user: RequestUser | None) -> QuerySet[Player]:
    """The players a user may find by federation id or online name, to register them in an event of theirs.

    A player registered only in events hidden from the user (private ones they neither run nor referee) is not
    among them: a match must neither reveal him nor take him into the user's event. ``None`` is the operator
    at the command line, who sees everyone.
    """
    players = Player.objects.all()
    if user is None or (user.is_authenticated and user.is_staff):
        return players
    shown = Registration.objects.filter(player=OuterRef("pk"), event__in=visible_events(user))
    return players.filter(~Exists(Registration.objects.filter(player=OuterRef("pk"))) | Exists(shown))


def event_shown(event: Event, user: RequestUser) -> bool:
    """Whether the user may see the event at all (its name included)."""
    return visible_events(user).filter(pk=event.pk).exists()


def visible_games(user: RequestUser) -> QuerySet[Game]:
    return Game.objects.filter(event__in=visible_events(user)).select_related("event")


@dataclass(frozen=True, slots=True)
class Roster:
    """A game's players in seat order: their ids and the labels that name them (unique at the table)."""

    ids: tuple[int, ...]
    labels: tuple[str, ...]

    def label_of(self, player_id: Any) -> str:
        return self.labels[self.ids.index(player_id)] if player_id in self.ids else str(player_id)


def roster(seats: Iterable[Seat]) -> Roster:
    """Labels are the players' names, made unique where two share one ("Kim #12").

    ``seats`` are a game's seats with their players (prefetched where a page
    lists many games), in any order.
    """
    ordered = sorted(seats, key=lambda seat: seat.position)
    return labelled([(seat.player_id, seat.player.name) for seat in ordered])


def labelled(players: Sequence[tuple[int, str]]) -> Roster:
    counts = Counter(name for _, name in players)
    labels = tuple(name if counts[name] == 1 else f"{name} #{pid}" for pid, name in players)
    return Roster(ids=tuple(pid for pid, _ in players), labels=labels)


def game_roster(game: Game) -> Roster:
    """The game's roster, from its prefetched seats when there are any (``with_seats``), else one query."""
    return roster(game.seats.all() if seats_prefetched(game) else game.seats.select_related("player"))


def with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    """Games with their seats and players in two more queries, however many games there are."""
    return games.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))


def prefetch_seats(game: Game) -> Game:
    """The game with its seats and players read now (one query), for everything after to share."""
    prefetch_related_objects([game], Prefetch("seats", queryset=Seat.objects.select_related("player")))
    return game


def with_scorer(rows: QuerySet[M], user: RequestUser, event: str) -> QuerySet[M]:
    """``rows`` with whether ``user`` organises or referees the event at ``event`` (a path to its id): a write asks
    ``Event.can_score`` of the game it reads, and this answers it in the same query (``scorer_from``)."""
    if not user.is_authenticated:
        return rows
    annotated: QuerySet[M] = rows.annotate(
        user_organises=Exists(Event.organisers.through.objects.filter(event_id=OuterRef(event), user_id=user.pk)),
        user_referees=Exists(Event.referees.through.objects.filter(event_id=OuterRef(event), user_id=user.pk)),
    )
    return annotated


def scorer_from(row: Any, event: Event, user: RequestUser) -> None:
    """Tell ``event`` what ``row``, read ``with_scorer``, says of the user scoring it."""
    if user.is_authenticated and hasattr(row, "user_organises"):
        event.scorer_read(user.pk, row.user_organises or row.user_referees)


def given_seats(game: Game, seats: Sequence[Seat]) -> Game:
    """The game with ``seats`` as if prefetched: seats the caller read with their players, and knows to be current."""
    return given_related(game, "seats", seats)


def given_related(instance: M, relation: str, rows: Sequence[models.Model]) -> M:
    """``instance`` with ``rows`` as its ``relation`` (a reverse foreign key) as if prefetched: rows the caller read
    already, or knows there are none of, shared with whatever reads the relation next."""
    read = getattr(instance, relation).all()
    vars(read).update(_result_cache=list(rows), _prefetch_done=True)  # as Django's prefetch leaves a query set
    vars(instance).setdefault("_prefetched_objects_cache", {})[relation] = read
    return instance


def seats_prefetched(game: Game) -> bool:
    return "seats" in getattr(game, "_prefetched_objects_cache", {})
