"""What a refused request or command must leave as it was: the rows of every table the product writes."""

from __future__ import annotations

from typing import Any

from django.db import connection

from scoring.models import Hand, HandChange, Penalty
from tournament.models import Event, Game, Player, Registration, Round, Seat, Table, Team

WRITTEN = (Event, Player, Registration, Team, Round, Table, Game, Seat, Hand, HandChange, Penalty)
# One query (the fuzzing runs it twice per request): the row counts, and the games' versions (a change bumps one).
SNAPSHOT = "SELECT " + ", ".join(
    [
        *(f"(SELECT COUNT(*) FROM {m._meta.db_table})" for m in WRITTEN),
        f"(SELECT SUM(version) FROM {Game._meta.db_table})",
    ]
)


def snapshot() -> tuple[Any, ...]:
    with connection.cursor() as cursor:
        cursor.execute(SNAPSHOT)
        return tuple(cursor.fetchone() or ())
