"""Every write to a game's hands, and the preview the referee sees before saving.

Each write (``game_record_hand``, ``game_change_hand``, ``game_delete_hand``,
``game_put_sheet``, ``game_update``) says what it changes and goes through the
one write path (``scoring.services.hand_write.write``): it locks the game,
checks the version the writer last saw, replays the whole game (a game is a
few dozen hands: cheap), and only then saves what changed, the history entry
and the derived results, all in one transaction. Invalid input changes
nothing. Standings are recomputed after the commit by a Celery task.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypedDict

from django.utils.translation import gettext as _

from rules.errors import Problem, Refusal
from scoring.models import HandChange, Penalty
from scoring.services import chain
from scoring.services.hand_write import (
    Change,
    Locate,
    Seen,
    TableCodeWriter,
    VersionConflict,
    check_index,
    check_open,
    closed,
    penalties_reread,
    write,
)
from scoring.services.replay import game_sheet, hand_problems, replay
from scoring.sheet.output import FinalLine, NextHand, ResultHand, result_json
from scoring.sheet.record import HandRecord
from tournament.models import Game, Seat
from tournament.users import Writer

# The write path's names its callers know these writes by.
__all__ = ["Locate", "Seen", "TableCodeWriter", "VersionConflict"]


class HandPreview(TypedDict):
    """What ``game_preview_hand`` answers: the hand as it would be stored and the game's state after it."""

    index: int
    hand: ResultHand
    finished: bool
    end_reason: str | None
    next: NextHand | None
    final: list[FinalLine]
    deposits_left: int


def game_record_hand(
    *,
    game_id: int,
    record: HandRecord,
    user: Writer | None,
    version: int | None,
    locate: Locate | None = None,
    seen: Seen | None = None,
) -> Game:
    """Add the next hand (players by id). ``locate`` and ``seen``: ``hand_write.write``'s."""
    added = Change(HandChange.Action.ADD, lambda records: [*records, record])
    return write(game_id, version, user, added, locate=locate, seen=seen)


def game_change_hand(
    *,
    game_id: int,
    index: int,
    record: HandRecord,
    user: Writer | None,
    version: int | None,
    locate: Locate | None = None,
    seen: Seen | None = None,
) -> Game:
    """Correct any hand; everything after it is replayed."""

    def change(records: list[HandRecord]) -> list[HandRecord]:
        check_index(records, index)
        records[index] = record
        return records

    return write(
        game_id, version, user, Change(HandChange.Action.CHANGE, change, index=index), locate=locate, seen=seen
    )


def game_delete_hand(
    *,
    game_id: int,
    index: int,
    user: Writer | None,
    version: int | None,
    locate: Locate | None = None,
    seen: Seen | None = None,
) -> Game:
    """Remove any hand; the later hands move up one and the game is replayed."""

    def change(records: list[HandRecord]) -> list[HandRecord]:
        check_index(records, index)
        return records[:index] + records[index + 1 :]

    return write(
        game_id, version, user, Change(HandChange.Action.DELETE, change, index=index), locate=locate, seen=seen
    )


def game_put_sheet(
    *,
    game_id: int,
    hands: list[HandRecord],
    user: Writer | None,
    version: int | None,
    start: Mapping[str, Any] | None = None,
    ended_by_time: bool | None = None,
) -> Game:
    """Replace all of a game's hands (players by id), as a score sheet does."""

    def alter(game: Game) -> tuple[Any, Any]:
        before = game_sheet(game)
        _set_header(game, start=start, ended_by_time=ended_by_time)
        return before, game_sheet(game, hands)

    return write(game_id, version, user, Change(HandChange.Action.SHEET, lambda _records: list(hands), alter=alter))


def game_put_log(*, game_id: int, hands: list[HandRecord], user: Writer | None, start: Mapping[str, Any]) -> Game:
    """A new game's hands read from an online platform's log (players by id); the history says "import"."""

    def alter(game: Game) -> tuple[Any, Any]:
        before = game_sheet(game)
        _set_header(game, start=start)
        return before, game_sheet(game, hands)

    return write(game_id, None, user, Change(HandChange.Action.IMPORT, lambda _records: list(hands), alter=alter))


def game_update(
    *,
    game_id: int,
    user: Writer | None,
    version: int | None,
    ended_by_time: bool | None = None,
    substitutes: Sequence[int] | None = None,
    locate: Locate | None = None,
) -> Game:
    """End a game by the clock (or reopen it), or mark which seats a substitute played.

    Ending by time (the sheet's ``end: time``) finishes the game after its
    last hand entered: it takes no more until it is reopened. A game that
    has no hand, or that its play has already finished, is not ended by
    time; a game recorded by its end scores is corrected, not reopened. A
    substitute's result is ranked by the event's substitute rule. Each
    replays the game and counts in the history.
    """

    def alter(game: Game) -> tuple[Any, Any]:
        seats = sorted(game.seats.all(), key=lambda seat: seat.position)  # the write's, read under its lock
        before = _game_settings(game, seats)
        if ended_by_time is not None and ended_by_time != game.ended_by_time:
            _check_clock(game, ended_by_time)
        if substitutes is not None:
            _set_substitutes(seats, substitutes)
        _set_header(game, ended_by_time=ended_by_time)
        return before, _game_settings(game, seats)

    return write(
        game_id, version, user, Change(HandChange.Action.GAME, lambda records: records, alter=alter), locate=locate
    )


def game_seat_player(*, game_id: int, position: int, player_id: int, user: Writer | None) -> Game:
    """A substitute takes seat ``position`` (the caller checked that no hand is entered): the history keeps who
    sat there before and who sits there now."""

    def alter(game: Game) -> tuple[Any, Any]:
        seats = sorted(game.seats.all(), key=lambda seat: seat.position)
        seat = seats[position]
        before = {**_game_settings(game, seats), "seat": position, "player": seat.player_id}
        seat.player_id, seat.substitute = player_id, True
        seat.save(update_fields=["player", "substitute"])
        return before, {**_game_settings(game, seats), "seat": position, "player": player_id}

    seated = Change(HandChange.Action.GAME, lambda records: records, alter=alter, reseats=True)
    return write(game_id, None, user, seated)


def game_penalty(*, game_id: int, user: Writer | None, apply: Callable[[Game], None]) -> Game:
    """Give, change or take back a penalty in a game (``apply`` writes it): the game is replayed with it, so its
    result shows it at once, and the change is sealed in the game's history like a hand."""

    def alter(game: Game) -> tuple[Any, Any]:
        before = chain.penalties_of(Penalty.objects.filter(game=game))
        apply(game)
        penalties_reread(game)
        return {"penalties": before}, {"penalties": chain.penalties_of(Penalty.objects.filter(game=game))}

    return write(game_id, None, user, Change(HandChange.Action.GAME, lambda records: records, alter=alter))


def game_preview_hand(*, game_id: int, record: HandRecord, index: int | None = None) -> HandPreview:
    """What adding this hand (or putting it in place of hand ``index``) would give, saving nothing.

    The referee's page shows the payments before the hand is saved: the game
    is replayed exactly as the writes do it, so the preview and the saved
    hand cannot differ. Returns the hand (players by seat, as stored) and the
    game's state after all its hands (``finished``, ``end_reason``, ``next``,
    ``final``). Refusal names the problems relative to the hand, like
    the writes.
    """
    game = Game.objects.select_related("event").get(pk=game_id)
    records = [h.record for h in game.hands.order_by("index")]
    if index is None:
        check_open(game, len(records))
        index = len(records)
        records.append(record)
    else:
        check_index(records, index)
        records[index] = record
    try:
        result = result_json(replay(game, records, stored=index))
    except Refusal as exc:
        raise Refusal(hand_problems(exc.problems, index)) from None
    return {
        "index": index,
        "hand": result["hands"][index],
        "finished": result["finished"],
        "end_reason": result["end_reason"],
        "next": result.get("next"),
        "final": result["final"],
        "deposits_left": result["deposits_left"],
    }


def sheet_header_problems(game: Game, data: Mapping[str, Any]) -> list[Problem]:
    """What a sheet PUT to an existing game may not change: its ruleset, its players and its penalties."""
    current = game_sheet(game, [])
    problems = [Problem(key, "not part of a game's sheet") for key in sorted(set(data) - _SHEET_KEYS)]
    if "penalties" in data and data["penalties"] != current["penalties"]:
        problems.append(Problem("penalties", "penalties are recorded on the event (admin), not through the sheet"))
    if "ruleset" in data and data["ruleset"] != current["ruleset"]:
        problems.append(Problem("ruleset", f"this game is played under the ruleset {current['ruleset']!r}"))
    if "overrides" in data and data["overrides"] != current["overrides"]:
        problems.append(Problem("overrides", f"this game is played with the overrides {current['overrides']}"))
    if "players" in data and data["players"] != current["players"]:
        problems.append(Problem("players", f"this game's players are {current['players']} in seat order"))
    if not isinstance(data.get("hands", []), list):
        problems.append(Problem("hands", "must be a list of hands"))
    if data.get("end") not in (None, "time"):
        problems.append(Problem("end", 'must be "time" or left out'))
    return problems


_SHEET_KEYS = frozenset({"ruleset", "overrides", "players", "start", "hands", "end", "penalties"})


def _game_settings(game: Game, seats: Sequence[Seat]) -> dict[str, Any]:
    return {"end": "time" if game.ended_by_time else None, "substitutes": [s.player_id for s in seats if s.substitute]}


def _set_substitutes(seats: Sequence[Seat], substitutes: Sequence[int]) -> None:
    ids = [s.player_id for s in seats]
    strangers = [pid for pid in substitutes if pid not in ids]
    if strangers:
        raise Refusal.one("substitutes", f"not at this table: {strangers}; its players are {ids}")
    for seat in seats:
        if seat.substitute != (seat.player_id in substitutes):
            seat.substitute = seat.player_id in substitutes
            seat.save(update_fields=["substitute"])


def _set_header(game: Game, *, start: Mapping[str, Any] | None = None, ended_by_time: bool | None = None) -> None:
    """Set on the game in hand: the write saves them with its result (one UPDATE of the game's row)."""
    if start is not None and start != game.start:
        game.start = dict(start)
    if ended_by_time is not None and ended_by_time != game.ended_by_time:
        game.ended_by_time = ended_by_time


def _check_clock(game: Game, ended_by_time: bool) -> None:
    """Whether the clock may end (or reopen) the game as it stands under the caller's lock."""
    if ended_by_time and game.status == Game.Status.FINISHED:
        raise closed(game, _("this game is already finished"))
    if not ended_by_time and game.recorded_by_scores:
        raise closed(game, _("this game was recorded by its end scores: correct its scores instead of reopening it"))
