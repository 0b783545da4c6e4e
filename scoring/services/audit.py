"""The derived rows recomputed from what the history seals, and compared with the stored ones (``verify_history``).

A game's result and GameResult rows, and an event's standings, are derived: recomputed from the hands, never
edited. So whoever changes one in the database without the hands is found by computing it again, here without
writing anything, and naming each stored value that differs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from rules.errors import Refusal
from scoring.models import GameResult, GameStats, StageStanding, Standing, StandingsState
from scoring.services.game_stats import COUNTED_FIELDS, stats_rows
from scoring.services.replay import replay, result_rows
from scoring.services.standings import standings_rows
from scoring.sheet.output import Result, result_json
from tournament.models import Event, Game

_RESULT_FIELDS = ("event_id", "finished", "substitute", "rank", "score", "points", "penalty", "table_points", "draws")
_STANDING_FIELDS = (
    "rank",
    "stage",
    "points",
    "carried",
    "table_points",
    "carried_table_points",
    "score",
    "games",
    "average_rank",
    "penalties",
    "first_places",
    "best_game",
    "draws",
)
_STATS_FIELDS = (
    "event_id",
    "finished",
    "ruleset",
    "mcr",
    "place",
    "rank",
    "score",
    "points",
    "table_points",
    "busted",
    *COUNTED_FIELDS,
)
CENT = Decimal("0.01")


def result_problems(game: Game) -> list[str]:
    """The game replayed from its stored hands (which ``verify_game`` found to be the history's)."""
    try:
        scored = replay(game, [h.record for h in game.hands.order_by("index")])
    except Refusal as exc:
        return [f"its hands no longer replay: {exc.problems[0].field}: {exc.problems[0].message}"]
    problems = []
    result: Result = json.loads(json.dumps(result_json(scored)))  # as stored: what JSON makes of it
    if result != game.result:
        problems.append("its stored result differs from its hands replayed: the result was changed outside the history")
    status = Game.Status.FINISHED if scored.record.state.finished else Game.Status.PLAYING
    if game.status != status:
        problems.append(f"it is stored as {game.status}, but its hands make it {status}")
    stored = {r.player_id: r for r in GameResult.objects.filter(game=game)}
    results = result_rows(game, scored)
    problems.extend(
        f"player {pid}'s result: {what}"
        for pid, what in _differences({r.player_id: r for r in results}, stored, _RESULT_FIELDS)
    )
    return problems + stats_problems(game, result, results)


def stats_problems(game: Game, result: Result, results: Sequence[GameResult]) -> list[str]:
    """The game's statistics rows counted again from its replayed result."""
    positions = dict(game.seats.values_list("player_id", "position"))
    expected = {s.player_id: s for s in stats_rows(game, result, results, positions)}
    stored = {s.player_id: s for s in GameStats.objects.filter(game=game)}
    return [f"player {pid}'s statistics: {what}" for pid, what in _differences(expected, stored, _STATS_FIELDS)]


def standings_problems(event: Event) -> list[str] | None:
    """The event's standings recomputed from its results; None while a recompute is pending (they may lag)."""
    state = StandingsState.objects.filter(event=event).first()
    if state is not None and state.counted < state.changes:
        return None
    rows = standings_rows(event)
    stored = {s.player_id: s for s in Standing.objects.filter(event=event)}
    problems = [
        f"player {pid}'s standing: {what}"
        for pid, what in _differences({s.player_id: s for s in rows.standings}, stored, _STANDING_FIELDS)
    ]
    stages = {(s.stage, s.player_id): s for s in StageStanding.objects.filter(event=event)}
    return problems + [
        f"player {pid}'s standing in stage {stage}: {what}"
        for (stage, pid), what in _differences(
            {(s.stage, s.player_id): s for s in rows.stages}, stages, _STANDING_FIELDS
        )
    ]


def _differences(expected: dict[Any, Any], stored: dict[Any, Any], fields: Sequence[str]) -> Iterable[tuple[Any, str]]:
    for pid in sorted(set(expected) | set(stored)):
        if pid not in stored:
            yield pid, "missing from the stored rows"
        elif pid not in expected:
            yield pid, "stored, but no game of theirs gives it"
        else:
            changed = [
                f"{name} {_value(getattr(stored[pid], name))} stored, {_value(getattr(expected[pid], name))} recomputed"
                for name in fields
                if _value(getattr(stored[pid], name)) != _value(getattr(expected[pid], name))
            ]
            if changed:
                yield pid, "; ".join(changed)


def _value(value: Any) -> Any:
    # Stored decimals keep two places: compare what the column can hold.
    return value.quantize(CENT) if isinstance(value, Decimal) else value
