"""A group of checked online logs stored in one transaction: each kind of row one insert for the whole group.

Storing a log one by one costs about ten statements and a commit; most of an
import's time went there. A group's logs are first taken in turn with no
write: each log's players claimed (a log finds the players an earlier log of
the group makes, numbered ahead of their insert) and its game checked, a log
refused there answered as one by one would answer it. Then its players,
registrations, games, seats, hands, results, statistics and history entries
are each inserted at once, and the standings count each log's change in the
order the logs come, as one by one would.

A group is all or nothing: if a row clashes with one stored meanwhile (an
``IntegrityError``: another import of the same log or player), nothing of it
is kept and the caller stores its logs one by one, for the same answers and
messages as ever.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from django.db import transaction

from rules.errors import Refusal
from scoring.logs.check import Checked
from scoring.logs.model import OnlineGame
from scoring.services.live import live_changed
from scoring.services.online_players import Claim, PlayerBook
from scoring.services.online_store import GameRows, game_rows, game_unsaved_of
from scoring.services.standings import standings_refresh_many
from scoring.sheet.reader import ScoredSheet
from tournament.models import Event, Game
from tournament.users import RequestUser

GROUP = 50  # logs stored in one transaction: bigger saves little, and a failed group is stored again one by one


@dataclass(frozen=True, slots=True)
class Ready:
    """A log read and checked, waiting for its players."""

    source: str
    online: OnlineGame
    checked: Checked


def group_store(
    *, event: Event, items: Sequence[Ready], book: PlayerBook, user: RequestUser | None
) -> list[Game | Refusal]:
    """Store the logs of ``items`` that are not refused, all or none (an IntegrityError: nothing written); per log
    its game, or the Refusal that one by one would have given (its players not found, its game refused: checked
    before any write, and then the logs after it find the players as one by one would). ``book`` learns the new
    players once the group commits."""
    ahead, making = book.ahead(), list[str]()
    taken: dict[int, tuple[Claim, Game, set[int]]] = {}
    refused: dict[int, Refusal] = {}
    for at, item in enumerate(items):
        try:
            claim = ahead.claim(item.online.names)
            game, subs = game_unsaved_of(
                event=event,
                online=item.online,
                scored=_scored(item),
                differences=item.checked.differences,
                seated=ahead.seated(claim, making),
            )
        except Refusal as exc:
            refused[at] = exc
            continue
        ahead.learn(claim, making)
        taken[at] = (claim, game, subs)
    games = iter(_saved(event, [items[at] for at in taken], list(taken.values()), book, user) if taken else [])
    return [refused[at] if at in refused else next(games) for at in range(len(items))]


def _saved(
    event: Event,
    items: Sequence[Ready],
    taken: Sequence[tuple[Claim, Game, set[int]]],
    book: PlayerBook,
    user: RequestUser | None,
) -> list[Game]:
    claims = [claim for claim, _, _ in taken]
    with transaction.atomic():
        seated = book.save_many(claims)
        games = Game.objects.bulk_create([game for _, game, _ in taken])
        rows = GameRows(games[0])  # the group's rows of each kind gathered, for one insert each
        changes: list[Collection[int] | None] = []
        for item, (claim, game, subs), s in zip(items, taken, seated, strict=True):
            rows.add(game_rows(game, item.online, _scored(item), s, subs, user))
            if claim.make or claim.register:
                changes.append(None)  # registering players counts every line, this game's among them
            elif game.status == Game.Status.FINISHED:
                changes.append([s.ids[name] for name in item.online.names])
        rows.save()
        standings_refresh_many(event.pk, changes)
        live_changed(event.pk)  # what saving a game sends, which a bulk insert does not
    for claim, s in zip(claims, seated, strict=True):
        book.keep(claim, s)
    return games


def _scored(item: Ready) -> ScoredSheet:
    assert item.checked.scored is not None
    return item.checked.scored
