"""The pages that keep up: the hall's projector and the stream's overlay of a featured table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.selectors import game_result, stage_standings
from scoring.services.live import current_round, live_version
from tournament.models import Event, Game, Round
from web import presenters as pages

# The top of the standings on the projector: what fits 1280×720 beside the tables, in type read from 10 m.
PROJECTED_LINES = 8


def live_attrs(event: Event, game: Game | None = None) -> dict[str, Any]:
    """What a page gives live.js: the event's live version it was rendered at (and its game's version)."""
    return {"live_version": live_version(event.pk), "live_game": game}


@dataclass(frozen=True, slots=True)
class ProjectedLine:
    rank: int
    name: str
    points: Any
    table_points: Any


def projector(event: Event, round_: Round | None) -> dict[str, Any]:
    """The round's clock and tables, and the top of the standings, for the hall's screen."""
    round_ = round_ or current_round(event)
    rows = stage_standings(event, None).filter(rank__isnull=False).order_by("rank", "-points", "player_id")
    lines = [
        ProjectedLine(rank=row.rank, name=row.player.name, points=row.points, table_points=row.table_points)
        for row in rows[:PROJECTED_LINES]
    ]
    return {
        "event": event,
        "round": round_,
        "tables": pages.round_tables(round_) if round_ else [],
        "lines": lines,
        "mcr": event.ruleset().is_mcr,
        **live_attrs(event),
    }


@dataclass(frozen=True, slots=True)
class OverlaySeat:
    wind: str
    name: str
    score: int | None
    dealer: bool


def overlay(game: Game) -> dict[str, Any]:
    """A featured table for a stream: the four players and their scores, the sticks, honba and the last hand."""
    view = pages.game_view(game)
    ruleset = game.ruleset()
    result = game_result(game)
    hands = view.hands
    following = result.get("next") if game.status != Game.Status.FINISHED else None
    if hands:
        scores: list[int | None] = list(hands[-1].scores)
    elif result.get("final"):
        scores = [row["score"] for row in sorted(result["final"], key=lambda row: row["player"])]
    else:
        scores = [ruleset.start_points] * len(view.roster.labels)
    winds = following.get("seat_winds") if following else None
    seat_winds = [pages.wind_label(w) for w in ruleset.seat_winds]
    seats = [
        OverlaySeat(
            wind=pages.wind_label(winds[index]) if winds else seat_winds[index],
            name=name,
            score=scores[index] if index < len(scores) else None,
            dealer=following is not None and following.get("dealer") == index,
        )
        for index, name in enumerate(view.roster.labels)
    ]
    return {
        "game": game,
        "event": game.event,
        "seats": seats,
        "next": following,
        "last": hands[-1] if hands else None,
        "finished": game.status == Game.Status.FINISHED,
        "mcr": ruleset.is_mcr,
        "solo": ruleset.is_solo,
        **live_attrs(game.event, game),
    }
