"""A new game: its players in seat order, checked against the event."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any

from django.utils import timezone

from rules.errors import Problem, Refusal
from rules.presets import build_ruleset
from rules.ruleset import Ruleset
from tournament.models import Event, Game, Seat, Table


def game_seat(
    *,
    event: Event,
    player_ids: Sequence[int],
    table: Table | None = None,
    substitutes: Iterable[int] = (),
    played_on: date | None = None,
    rules: tuple[str, dict[str, Any]] | None = None,
) -> Game:
    """A game with its players seated in order (the first is the first dealer), not yet scored.

    A player registered as a substitute plays as one; ``substitutes`` marks
    others who fill in for an absent player in this game only. ``rules``
    (a preset key and overrides) scores this game by other rules than the
    event's, as an online game is. The caller holds the transaction (scoring
    stores the game's first result in it).
    """
    key, overrides = rules or ("", {})
    if key:
        _check_players(event, player_ids, build_ruleset(key=key, overrides=overrides), whose="this game's")
    else:
        _check_players(event, player_ids, event.ruleset(), whose="this event's")
    subs = set(substitutes) | set(
        event.registrations.filter(player_id__in=player_ids, substitute=True).values_list("player_id", flat=True)
    )
    strangers = sorted(pid for pid in subs if pid not in player_ids)
    if strangers:
        raise Refusal([Problem("substitutes", f"{pid} is not among the players") for pid in strangers])
    game = Game.objects.create(
        event=event,
        table=table,
        played_on=played_on or timezone.localdate(),
        ruleset_key=key,
        ruleset_overrides=overrides,
    )
    Seat.objects.bulk_create(
        [
            Seat(game=game, player_id=pid, position=position, substitute=pid in subs)
            for position, pid in enumerate(player_ids)
        ]
    )
    return game


def _check_players(event: Event, player_ids: Sequence[int], ruleset: Ruleset, *, whose: str) -> None:
    size = ruleset.players
    problems: list[Problem] = []
    if len(player_ids) != size:
        problems.append(Problem("players", f"{whose} ruleset is for {size} players; {len(player_ids)} given"))
    if len(set(player_ids)) != len(player_ids):
        problems.append(Problem("players", "a player is listed twice"))
    # Only the event's own players: a game must not bring another (perhaps private) event's player in.
    registered = dict(event.registrations.filter(player_id__in=player_ids).values_list("player_id", "withdrawn"))
    problems += [
        Problem(f"players[{i}]", f"player {pid} is not registered in this event")
        for i, pid in enumerate(player_ids)
        if pid not in registered
    ]
    problems += [
        Problem(f"players[{i}]", f"player {pid} has withdrawn from this event")
        for i, pid in enumerate(player_ids)
        if registered.get(pid)
    ]
    if problems:
        raise Refusal(problems)
