"""A new game: its players in seat order, checked against the event."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
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
    registered: Mapping[int, tuple[bool, bool]] | None = None,
    fields: Mapping[str, Any] | None = None,
) -> Game:
    """A game with its players seated in order (the first is the first dealer), not yet scored.

    A player registered as a substitute plays as one; ``substitutes`` marks
    others who fill in for an absent player in this game only. ``rules``
    (a preset key and overrides) scores this game by other rules than the
    event's, as an online game is. The caller holds the transaction (scoring
    stores the game's first result in it). ``registered``: each player's
    (withdrawn, substitute) registration when the caller read it already (an
    import reads a whole batch's at once), else read here; ``fields``: more
    of the game's own fields, written with it (an import's finished result).
    """
    game, subs = game_unsaved(
        event=event,
        player_ids=player_ids,
        table=table,
        substitutes=substitutes,
        played_on=played_on,
        rules=rules,
        registered=_registered(event, player_ids) if registered is None else registered,
        fields=fields,
    )
    game.save(force_insert=True)
    Seat.objects.bulk_create(game_seats(game, player_ids, subs))
    return game


def game_unsaved(
    *,
    event: Event,
    player_ids: Sequence[int],
    registered: Mapping[int, tuple[bool, bool]],
    table: Table | None = None,
    substitutes: Iterable[int] = (),
    played_on: date | None = None,
    rules: tuple[str, dict[str, Any]] | None = None,
    fields: Mapping[str, Any] | None = None,
) -> tuple[Game, set[int]]:
    """``game_seat``'s game checked and not saved, with the ids of its players who play as substitutes: an import
    of many logs saves its games together (``game_seats`` gives each its seats once it has an id)."""
    key, overrides = rules or ("", {})
    ruleset = build_ruleset(key=key, overrides=overrides) if key else event.ruleset()
    _check_players(player_ids, registered, ruleset, whose="this game's" if key else "this event's")
    subs = set(substitutes) | {pid for pid in player_ids if registered.get(pid, (False, False))[1]}
    strangers = sorted(pid for pid in subs if pid not in player_ids)
    if strangers:
        raise Refusal([Problem("substitutes", f"{pid} is not among the players") for pid in strangers])
    game = Game(
        event=event,
        table=table,
        played_on=played_on or timezone.localdate(),
        ruleset_key=key,
        ruleset_overrides=overrides,
        **(fields or {}),
    )
    return game, subs


def game_seats(game: Game, player_ids: Sequence[int], subs: Iterable[int]) -> list[Seat]:
    """The seats (unsaved) of a game: its players in order, the first the first dealer."""
    subs = set(subs)
    return [
        Seat(game=game, player_id=pid, position=position, substitute=pid in subs)
        for position, pid in enumerate(player_ids)
    ]


def _registered(event: Event, player_ids: Sequence[int]) -> dict[int, tuple[bool, bool]]:
    rows = event.registrations.filter(player_id__in=player_ids).values_list("player_id", "withdrawn", "substitute")
    return {pid: (withdrawn, substitute) for pid, withdrawn, substitute in rows}


def _check_players(
    player_ids: Sequence[int], registered: Mapping[int, tuple[bool, bool]], ruleset: Ruleset, *, whose: str
) -> None:
    size = ruleset.players
    problems: list[Problem] = []
    if len(player_ids) != size:
        problems.append(Problem("players", f"{whose} ruleset is for {size} players; {len(player_ids)} given"))
    if len(set(player_ids)) != len(player_ids):
        problems.append(Problem("players", "a player is listed twice"))
    # Only the event's own players: a game must not bring another (perhaps private) event's player in.
    problems += [
        Problem(f"players[{i}]", f"player {pid} is not registered in this event")
        for i, pid in enumerate(player_ids)
        if pid not in registered
    ]
    problems += [
        Problem(f"players[{i}]", f"player {pid} has withdrawn from this event")
        for i, pid in enumerate(player_ids)
        if registered.get(pid, (False, False))[0]
    ]
    if problems:
        raise Refusal(problems)
