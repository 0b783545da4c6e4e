"""Every write to a game's hands, and the preview the referee sees before saving.

Each write (``game_record_hand``, ``game_change_hand``, ``game_delete_hand``,
``game_put_sheet``, ``game_update``) locks the game, checks the version the
writer last saw, replays the whole game (a game is a few dozen hands: cheap),
and only then saves the hands, the history entry and the derived results,
all in one transaction. Invalid input changes nothing. Standings are
recomputed after the commit by a Celery task.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.errors import Problem, Refusal
from scoring.models import Hand, HandChange, Penalty
from scoring.services import chain
from scoring.services.replay import game_sheet, hand_problems, replay, store_result
from scoring.services.stage_checks import cut_check
from scoring.services.standings import standings_game_changed
from scoring.sheet import solo
from scoring.sheet.output import FinalLine, NextHand, ResultHand, result_json
from scoring.sheet.record import HandRecord
from tournament.errors import GameConflict
from tournament.models import Game, Seat
from tournament.selectors import prefetch_seats
from tournament.users import Writer, account

# What a write changes besides the hands (the game's clock, start or substitutes): it returns the
# (before, after) the history keeps in place of the hands.
Alter = Callable[[Game], tuple[Any, Any]]


@dataclass(frozen=True, slots=True)
class TableCodeWriter:
    """The players at a table entering their own hands with its code, without an account (the history names the
    table's code, not a person)."""

    table_number: int
    game_id: int
    is_authenticated = False

    def get_username(self) -> str:
        return f"table {self.table_number}'s code"


class HandPreview(TypedDict):
    """What ``game_preview_hand`` answers: the hand as it would be stored and the game's state after it."""

    index: int
    hand: ResultHand
    finished: bool
    end_reason: str | None
    next: NextHand | None
    final: list[FinalLine]
    deposits_left: int


class VersionConflict(GameConflict):
    """The game changed since the writer read it: the write is refused whatever its input, so no field is named
    (``problems`` is empty) and the refusal's text says it as a whole. ``current`` is the game's version."""

    def __init__(self, current: int) -> None:
        super().__init__([], version=current)
        self.args = (f"the game has changed (now version {current}); reload it and enter the hand again",)

    @property
    def current(self) -> int:
        return self.version


@dataclass(frozen=True, slots=True)
class _Change:
    action: HandChange.Action
    change: Callable[[list[HandRecord]], list[HandRecord]]
    index: int | None = None  # the hand changed or deleted; an added hand's is read under the lock
    alter: Alter | None = None


def game_lock(game_id: int) -> None:
    """Hold the game's row for the caller's transaction: writers without an account (a table's code) share one
    idempotency owner, so two copies of one form must claim their key one after the other."""
    Game.objects.select_for_update(of=("self",)).filter(pk=game_id).first()


def game_record_hand(*, game_id: int, record: HandRecord, user: Writer | None, version: int | None) -> Game:
    """Add the next hand (players by id)."""
    return _write(game_id, version, user, _Change(HandChange.Action.ADD, lambda records: [*records, record]))


def game_change_hand(*, game_id: int, index: int, record: HandRecord, user: Writer | None, version: int | None) -> Game:
    """Correct any hand; everything after it is replayed."""

    def change(records: list[HandRecord]) -> list[HandRecord]:
        _check_index(records, index)
        records[index] = record
        return records

    return _write(game_id, version, user, _Change(HandChange.Action.CHANGE, change, index=index))


def game_delete_hand(*, game_id: int, index: int, user: Writer | None, version: int | None) -> Game:
    """Remove any hand; the later hands move up one and the game is replayed."""

    def change(records: list[HandRecord]) -> list[HandRecord]:
        _check_index(records, index)
        return records[:index] + records[index + 1 :]

    return _write(game_id, version, user, _Change(HandChange.Action.DELETE, change, index=index))


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

    return _write(game_id, version, user, _Change(HandChange.Action.SHEET, lambda _records: list(hands), alter=alter))


def game_put_log(*, game_id: int, hands: list[HandRecord], user: Writer | None, start: Mapping[str, Any]) -> Game:
    """A new game's hands read from an online platform's log (players by id); the history says "import"."""

    def alter(game: Game) -> tuple[Any, Any]:
        before = game_sheet(game)
        _set_header(game, start=start)
        return before, game_sheet(game, hands)

    return _write(game_id, None, user, _Change(HandChange.Action.IMPORT, lambda _records: list(hands), alter=alter))


def game_update(
    *,
    game_id: int,
    user: Writer | None,
    version: int | None,
    ended_by_time: bool | None = None,
    substitutes: Sequence[int] | None = None,
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
        seats = list(game.seats.order_by("position"))
        before = _game_settings(game, seats)
        if ended_by_time is not None and ended_by_time != game.ended_by_time:
            _check_clock(game, ended_by_time)
        if substitutes is not None:
            _set_substitutes(seats, substitutes)
        _set_header(game, ended_by_time=ended_by_time)
        return before, _game_settings(game, seats)

    return _write(game_id, version, user, _Change(HandChange.Action.GAME, lambda records: records, alter=alter))


def game_seat_player(*, game_id: int, position: int, player_id: int, user: Writer | None) -> Game:
    """A substitute takes seat ``position`` (the caller checked that no hand is entered): the history keeps who
    sat there before and who sits there now."""

    def alter(game: Game) -> tuple[Any, Any]:
        seats = list(game.seats.order_by("position"))
        seat = seats[position]
        before = {**_game_settings(game, seats), "seat": position, "player": seat.player_id}
        seat.player_id, seat.substitute = player_id, True
        seat.save(update_fields=["player", "substitute"])
        return before, {**_game_settings(game, seats), "seat": position, "player": player_id}

    return _write(game_id, None, user, _Change(HandChange.Action.GAME, lambda records: records, alter=alter))


def game_penalty(*, game_id: int, user: Writer | None, apply: Callable[[Game], None]) -> Game:
    """Give, change or take back a penalty in a game (``apply`` writes it): the game is replayed with it, so its
    result shows it at once, and the change is sealed in the game's history like a hand."""

    def alter(game: Game) -> tuple[Any, Any]:
        before = chain.penalties_of(Penalty.objects.filter(game=game))
        apply(game)
        return {"penalties": before}, {"penalties": chain.penalties_of(Penalty.objects.filter(game=game))}

    return _write(game_id, None, user, _Change(HandChange.Action.GAME, lambda records: records, alter=alter))


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
        _check_open(game, len(records))
        index = len(records)
        records.append(record)
    else:
        _check_index(records, index)
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


# --- the one write path ------------------------------------------------------------


def _write(game_id: int, version: int | None, user: Writer | None, change: _Change) -> Game:
    """Lock, check the version, replay with the change, save everything or nothing."""
    with transaction.atomic():
        # Only the game's row: a bare FOR UPDATE would lock the joined event too, and every table of the event
        # would wait for every other one.
        game = Game.objects.select_for_update(of=("self",)).select_related("event").get(pk=game_id)
        if version is not None and version != game.version:
            raise VersionConflict(game.version)
        altered = change.alter(game) if change.alter is not None else None
        prefetch_seats(game)  # once: the replay, the results and the caller's answer all read them
        counted_before = game.status == Game.Status.FINISHED
        rows = list(game.hands.order_by("index"))
        before = [h.record for h in rows]
        index = len(before) if change.action == HandChange.Action.ADD else change.index
        if change.action == HandChange.Action.ADD:
            _check_open(game, len(before))
        after = change.change(list(before))
        if game.ruleset().is_solo:  # an attempt written down without a result reached tenpai: stored with it
            after = [solo.with_result(record) for record in after]
        _check_ended_after_a_hand(game, change.action, after)
        try:
            scored = replay(game, after, stored=_unchanged(before, after))
        except Refusal as exc:
            if index is None or change.action == HandChange.Action.DELETE:
                raise
            raise Refusal(hand_problems(exc.problems, index)) from None
        _save_hands(game, rows, after, user)
        game.version += 1
        was, now = altered if altered is not None else _history_entry(change.action, index, before, after)
        record_history(
            game,
            HandChange(
                game=game,
                index=index,
                action=change.action,
                before=was,
                after=now,
                user=account(user),
                version=game.version,
                author=user.get_username() if isinstance(user, TableCodeWriter) else "",
            ),
        )
        # A correction asks the players again: what they confirmed is not this game any more.
        game.confirmations.all().delete()
        store_result(game, scored)
        # Standings count finished games only: a hand in a game still going on cannot change them.
        if counted_before or game.status == Game.Status.FINISHED:
            standings_game_changed(game)
            cut_check(game=game, user=user)
    return game


def record_history(game: Game, entry: HandChange) -> None:
    """The entry sealed onto the game's chain; the caller holds the game's row lock, so the chain cannot fork."""
    entry.author = entry.user.get_username() if entry.user is not None else entry.author
    entry.at = chain.sealed_time(timezone.now())
    entry.previous = HandChange.objects.filter(game=game).order_by("-id").values_list("hash", flat=True).first() or ""
    entry.terms = chain.game_terms(game)
    entry.key, entry.hash = chain.seal(chain.content_of(entry), entry.previous)
    entry.save()


def _unchanged(before: list[HandRecord], after: list[HandRecord]) -> int:
    """How many leading hands a write leaves as they were."""
    same = 0
    for old, new in zip(before, after, strict=False):
        if old != new:
            break
        same += 1
    return same


def _history_entry(
    action: str, index: int | None, before: list[HandRecord], after: list[HandRecord]
) -> tuple[Any, Any]:
    if index is None:
        return before, after  # the whole sheet
    was = before[index] if index < len(before) else None
    now = after[index] if action != HandChange.Action.DELETE else None
    return was, now


def _save_hands(game: Game, rows: list[Hand], records: list[HandRecord], user: Writer | None) -> None:
    """Rewrite the rows whose record changed; indices stay 0..n-1 with no gap."""
    entered_by = account(user)
    for index, record in enumerate(records):
        if index < len(rows):
            if rows[index].record != record:
                rows[index].record = record
                rows[index].entered_by = entered_by
                rows[index].save(update_fields=["record", "entered_by", "entered_at"])
        else:
            Hand.objects.create(game=game, index=index, record=record, entered_by=entered_by)
    if len(rows) > len(records):
        Hand.objects.filter(game=game, index__gte=len(records)).delete()


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
    changed = []
    if start is not None and start != game.start:
        game.start = dict(start)
        changed.append("start")
    if ended_by_time is not None and ended_by_time != game.ended_by_time:
        game.ended_by_time = ended_by_time
        changed.append("ended_by_time")
    if changed:
        game.save(update_fields=changed)


def _closed(game: Game, message: str) -> GameConflict:
    return GameConflict.about(game.version, "end", message)


def _check_ended_after_a_hand(game: Game, action: str, after: list[HandRecord]) -> None:
    """A game ends by time after a hand (or at the end scores it was recorded with): a table that has not started
    is not a game played, and must not count in the standings as one."""
    if not game.ended_by_time or after or "scores" in game.start:
        return
    if action == HandChange.Action.DELETE:
        raise _closed(game, _("this is the only hand of a game ended by time: reopen the game to delete it"))
    raise _closed(game, _("no hand has been entered: a game that has not started cannot be ended by time"))


def _check_clock(game: Game, ended_by_time: bool) -> None:
    """Whether the clock may end (or reopen) the game as it stands under the caller's lock."""
    if ended_by_time and game.status == Game.Status.FINISHED:
        raise _closed(game, _("this game is already finished"))
    if not ended_by_time and game.recorded_by_scores:
        raise _closed(game, _("this game was recorded by its end scores: correct its scores instead of reopening it"))


def _check_open(game: Game, hands: int) -> None:
    """A game ended by time ended after its last hand: nothing is added to it until it is reopened."""
    if not game.ended_by_time:
        return
    if hands:
        raise _closed(
            game,
            _("this game was ended by time after hand %(n)s: no more hands can be added until an organiser reopens it")
            % {"n": hands},
        )
    raise _closed(game, _("this game was recorded by its end scores: no hands can be added to it"))


def _check_index(records: list[HandRecord], index: int) -> None:
    if not 0 <= index < len(records):
        raise Refusal.one(
            "index", f"this game has hands 0 to {len(records) - 1}" if records else "this game has no hands yet"
        )
