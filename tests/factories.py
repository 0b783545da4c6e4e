"""Test data built directly in the database (factory_boy), not over HTTP; games through the services.

A game's result is derived (the replay stores it), so games are opened and
played with ``scoring.services`` exactly as the product does it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from django.contrib.auth.models import User
from factory.declarations import Sequence as Numbered
from factory.declarations import SubFactory
from factory.django import DjangoModelFactory
from factory.helpers import post_generation

from scoring.services.games import game_create
from scoring.services.hands import game_put_sheet
from scoring.sheet.record import HandRecord
from tournament.models import Event, Game, Player, Registration, Round, Table


class UserFactory(DjangoModelFactory[User]):
    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = Numbered(lambda n: f"user{n}")


class PlayerFactory(DjangoModelFactory[Player]):
    class Meta:
        model = Player

    name = Numbered(lambda n: f"Player {n}")


class EventFactory(DjangoModelFactory[Event]):
    class Meta:
        model = Event
        skip_postgeneration_save = True

    name = Numbered(lambda n: f"Event {n}")
    slug = Numbered(lambda n: f"event-{n}")
    ruleset_key = "wrc-2025"
    public = True

    @post_generation  # type: ignore[untyped-decorator]  # factory_boy's decorators are untyped
    def organisers(self, create: bool, extracted: Iterable[User] | None, **kwargs: Any) -> None:
        if create and extracted:
            self.organisers.add(*extracted)

    @post_generation  # type: ignore[untyped-decorator]  # factory_boy's decorators are untyped
    def referees(self, create: bool, extracted: Iterable[User] | None, **kwargs: Any) -> None:
        if create and extracted:
            self.referees.add(*extracted)


class RegistrationFactory(DjangoModelFactory[Registration]):
    class Meta:
        model = Registration

    event = SubFactory(EventFactory)
    player = SubFactory(PlayerFactory)


class RoundFactory(DjangoModelFactory[Round]):
    class Meta:
        model = Round

    event = SubFactory(EventFactory)
    number = Numbered(lambda n: n + 1)


class TableFactory(DjangoModelFactory[Table]):
    class Meta:
        model = Table

    round = SubFactory(RoundFactory)
    number = Numbered(lambda n: n + 1)


def registered(event: Event, *names: str, **fields: Any) -> list[Player]:
    """Players with these names, registered in the event."""
    players = [PlayerFactory.create(name=name) for name in names]
    for player in players:
        RegistrationFactory.create(event=event, player=player, **fields)
    return players


def played(
    event: Event,
    players: Sequence[Player],
    hands: Sequence[Mapping[str, Any]] = (),
    *,
    table: Table | None = None,
    end: bool = False,
    **options: Any,
) -> Game:
    """A game of these players (seat order) with these hands (players by id), opened and written as the product
    does it; ``end=True`` stops it by the clock after the last hand."""
    game = game_create(event=event, player_ids=[p.pk for p in players], table=table, **options)
    if hands or end:
        # The tests write hands as plain dicts, some wrong on purpose: the replay checks them as it checks the API's.
        game = game_put_sheet(
            game_id=game.pk,
            hands=[cast(HandRecord, h) for h in hands],
            user=None,
            version=None,
            ended_by_time=end or None,
        )
    return game
