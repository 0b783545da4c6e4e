"""The one write path of a game's hands (``write``): lock, check the version, replay, save what changed, seal.

Every write in ``scoring.services.hands`` comes here. The game's row is read
once, locked; what the replay needs (seats, penalties, hands) is read once
after it and shared by the replay, the history's terms and the answer. The
hands, the GameResult rows and the result JSON are written where they
changed only. Standings are refreshed after the commit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.errors import Refusal
from scoring.models import Hand, HandChange, Penalty
from scoring.services import chain, plain_rows
from scoring.services.replay import hand_problems, replay, store_result
from scoring.services.stage_checks import cut_check
from scoring.services.standings import standings_counted_last, standings_game_changed
from scoring.services.write_reads import game_hands, game_seats, locked_game
from scoring.sheet import solo
from scoring.sheet.reader import ScoredSheet
from scoring.sheet.record import HandRecord
from tournament.errors import GameConflict
from tournament.models import Game, Seat
from tournament.selectors import given_related, given_seats
from tournament.users import Writer, account

# What a write changes besides the hands (the game's clock, start or substitutes): it returns the
# (before, after) the history keeps in place of the hands.
Alter = Callable[[Game], tuple[Any, Any]]
# How the caller checks the game the locking read found (None: no such game), e.g. whether the user sees it and
# writes to it, raising if not: the game is read once, locked, with what the writer is to its event.
Locate = Callable[[Game | None], Game]


@dataclass(frozen=True, slots=True)
class TableCodeWriter:
    """The players at a table entering their own hands with its code, without an account (the history names the
    table's code, not a person)."""

    table_number: int
    game_id: int
    is_authenticated = False

    def get_username(self) -> str:
        return f"table {self.table_number}'s code"


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
class Change:
    action: HandChange.Action
    change: Callable[[list[HandRecord]], list[HandRecord]]
    index: int | None = None  # the hand changed or deleted; an added hand's is read under the lock
    alter: Alter | None = None
    reseats: bool = False  # the alter may seat another player: the rows of one who left go


@dataclass(frozen=True, slots=True)
class Seen:
    """The game's seats as the caller read them at ``version`` (the entry page reads them to check its form): every
    change to the seats bumps the version, so they are still the seats if the locked row has that version."""

    version: int
    seats: Sequence[Seat]


def write(
    game_id: int,
    version: int | None,
    user: Writer | None,
    change: Change,
    *,
    locate: Locate | None = None,
    seen: Seen | None = None,
) -> Game:
    """Lock, check the version, replay with the change, save everything or nothing."""
    # The standings change is counted last (its lock held for the commit only), in the same transaction.
    with transaction.atomic(savepoint=not _whole.get()), standings_counted_last():
        game = _locked(game_id, user, locate)
        if version is not None and version != game.version:
            raise VersionConflict(game.version)
        _read_with(game, seen)
        altered = change.alter(game) if change.alter is not None else None
        counted_before = game.status == Game.Status.FINISHED
        # The chain's head comes with the hands, read under the lock in one statement (a game without hands yet
        # reads it on its own).
        rows, head = game_hands(game)
        before = [h.record for h in rows]
        index = len(before) if change.action == HandChange.Action.ADD else change.index
        after = _changed(game, change, before)
        scored = _replayed(game, change, index, before, after)
        _save_hands(game, rows, after, user)
        game.version += 1
        entry = altered or _history_entry(change.action, index, before, after)
        _seal(game, change, index, entry, user, head)
        if counted_before:
            # A correction asks the players again: what they confirmed is not this game any more. (Only a
            # finished game is confirmed, and a write to it that reopens it clears them: a game still going on
            # has none to clear.)
            game.confirmations.all().delete()
        store_result(game, scored, seats_changed=change.reseats)
        # Standings count finished games only: a hand in a game still going on cannot change them.
        if counted_before or game.status == Game.Status.FINISHED:
            standings_game_changed(game)
            cut_check(game=game, user=user)
    return game


def _seal(
    game: Game, change: Change, index: int | None, entry: tuple[Any, Any], user: Writer | None, head: str | None
) -> None:
    was, now = entry
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
        previous=head,
    )


# Set while the caller's transaction is rolled back whole when a write raises (``in_whole_transaction``).
_whole: ContextVar[bool] = ContextVar("whole_transaction", default=False)


@contextmanager
def in_whole_transaction() -> Iterator[None]:
    """Within it, a write makes no savepoint of its own (two statements less): the caller promises that its
    transaction ends with the write and is rolled back whole if the write raises (the edge's key claim does)."""
    token = _whole.set(True)
    try:
        yield
    finally:
        _whole.reset(token)


def _locked(game_id: int, user: Writer | None, locate: Locate | None) -> Game:
    writer = account(user)
    game = locked_game(game_id, writer.pk if writer is not None else None)
    if locate is not None:
        return locate(game)
    if game is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    return game


def _read_with(game: Game, seen: Seen | None) -> None:
    """The seats with their players and the penalties (if any), read once for the write's change, the replay, the
    history's terms, the results and the caller's answer; the caller's seats when they are still the game's."""
    given_seats(game, seen.seats if seen is not None and seen.version == game.version else game_seats(game))
    # The penalties in the order they were given, shared with the replay and the history's terms; none read when
    # the locking read says there are none.
    penalised = getattr(game, "penalised", True)
    given_related(game, "penalties", list(Penalty.objects.filter(game=game).order_by("id")) if penalised else [])


def penalties_reread(game: Game) -> None:
    """After a change to the game's penalties (``game_penalty``): the replay and the history read them as it left
    them."""
    vars(game).get("_prefetched_objects_cache", {}).pop("penalties", None)
    prefetch_related_objects([game], Prefetch("penalties", queryset=Penalty.objects.order_by("id")))


def _changed(game: Game, change: Change, before: list[HandRecord]) -> list[HandRecord]:
    if change.action == HandChange.Action.ADD:
        check_open(game, len(before))
    after = change.change(list(before))
    if game.ruleset().is_solo:  # an attempt written down without a result reached tenpai: stored with it
        after = [solo.with_result(record) for record in after]
    _check_ended_after_a_hand(game, change.action, after)
    return after


def _replayed(
    game: Game, change: Change, index: int | None, before: list[HandRecord], after: list[HandRecord]
) -> ScoredSheet:
    try:
        return replay(game, after, stored=_unchanged(before, after))
    except Refusal as exc:
        if index is None or change.action == HandChange.Action.DELETE:
            raise
        raise Refusal(hand_problems(exc.problems, index)) from None


def record_history(
    game: Game, entry: HandChange, *, previous: str | None = None, terms: dict[str, Any] | None = None
) -> None:
    """The entry sealed onto the game's chain; the caller holds the game's row lock, so the chain cannot fork.
    ``previous``: the chain's head, when the caller read it under that lock (else it is read here); ``terms``:
    ``chain.game_terms`` when the caller has them from rows it holds (else they are read here)."""
    plain_rows.insert(history_sealed(game, entry, previous=previous, terms=terms))


def history_sealed(
    game: Game, entry: HandChange, *, previous: str | None = None, terms: dict[str, Any] | None = None
) -> HandChange:
    """``record_history``'s entry sealed and not saved: an import of many logs saves their entries together."""
    entry.author = entry.user.get_username() if entry.user is not None else entry.author
    entry.at = chain.sealed_time(timezone.now())
    if previous is None:
        previous = HandChange.objects.filter(game=game).order_by("-id").values_list("hash", flat=True).first()
    entry.previous = previous or ""
    entry.terms = chain.game_terms(game) if terms is None else terms
    entry.key, entry.hash = chain.seal(chain.content_of(entry), entry.previous)
    return entry


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


def _save_hands(game: Game, rows: Sequence[Hand], records: list[HandRecord], user: Writer | None) -> None:
    """Rewrite the rows whose record changed; indices stay 0..n-1 with no gap."""
    entered_by = account(user)
    for index, record in enumerate(records):
        if index < len(rows):
            if rows[index].record != record:
                rows[index].record = record
                rows[index].entered_by = entered_by
                plain_rows.update(rows[index], ("record", "entered_by", "entered_at"))
        else:
            plain_rows.insert(Hand(game=game, index=index, record=record, entered_by=entered_by))
    if len(rows) > len(records):
        Hand.objects.filter(game=game, index__gte=len(records)).delete()


def closed(game: Game, message: str) -> GameConflict:
    return GameConflict.about(game.version, "end", message)


def _check_ended_after_a_hand(game: Game, action: str, after: list[HandRecord]) -> None:
    """A game ends by time after a hand (or at the end scores it was recorded with): a table that has not started
    is not a game played, and must not count in the standings as one."""
    if not game.ended_by_time or after or "scores" in game.start:
        return
    if action == HandChange.Action.DELETE:
        raise closed(game, _("this is the only hand of a game ended by time: reopen the game to delete it"))
    raise closed(game, _("no hand has been entered: a game that has not started cannot be ended by time"))


def check_open(game: Game, hands: int) -> None:
    """A game ended by time ended after its last hand: nothing is added to it until it is reopened."""
    if not game.ended_by_time:
        return
    if hands:
        raise closed(
            game,
            _("this game was ended by time after hand %(n)s: no more hands can be added until an organiser reopens it")
            % {"n": hands},
        )
    raise closed(game, _("this game was recorded by its end scores: no hands can be added to it"))


def check_index(records: list[HandRecord], index: int) -> None:
    if not 0 <= index < len(records):
        raise Refusal.one(
            "index", f"this game has hands 0 to {len(records) - 1}" if records else "this game has no hands yet"
        )
