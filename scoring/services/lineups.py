"""Naming who plays for a team in a team league's round: the game of a table opens (scored at its start) once
every team at it has named its player."""

from __future__ import annotations

from django.db import transaction

from scoring.services.replay import replay, store_result
from tournament.models import Lineup, Round, Team
from tournament.services.team_rounds import lineup_name
from tournament.users import RequestUser


def lineup_set(*, round_: Round, team: Team, player_id: int, user: RequestUser | None) -> Lineup:
    """Name ``player_id`` to play for ``team`` in ``round_`` (tournament.services.team_rounds.lineup_name)."""
    with transaction.atomic():
        Round.objects.select_for_update().filter(pk=round_.pk).first()  # one table's game opened at a time
        lineup, game = lineup_name(round_=round_, team=team, player_id=player_id, user=user)
        if game is not None:
            store_result(game, replay(game, []))
    return lineup
