"""Reading what the replay stored, for pages, exports and the API alike."""

from __future__ import annotations

from typing import Any

from scoring.sheet.output import named
from tournament.models import Game
from tournament.selectors import game_roster


def named_result(game: Game) -> dict[str, Any]:
    """The game's stored result (SCORE_SHEET.md "Output") with its players' current names; {} before its first
    replay. Uses the game's prefetched seats when there are any (``tournament.selectors.with_seats``)."""
    return named(game.result, game_roster(game).labels) if game.result else {}
