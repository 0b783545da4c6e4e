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
from typing import Any

from scoring.logs.model import OnlineGame
from scoring.models import GameResult, GameStats, Hand, HandChange
from scoring.services import chain
from scoring.services.game_stats import stats_rows
from scoring.services.hand_write import record_history
from scoring.services.online_players import Seated
from scoring.services.replay import result_rows
from scoring.services.stage_checks import cut_check
from scoring.services.standings import standings_refresh
from scoring.sheet.output import result_json
from scoring.sheet.reader import ScoredSheet
from scoring.sheet.record import HandRecord, map_players
from tournament.models import Event, Game, Seat
from tournament.services.games import game_seat
from tournament.users import RequestUser, account

# The version the write path leaves a new game at: opened (1), then its hands written (2).
IMPORTED_VERSION = 2


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
    ids = [seated.ids[name] for name in online.names]
    start = dict(online.sheet().get("start", {}))
    finished = scored.record.state.finished
    game = game_seat(
        event=event,
        player_ids=ids,
        rules=(online.ruleset, online.overrides),
        played_on=online.played_on,
        registered=seated.registered,
        fields={
            "platform": online.platform.value,
            "log_id": online.log_id,
            "log_check": Game.LogCheck.DIFFERS if differences else Game.LogCheck.MATCHES,
            "log_differences": differences,
            "start": start,
            "result": result_json(scored),
            "status": Game.Status.FINISHED if finished else Game.Status.PLAYING,
            "version": IMPORTED_VERSION,
        },
    )
    seats = [
        Seat(game=game, player_id=pid, position=position, substitute=_substitute(seated, pid))
        for position, pid in enumerate(ids)
    ]
    records = [map_players(hand, seated.ids.__getitem__) for hand in online.hands]
    Hand.objects.bulk_create(
        [Hand(game=game, index=index, record=record, entered_by=account(user)) for index, record in enumerate(records)]
    )
    results = GameResult.objects.bulk_create(result_rows(game, scored, dict(enumerate(seats))))
    GameStats.objects.bulk_create(stats_rows(game, game.result, results, {s.player_id: s.position for s in seats}))
    _history(game, seats, records, start, user)
    if finished and not registered_now:
        standings_refresh(event.pk, ids)  # only the game's players' lines can change
    if cuts:
        cut_check(game=game, user=user)
    return game


def _substitute(seated: Seated, player_id: int) -> bool:
    return seated.registered.get(player_id, (False, False))[1]


def _history(
    game: Game, seats: Sequence[Seat], records: list[HandRecord], start: Mapping[str, Any], user: RequestUser | None
) -> None:
    """The game's first history entry, sealed by ``hand_write.record_history`` as any entry is: the sheet before
    (the game opened, no start yet) and after (its start and hands); a new game's chain starts blank."""
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
    record_history(game, entry, previous="", terms=chain.game_terms(game, seats, new=True))
