"""Online games into an event: each log read, checked hand by hand against its own numbers, and stored.

Each log is all or nothing: its players found (or created) and its game
stored whole, or nothing of it. A log whose replay differs from
what it records is refused, or with ``keep_mismatches`` stored marked
"differs from the log". A log already imported into the event is answered
with the game it made, so a retried upload adds nothing.

A batch (``logs_import``) costs what its games cost, not what its logs'
lookups cost: each log is replayed once (the check's replay is the game's
result, ``online_store``), the logs already imported are found in one query
and the players of every log in one (``online_players``), and its logs are
stored by groups, each group's rows of each kind in one insert and one
transaction (``online_group``); a group that fails as a whole is stored again
one log at a time, each in a transaction of its own, for the same answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from django.db import IntegrityError, transaction

from rules.errors import Problem, Refusal
from scoring.logs.check import Checked, check_game
from scoring.logs.model import OnlineGame
from scoring.logs.read import read_log
from scoring.services.online_group import GROUP, Ready, group_store
from scoring.services.online_players import PlayerBook, player_book
from scoring.services.online_store import game_store
from tournament.models import Event, Game
from tournament.users import RequestUser

ATTEMPTS = 2  # a second try finds the players another import created meanwhile


class Outcome(StrEnum):
    IMPORTED = "imported"  # stored, and it matches its log
    KEPT = "kept"  # stored although it differs from its log (keep_mismatches)
    ALREADY = "already_imported"  # this log made a game of this event before: nothing added
    DIFFERS = "differs"  # refused: the replay differs from the log
    UNREADABLE = "unreadable"  # refused: not a log, or players not found


@dataclass(frozen=True, slots=True)
class LogResult:
    """What became of one log."""

    source: str
    outcome: Outcome
    game: Game | None = None
    log_id: str = ""
    problems: list[Problem] = field(default_factory=list)

    @property
    def stored(self) -> bool:
        return self.outcome in (Outcome.IMPORTED, Outcome.KEPT, Outcome.ALREADY)


def log_import(
    *,
    event: Event,
    source: str,
    data: bytes,
    create_players: bool = False,
    keep_mismatches: bool = False,
    ruleset: str | None = None,
    user: RequestUser | None = None,
) -> LogResult:
    """Read, check and store one log (``source`` names it in messages and may carry Tenhou's log id)."""
    return logs_import(
        event=event,
        logs=[(source, data)],
        create_players=create_players,
        keep_mismatches=keep_mismatches,
        ruleset=ruleset,
        user=user,
    )[0]


def logs_import(
    *,
    event: Event,
    logs: Sequence[tuple[str, bytes]],
    create_players: bool = False,
    keep_mismatches: bool = False,
    ruleset: str | None = None,
    user: RequestUser | None = None,
) -> list[LogResult]:
    """Read, check and store each (source, bytes) log in turn, each one whole or not at all; a result per log."""
    results: dict[int, LogResult] = {}
    read: dict[int, OnlineGame] = {}
    for i, (source, data) in enumerate(logs):
        try:
            read[i] = read_log(data, name=source, ruleset=ruleset)
        except Refusal as exc:
            results[i] = LogResult(source, Outcome.UNREADABLE, problems=exc.problems)
    stored = {g.log_id: g for g in event.games.filter(log_id__in={o.log_id for o in read.values()})}
    ready: dict[int, Ready] = {}
    for i, online in read.items():
        source = logs[i][0]
        if online.log_id in stored:
            results[i] = LogResult(source, Outcome.ALREADY, stored[online.log_id], online.log_id)
        elif (refused := _refused(source, online, checked := check_game(online), keep_mismatches)) is not None:
            results[i] = refused
        else:
            ready[i] = Ready(source, online, checked)
    if not ready:
        return [results[i] for i in range(len(logs))]
    book = player_book(event, [n for r in ready.values() for n in r.online.names], create=create_players, user=user)
    # An imported game has no table, so it counts in stage 1: the cuts after it are checked only if there are any.
    cuts = event.stages.filter(number__gt=1, through__isnull=False).exists()
    group: dict[int, Ready] = {}
    for i, item in ready.items():
        if item.online.log_id in {g.online.log_id for g in group.values()} or len(group) == GROUP:
            _store_group(event, group, book, user, cuts=cuts, stored=stored, results=results)
            group = {}
        group[i] = item
    _store_group(event, group, book, user, cuts=cuts, stored=stored, results=results)
    return [results[i] for i in range(len(logs))]


def _store_group(
    event: Event,
    group: dict[int, Ready],
    book: PlayerBook,
    user: RequestUser | None,
    *,
    cuts: bool,
    stored: dict[str, Game],
    results: dict[int, LogResult],
) -> None:
    """The group's logs stored together (``online_group``), else one by one; ``stored`` and ``results`` learn
    them. A log already stored (the same log twice in one batch: the second finds the first) is answered so."""
    waiting = {}
    for i, item in group.items():
        game = stored.get(item.online.log_id)
        if game is not None:
            results[i] = LogResult(item.source, Outcome.ALREADY, game, item.online.log_id)
        else:
            waiting[i] = item
    if not cuts and len(waiting) > 1:  # cuts are checked after each game, as one by one
        try:
            answers = group_store(event=event, items=list(waiting.values()), book=book, user=user)
        except (IntegrityError, Refusal):  # another import meanwhile (a Refusal here would be a check missed before)
            pass  # nothing of the group was kept: one by one, each log is answered as it always was
        else:
            for (i, item), answer in zip(waiting.items(), answers, strict=True):
                if isinstance(answer, Refusal):
                    results[i] = LogResult(
                        item.source, Outcome.UNREADABLE, log_id=item.online.log_id, problems=answer.problems
                    )
                else:
                    stored[item.online.log_id], results[i] = answer, _result(item, answer)
            return
    for i, item in waiting.items():
        result = results[i] = _stored(event, item, book, user, cuts=cuts)
        if result.game is not None:
            stored[item.online.log_id] = result.game


def _refused(source: str, online: OnlineGame, checked: Checked, keep_mismatches: bool) -> LogResult | None:
    if checked.scored is None:
        return LogResult(
            source,
            Outcome.UNREADABLE,
            log_id=online.log_id,
            problems=[Problem("", line) for line in checked.differences],
        )
    if checked.differences and not keep_mismatches:
        return LogResult(
            source, Outcome.DIFFERS, log_id=online.log_id, problems=[Problem("", line) for line in checked.differences]
        )
    return None


def _stored(event: Event, item: Ready, book: PlayerBook, user: RequestUser | None, *, cuts: bool) -> LogResult:
    """One log's players and game, in a transaction of its own."""
    online, checked = item.online, item.checked
    assert checked.scored is not None
    for attempt in range(ATTEMPTS):
        try:
            claim = book.claim(online.names)
            with transaction.atomic():
                seated = book.save(claim)
                game = game_store(
                    event=event,
                    online=online,
                    scored=checked.scored,
                    differences=checked.differences,
                    seated=seated,
                    user=user,
                    registered_now=bool(claim.make or claim.register),
                    cuts=cuts,
                )
            book.keep(claim, seated)
            break
        except Refusal as exc:
            return LogResult(item.source, Outcome.UNREADABLE, log_id=online.log_id, problems=exc.problems)
        except IntegrityError:
            # Another import at the same moment stored this log, or created one of its new players.
            existing = event.games.filter(log_id=online.log_id).first()
            if existing is not None:
                return LogResult(item.source, Outcome.ALREADY, existing, online.log_id)
            if attempt + 1 == ATTEMPTS:
                raise
            book = player_book(event, online.names, create=book.create, user=user)
    return _result(item, game)


def _result(item: Ready, game: Game) -> LogResult:
    differences = item.checked.differences
    outcome = Outcome.KEPT if differences else Outcome.IMPORTED
    return LogResult(item.source, outcome, game, item.online.log_id, [Problem("", d) for d in differences])
