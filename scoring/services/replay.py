"""The one place stored hands become a rules/ input, and the replay's output is stored.

A stored game is a score sheet naming its players by id (``game_sheet``);
``replay`` scores it through the Django-free reader with the players'
current names for its messages, and ``store_result`` keeps the output on the
game (players by seat) with one GameResult row and one GameStats row per player.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any

from rules.errors import Problem
from scoring.models import GameResult, GameStats
from scoring.selectors import game_penalties
from scoring.services import plain_rows
from scoring.services.game_stats import stats_store
from scoring.services.live import live_changed
from scoring.services.plain_rows import upsert
from scoring.sheet.output import result_json
from scoring.sheet.reader import ScoredSheet, score_sheet
from scoring.sheet.record import HandRecord, map_players
from tournament.models import Game, Seat
from tournament.selectors import game_roster


class NamedBy(StrEnum):
    """How a sheet names its players: by id (the API's, the history's) or by unique name (exports)."""

    ID = "id"
    LABEL = "label"


def game_sheet(game: Game, records: Iterable[HandRecord] | None = None, *, by: NamedBy = NamedBy.ID) -> dict[str, Any]:
    """The game as a score sheet (docs/score-sheet.md), with its stored hands or ``records`` (players by id)."""
    roster = game_roster(game)
    if records is None:
        records = [h.record for h in game.hands.order_by("index")]

    def name(player_id: Any) -> Any:
        return player_id if by == NamedBy.ID else roster.label_of(player_id)

    key, overrides = game.rules_source()
    sheet: dict[str, Any] = {
        "ruleset": key,
        "overrides": overrides,
        "players": list(roster.ids) if by == NamedBy.ID else list(roster.labels),
        "hands": [map_players(r, name) for r in records],
        "penalties": [
            {"player": name(p.player_id), "points": float(p.points), "reason": p.reason} for p in game_penalties(game)
        ],
    }
    if game.start:
        sheet["start"] = game.start
    if game.ended_by_time:
        sheet["end"] = "time"
    return sheet


def replay(game: Game, records: Sequence[HandRecord], *, stored: int = 0) -> ScoredSheet:
    """Score the game with these hands (players by id); Refusal with the sheet's messages if it cannot be.

    ``stored``: how many leading records are the game's stored hands, unchanged (they passed the schema when
    they were written; the rules still replay them).
    """
    return score_sheet(game_sheet(game, records), labels=game_roster(game).labels, checked=stored)


def hand_problems(problems: Sequence[Problem], index: int) -> list[Problem]:
    """Problems of the hand being written named relative to it; the rest keep their sheet path."""
    prefix = f"hands[{index}]"
    out = []
    for p in problems:
        if p.field == prefix:
            out.append(p.moved(""))
        elif p.field.startswith(prefix + "."):
            out.append(p.moved(p.field[len(prefix) + 1 :]))
        else:
            out.append(p)
    return out


def store_result(game: Game, scored: ScoredSheet, *, seats_changed: bool = True) -> None:
    """Save a replay's output on the game (players by seat) and its GameResult rows, in the caller's transaction:
    what changed only. The result JSON is written when it differs, the rows whose numbers moved are updated in
    place (none deleted and inserted again) and the statistics' rows go with them (``stats_store``).
    ``seats_changed``: the game's players may have changed since its rows were written (a substitute, a new
    seating): the rows of those who left are deleted."""
    result = result_json(scored)
    written = ["version", "status", "updated_at", "start", "ended_by_time"]  # a write may have set the last two
    if result != game.result:
        game.result = result
        written.append("result")
    counted_before = game.status == Game.Status.FINISHED
    game.status = Game.Status.FINISHED if scored.record.state.finished else Game.Status.PLAYING
    # One plain UPDATE (``save()``'s own costs as much as the statement): what saving the game would signal is
    # said here, the pages that keep up told of the change.
    plain_rows.update(game, written)
    live_changed(game.event_id)
    seats = {seat.position: seat for seat in game.seats.all()}
    rows = result_rows(game, scored, seats)
    if seats_changed:
        players = [row.player_id for row in rows]
        GameResult.objects.filter(game=game).exclude(player_id__in=players).delete()
        GameStats.objects.filter(game=game).exclude(player_id__in=players).delete()
    # The database compares each row with the stored one and writes the changed ones only.
    upsert(rows, key=("game", "player"))
    stats_store(game, rows, {seat.player_id: position for position, seat in seats.items()}, counted=counted_before)


def result_rows(game: Game, scored: ScoredSheet, seats: Mapping[int, Seat] | None = None) -> list[GameResult]:
    """The GameResult rows (unsaved) of a replay's output; ``seats`` by position, read here if not given."""
    seats = seats if seats is not None else {seat.position: seat for seat in game.seats.all()}
    rows = scored.final_rows()
    ranks = Counter(row.rank for row in rows)
    return [
        GameResult(
            game=game,
            player_id=seats[row.player].player_id,
            event_id=game.event_id,
            finished=scored.record.state.finished,
            substitute=seats[row.player].substitute,
            # A rank shared by k players counts as the mean of the places they hold.
            rank=Decimal(row.rank) + Decimal(ranks[row.rank] - 1) / 2,
            score=row.score,
            points=_decimal(row.points),
            penalty=_decimal(row.penalty),
            table_points=None if row.table_points is None else _decimal(row.table_points),
            draws=row.draws,
        )
        for row in rows
    ]


def _decimal(value: Fraction | int) -> Decimal:
    fraction = Fraction(value)
    return Decimal(fraction.numerator) / Decimal(fraction.denominator)
