"""The per-game rows statistics add up (``GameStats``), written with a game's result and rebuilt from it.

``stats_rows`` turns a stored result (players by seat) and the game's GameResult
rows into one row per player: the hands' counts (``scoring.sheet.seat_counts``)
beside the place, score and points of the result row, so that a statistic is
one aggregate query over these rows. Statistics count finished games only, so a
game has its rows while it is finished: none while it is being played (most of
a game's writes then cost no statistics) and none again once it is reopened.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields

from scoring.models import GameResult, GameStats
from scoring.selectors import game_result
from scoring.services.plain_rows import upsert
from scoring.sheet.output import Result
from scoring.sheet.seat_counts import SeatCounts, places, seat_counts
from tournament.models import Game

# The counts a row holds beside the result's numbers (``scoring.sheet.seat_counts``).
COUNTED_FIELDS = (*(f.name for f in fields(SeatCounts) if f.name != "seat"), "yakuman")


def stats_rows(
    game: Game, result: Result, results: Sequence[GameResult], positions: Mapping[int, int]
) -> list[GameStats]:
    """The rows (unsaved) of one game: ``results`` its GameResult rows, ``positions`` each player's seat; none for a
    game that is not finished."""
    if not any(row.finished for row in results):
        return []
    counts = seat_counts(result)
    place = places(result)
    ruleset = result.get("ruleset") or {}
    mcr = ruleset.get("scoring") == "mcr"
    rows = []
    for row in results:
        seat = positions[row.player_id]
        numbers = counts[seat].as_dict()
        rows.append(
            GameStats(
                game_id=game.pk,
                player_id=row.player_id,
                event_id=game.event_id,
                finished=row.finished,
                ruleset=str(ruleset.get("key", ""))[:40],
                mcr=mcr,
                place=place.get(seat, int(row.rank)),
                rank=row.rank,
                score=row.score,
                points=row.points,
                table_points=row.table_points,
                busted=not mcr and row.score < 0,
                yakuman=len(numbers["yakuman_hands"]),
                **numbers,
            )
        )
    return rows


def stats_store(game: Game, results: Sequence[GameResult], positions: Mapping[int, int], *, counted: bool) -> None:
    """The game's rows from its stored result, in the caller's transaction: each player's row updated in place (one
    statement; a hand moves every player's counts), inserted for a player new at the table; a game reopened loses
    them. ``counted``: whether the game had rows before this write (it was finished); a game still being played
    that had none costs nothing."""
    rows = stats_rows(game, game_result(game), results, positions)
    if rows:
        upsert(rows, key=("game", "player"))
    elif counted:
        GameStats.objects.filter(game=game).delete()


def stats_rebuild(games: Iterable[Game] | None = None) -> int:
    """Every game's rows again from its stored result and GameResult rows (a restore, ``rebuild_stats``);
    returns how many rows were written."""
    chosen = Game.objects.filter(results__isnull=False).distinct() if games is None else games
    written = 0
    for game in chosen:
        results = list(GameResult.objects.filter(game=game))
        positions = dict(game.seats.values_list("player_id", "position"))
        GameStats.objects.filter(game=game).delete()
        written += len(GameStats.objects.bulk_create(stats_rows(game, game_result(game), results, positions)))
    return written
