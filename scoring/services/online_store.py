"""One checked online log stored as a new game, in bulk: what the one write path stores, from the one replay.

``scoring.services.hands.game_put_log`` opens a game, replays it empty, then
replays it with its hands and stores both results. An import has already
replayed the log once to check it (``scoring.logs.check``): that replay is
the game's result, so the game is written once, whole: its row (with its
result), its seats, its hands, its result and statistics rows and its history
entry, each one insert. The rows are the ones the write path leaves (tests
hold the two paths to the same rows); the caller holds the transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.logs.model import OnlineGame
from scoring.models import GameResult, GameStats, Hand, HandChange
from scoring.services import chain
from scoring.services.game_stats import stats_rows
from scoring.services.hand_write import history_sealed
from scoring.services.online_players import Seated
from scoring.services.replay import result_rows
from scoring.services.stage_checks import cut_check
from scoring.services.standings import standings_refresh
from scoring.sheet.output import result_json
from scoring.sheet.reader import ScoredSheet
from scoring.sheet.record import HandRecord, map_players
from tournament.models import Event, Game, Seat
from tournament.services.games import game_seats, game_unsaved
from tournament.users import RequestUser, account

# The version the write path leaves a new game at: opened (1), then its hands written (2).
IMPORTED_VERSION = 2


@dataclass(slots=True)
class GameRows:
    """One log's game written whole: its game row (saved), then the rows that name it, each kind one insert."""

    game: Game
    seats: list[Seat] = field(default_factory=list)
    hands: list[Hand] = field(default_factory=list)
    results: list[GameResult] = field(default_factory=list)
    stats: list[GameStats] = field(default_factory=list)
    history: list[HandChange] = field(default_factory=list)

    def add(self, other: GameRows) -> None:
        """``other``'s rows with these, to be saved in the same inserts (a group of logs)."""
        for name in ("seats", "hands", "results", "stats", "history"):
            getattr(self, name).extend(getattr(other, name))

    def save(self) -> None:
        Seat.objects.bulk_create(self.seats)
        Hand.objects.bulk_create(self.hands)
        GameResult.objects.bulk_create(self.results)
        GameStats.objects.bulk_create(self.stats)
        HandChange.objects.bulk_create(self.history)


def game_store(
    *,
    event: Event,
    online: OnlineGame,
    scored: ScoredSheet,
    differences: list[str],
    seated: Seated,
    user: RequestUser | None,
    registered_now: bool,
    cuts: bool,
) -> Game:
    """Store the log's game (players by ``seated``); ``registered_now``: the standings were refreshed for the
    players this log registered, which counts the game too; ``cuts``: the event has cuts after stage 1."""
    game, subs = game_unsaved_of(event=event, online=online, scored=scored, differences=differences, seated=seated)
    game.save(force_insert=True)
    game_rows(game, online, scored, seated, subs, user).save()
    if game.status == Game.Status.FINISHED and not registered_now:
        standings_refresh(event.pk, [seated.ids[name] for name in online.names])  # only its players' lines change
    if cuts:
        cut_check(game=game, user=user)
    return game


def game_unsaved_of(
    *, event: Event, online: OnlineGame, scored: ScoredSheet, differences: list[str], seated: Seated
) -> tuple[Game, set[int]]:
    """The log's game row checked and not saved, and which of its players play as substitutes; Refusal as
    ``game_seat`` refuses."""
    finished = scored.record.state.finished
    return game_unsaved(
        event=event,
        player_ids=[seated.ids[name] for name in online.names],
        rules=(online.ruleset, online.overrides),
        played_on=online.played_on,
        registered=seated.registered,
        fields={
            "platform": online.platform.value,
            "log_id": online.log_id,
            "log_check": Game.LogCheck.DIFFERS if differences else Game.LogCheck.MATCHES,
            "log_differences": differences,
            "start": dict(online.sheet().get("start", {})),
            "result": result_json(scored),
            "status": Game.Status.FINISHED if finished else Game.Status.PLAYING,
            "version": IMPORTED_VERSION,
        },
    )


def game_rows(
    game: Game, online: OnlineGame, scored: ScoredSheet, seated: Seated, subs: set[int], user: RequestUser | None
) -> GameRows:
    """The rows (unsaved) that name the saved ``game``: seats, hands, result and statistics, history entry."""
    ids = [seated.ids[name] for name in online.names]
    seats = game_seats(game, ids, subs)
    records = [map_players(hand, seated.ids.__getitem__) for hand in online.hands]
    entered_by = account(user)
    results = result_rows(game, scored, dict(enumerate(seats)))
    return GameRows(
        game,
        seats,
        [Hand(game=game, index=index, record=record, entered_by=entered_by) for index, record in enumerate(records)],
        results,
        stats_rows(game, game.result, results, {s.player_id: s.position for s in seats}),
        [_history(game, seats, records, game.start, user)],
    )


def _history(
    game: Game, seats: Sequence[Seat], records: list[HandRecord], start: Mapping[str, Any], user: RequestUser | None
) -> HandChange:
    """The game's first history entry (unsaved), sealed by ``hand_write.history_sealed`` as any entry is: the sheet
    before (the game opened, no start yet) and after (its start and hands); a new game's chain starts blank."""
    key, overrides = game.rules_source()
    before: dict[str, Any] = {
        "ruleset": key,
        "overrides": overrides,
        "players": [seat.player_id for seat in seats],
        "hands": [],
        "penalties": [],
    }
    after = {**before, "hands": list(records)}
    if start:
        after["start"] = dict(start)
    entry = HandChange(
        game=game,
        index=None,
        action=HandChange.Action.IMPORT,
        before=before,
        after=after,
        user=account(user),
        version=game.version,
    )
    return history_sealed(game, entry, previous="", terms=chain.game_terms(game, seats, new=True))
