"""What a hand write reads, each in one plain statement (``scoring.services.plain_rows``).

- ``locked_game``: the game's row locked (only its row: the event is read with it, not locked, or every table
  of the event would wait for every other), with its event, whether it has penalties (most have none, and then
  they are not read) and whether the writer organises or referees the event (``Event.can_score`` answered by
  the same statement);
- ``game_seats``: its seats with their players, East first;
- ``game_hands``: its hands in order, with the head of the game's history chain (read under the lock, so the
  chain cannot fork).
"""

from __future__ import annotations

from functools import cache

from django.db import connection

from scoring.models import Hand, HandChange, Penalty
from scoring.services.plain_rows import columns, make, select, table, width
from tournament.models import Event, Game, Player, Seat


def locked_game(game_id: int, user_id: int | None) -> Game | None:
    """The game locked ``FOR UPDATE`` with its event (None if there is no such game). ``penalised`` says whether
    it has penalties; with a ``user_id``, ``user_organises`` and ``user_referees`` what that user is to its event
    (``tournament.selectors.with_scorer``'s names), also told to the event (``Event.scorer_read``)."""
    rows = select(_lock_statement(), [user_id, user_id, game_id])
    if not rows:
        return None
    row, games, events = rows[0], width(Game), width(Event)
    game = make(Game, row[:games])
    game.event = make(Event, row[games : games + events])
    penalised, organises, referees = (bool(flag) for flag in row[games + events :])  # SQLite's EXISTS is 0 or 1
    game.penalised = penalised  # type: ignore[attr-defined]
    if user_id is not None:
        game.user_organises, game.user_referees = organises, referees  # type: ignore[attr-defined]
        game.event.scorer_read(user_id, organises or referees)
    return game


def game_seats(game: Game) -> list[Seat]:
    """The game's seats, East first, each with its player (``Seat.player`` read with it)."""
    seats = width(Seat)
    out = []
    for row in select(_seats_statement(), [game.pk]):
        seat = make(Seat, row[:seats])
        seat.player = make(Player, row[seats:])
        out.append(seat)
    return out


def game_hands(game: Game) -> tuple[list[Hand], str | None]:
    """The game's hands in order, and the hash of the game's last history entry (None when the game has no hands
    yet: then it is not read here)."""
    hands = width(Hand)
    rows = select(_hands_statement(), [game.pk, game.pk])
    return [make(Hand, row[:hands]) for row in rows], rows[0][hands] if rows else None


@cache
def _lock_statement() -> str:
    through_organisers, through_referees = Event.organisers.through, Event.referees.through
    return (
        f"SELECT {columns(Game, 'g')}, {columns(Event, 'e')}, "
        f"EXISTS(SELECT 1 FROM {table(Penalty)} p WHERE p.game_id = g.id), "
        f"EXISTS(SELECT 1 FROM {table(through_organisers)} o WHERE o.event_id = g.event_id AND o.user_id = %s), "
        f"EXISTS(SELECT 1 FROM {table(through_referees)} r WHERE r.event_id = g.event_id AND r.user_id = %s) "
        f"FROM {table(Game)} g INNER JOIN {table(Event)} e ON e.id = g.event_id WHERE g.id = %s "
        + ("FOR UPDATE OF g" if connection.features.has_select_for_update_of else "")
    )


@cache
def _seats_statement() -> str:
    return (
        f"SELECT {columns(Seat, 's')}, {columns(Player, 'p')} FROM {table(Seat)} s "
        f"INNER JOIN {table(Player)} p ON p.id = s.player_id WHERE s.game_id = %s ORDER BY s.position"
    )


@cache
def _hands_statement() -> str:
    head = f"SELECT hash FROM {table(HandChange)} WHERE game_id = %s ORDER BY id DESC LIMIT 1"
    return f'SELECT {columns(Hand, "h")}, ({head}) FROM {table(Hand)} h WHERE h.game_id = %s ORDER BY h."index"'
