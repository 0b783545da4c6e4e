"""A rated event's rating (``Event.rating``): replayed game by game from the finished games the standings count,
in the order they were played, and stored as each player's change through each game (its history). The rating on
a date is each player's latest change up to it (docs/rankings.md, "Ratings")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import cast

from django.db import transaction

from rules.rankings.ratings import Game as RatedGame
from rules.rankings.ratings import Seat, Step, replay
from scoring.models import RatingChange
from scoring.services.standings_lines import counted_results
from tournament.models import Event, Player

HUNDREDTHS = Decimal("0.01")


def _number(value: float, places: str = "0.01") -> Decimal:
    return Decimal(str(round(value, 3))).quantize(Decimal(places))


def _stored(event: Event, step: Step, order: dict[int, int], played_on: dict[int, date]) -> RatingChange:
    game_id, player_id = cast(int, step.game), cast(int, step.player)  # the keys replay was given
    return RatingChange(
        event=event,
        game_id=game_id,
        player_id=player_id,
        sequence=order[game_id],
        played_on=played_on[game_id],
        rank=_number(step.rank),
        before=_number(step.before),
        after=_number(step.after),
        games=step.games,
        factor=_number(step.factor, "0.001"),
        points=_number(step.points),
        reference=_number(step.reference),
    )


def rating_rebuild(event: Event) -> int:
    """Replay the event's rating from its first game; the number of changes stored (none without a rating)."""
    rows = (
        (
            counted_results(event)
            .order_by("game__played_on", "game_id", "player_id")
            .values_list("game_id", "game__played_on", "player_id", "rank")
        )
        if event.rating
        else []
    )
    games: dict[int, list[Seat]] = {}
    played_on: dict[int, date] = {}
    for game_id, day, player_id, rank in rows:
        games.setdefault(game_id, []).append(Seat(player_id, float(rank)))
        played_on[game_id] = day
    order = {game_id: n for n, game_id in enumerate(games, start=1)}
    steps = (
        replay(event.rating, (RatedGame(key, tuple(seats)) for key, seats in games.items()))[0] if event.rating else []
    )
    changes = [_stored(event, step, order, played_on) for step in steps]
    with transaction.atomic():
        RatingChange.objects.filter(event=event).delete()
        RatingChange.objects.bulk_create(changes, batch_size=1000)
    return len(changes)


@dataclass(frozen=True, slots=True)
class RatingRow:
    rank: int
    player: Player
    score: Decimal
    games: int
    previous_rank: int | None
    previous_score: Decimal | None
    history: list[RatingChange]  # oldest first


def _latest(changes: list[RatingChange], on: date) -> dict[int, list[RatingChange]]:
    by_player: dict[int, list[RatingChange]] = {}
    for change in changes:
        if change.played_on <= on:
            by_player.setdefault(change.player_id, []).append(change)
    return by_player


def _ranks(by_player: dict[int, list[RatingChange]]) -> dict[int, int]:
    """Each player's rank on their latest rating: equal ratings share a rank."""
    ordered = sorted(by_player, key=lambda p: (-by_player[p][-1].after, p))
    ranks: dict[int, int] = {}
    for index, player in enumerate(ordered):
        same = index and by_player[ordered[index - 1]][-1].after == by_player[player][-1].after
        ranks[player] = ranks[ordered[index - 1]] if same else index + 1
    return ranks


def rating_rows(event: Event, on: date) -> list[RatingRow]:
    """The event's rating on ``on``: every player rated by then, best first, with the rank and rating a week
    earlier and the history up to ``on``."""
    changes = list(
        RatingChange.objects.filter(event=event, played_on__lte=on)
        .select_related("player")
        .order_by("sequence", "player_id")
    )
    now, before = _latest(changes, on), _latest(changes, on - timedelta(weeks=1))
    ranks, previous = _ranks(now), _ranks(before)
    rows = [
        RatingRow(
            rank=ranks[p],
            player=history[-1].player,
            score=history[-1].after,
            games=len(history),
            previous_rank=previous.get(p),
            previous_score=before[p][-1].after if p in before else None,
            history=history,
        )
        for p, history in now.items()
    ]
    return sorted(rows, key=lambda row: (row.rank, row.player.name, row.player.pk))
