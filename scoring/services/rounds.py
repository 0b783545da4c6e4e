"""A round as the organiser runs it: re-seated before play, its clock started, its games ended by time."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.errors import Refusal
from scoring.models import Hand, HandChange, Penalty
from scoring.services.hands import game_seat_player, game_update
from scoring.services.standings import standings_counted_last
from tournament.errors import GameConflict
from tournament.models import Game, Round, Seat
from tournament.users import Writer


def round_unseat(*, round_: Round) -> int:
    """Take the round's tables away so that it can be seated again; refused once a hand is entered there.

    How many tables were removed."""
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=round_.pk)
        games = Game.objects.select_for_update().filter(table__round=locked)
        played = Hand.objects.filter(game__in=games).values("game").distinct().count()
        if played:
            raise Refusal.one(
                "round",
                _("round %(n)s cannot be seated again: %(tables)s of its tables have hands entered")
                % {"n": locked.number, "tables": played},
            )
        # A game's history and penalties are never deleted: a table with either stays.
        if HandChange.objects.filter(game__in=games).exists() or Penalty.objects.filter(game__in=games).exists():
            raise Refusal.one(
                "round",
                _(
                    "round %(n)s cannot be seated again: a table has a history (a "
                    "substitute, an end by time) or a penalty"
                )
                % {"n": locked.number},
            )
        count = locked.tables.count()
        games.delete()
        locked.tables.all().delete()
    return count


def round_clock_start(*, round_: Round, minutes: int | None, at: datetime | None = None) -> Round:
    """Start the round's clock now (or at ``at``) with ``minutes`` to play (the round's own when None)."""
    if minutes is not None and not 1 <= minutes <= 24 * 60:
        raise Refusal.one("time_limit_minutes", _("must be between 1 and 1440 minutes"))
    round_.starts_at = at or timezone.now()
    if minutes is not None:
        round_.time_limit_minutes = minutes
    round_.save(update_fields=["starts_at", "time_limit_minutes"])
    return round_


class RoundEnd(NamedTuple):
    ended: list[Game]  # each after its last hand entered
    not_started: list[Game]  # no hand entered: left open, counted for nobody


def round_end_by_time(*, round_: Round, user: Writer | None) -> RoundEnd:
    """End every game of the round still being played by the clock, all or none, each after its last hand
    entered; a table with no hand entered has played no game and is left as it is."""
    playing = (
        Game.objects.filter(table__round=round_, status=Game.Status.PLAYING, ended_by_time=False)
        .select_related("table")
        .annotate(hand_count=Count("hands"))
        .order_by("table__number")
    )
    with transaction.atomic(), standings_counted_last():  # one count of the standings' change for every game
        games = list(playing)
        return RoundEnd(
            ended=[
                game_update(game_id=game.pk, user=user, version=None, ended_by_time=True)
                for game in games
                if game.hand_count
            ],
            not_started=[game for game in games if not game.hand_count],
        )


def game_end_by_time(*, game: Game, user: Writer | None) -> Game:
    """End one game by the clock after its last hand entered; refused for a game finished or not started."""
    if game.status == Game.Status.FINISHED:
        raise GameConflict.about(game.version, "end", _("this game is already finished"))
    return game_update(game_id=game.pk, user=user, version=None, ended_by_time=True)


def game_reopen(*, game: Game, user: Writer | None) -> Game:
    """Take back a game's end by time: its table enters hands again; the history keeps the end and the reopening."""
    if not game.ended_by_time:
        raise GameConflict.about(game.version, "end", _("this game is not ended by time"))
    return game_update(game_id=game.pk, user=user, version=None, ended_by_time=False)


def seat_substitute(*, game: Game, position: int, player_id: int, user: Writer | None) -> Game:
    """A substitute (or any registered player not seated in this round) takes a seat before the game's first
    hand, marked as a substitute; the history of the game records it."""
    with transaction.atomic():
        locked = Game.objects.select_for_update(of=("self",)).select_related("table").get(pk=game.pk)
        if locked.hands.exists():
            raise Refusal.one("seat", _("a substitute takes a seat before the game's first hand"))
        seat = locked.seats.filter(position=position).first()
        if seat is None:
            raise Refusal.one("seat", _("this table has no seat %(n)s") % {"n": position + 1})
        if not locked.event.registrations.filter(player_id=player_id, withdrawn=False).exists():
            raise Refusal.one("player", _("is not a registered player of this event"))
        same_round = (
            Seat.objects.filter(player_id=player_id, game__table__round_id=locked.table.round_id)
            if locked.table is not None
            else locked.seats.filter(player_id=player_id)
        )
        if same_round.exists():
            raise Refusal.one("player", _("is already seated in this round"))
        return game_seat_player(game_id=locked.pk, position=seat.position, player_id=player_id, user=user)
