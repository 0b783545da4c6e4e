"""What the pages and the API show of a team league: a team with its roster and games, a round's lineups."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model

from rules.errors import Refusal
from scoring.models import GameResult, Standing
from tournament.models import Event, Game, Lineup, Registration, Round, Team, TeamSeat


def team_view(team: Team, *, games: bool = False) -> dict[str, Any]:
    """A team: its captain, its members with their own numbers, and (``games``) every game a member played."""
    regs = list(
        Registration.objects.filter(event_id=team.event_id, team=team, substitute=False)
        .select_related("player")
        .order_by("player__name", "player_id")
    )
    own = {
        s.player_id: s
        for s in Standing.objects.filter(event_id=team.event_id, player_id__in=[r.player_id for r in regs])
    }
    members = [
        {
            "id": r.player_id,
            "name": r.player.name,
            "rank": getattr(own.get(r.player_id), "rank", None),
            "points": getattr(own.get(r.player_id), "points", Decimal(0)),
            "games": getattr(own.get(r.player_id), "games", 0),
        }
        for r in regs
    ]
    body: dict[str, Any] = {
        "id": team.pk,
        "name": team.name,
        "captain": team.captain.get_username() if team.captain else None,
        "members": members,
    }
    if games:
        body["games"] = _games(team, {r.player_id: r.player.name for r in regs})
    return body


def _games(team: Team, names: dict[int, str]) -> list[dict[str, Any]]:
    points = dict(
        GameResult.objects.filter(game__event_id=team.event_id, player_id__in=names, finished=True).values_list(
            "game_id", "points"
        )
    )
    seats = (
        Game.objects.filter(event_id=team.event_id, seats__player_id__in=names)
        .values_list("pk", "table__round__number", "table__number", "seats__player_id", "status")
        .order_by("table__round__number", "table__number", "pk")
    )
    return [
        {
            "game": pk,
            "round": number,
            "table": table,
            "player": {"id": pid, "name": names[pid]},
            "status": status,
            "points": points.get(pk),
        }
        for pk, number, table, pid, status in seats
    ]


def team_captain_set(*, team: Team, username: str | None) -> Team:
    """The team's captain by user name (none: blank or None); Refusal on ``captain`` for an unknown user."""
    user = None
    if username:
        user = get_user_model()._default_manager.filter(username=username).first()
        if user is None:
            raise Refusal.one("captain", f"no user is named {username!r}")
    team.captain = user
    team.save(update_fields=["captain"])
    return team


def round_lineups(round_: Round) -> dict[str, Any]:
    """A team league round: each table's teams by seat with who plays for each, and every lineup named."""
    winds = round_.event.ruleset().seat_winds
    named = {lineup.team_id: lineup.player for lineup in Lineup.objects.filter(round=round_).select_related("player")}
    games = dict(Game.objects.filter(table__round=round_).values_list("table_id", "pk"))  # one query, not per seat
    tables: dict[int, dict[str, Any]] = {}
    for seat in (
        TeamSeat.objects.filter(table__round=round_)
        .select_related("table", "team")
        .order_by("table__number", "position")
    ):
        table = tables.setdefault(
            seat.table_id, {"number": seat.table.number, "seats": [], "game": games.get(seat.table_id)}
        )
        player = named.get(seat.team_id)
        table["seats"].append(
            {
                "position": seat.position,
                "wind": winds[seat.position],
                "team": {"id": seat.team_id, "name": seat.team.name},
                "player": {"id": player.pk, "name": player.name} if player else None,
            }
        )
    return {
        "round": round_.number,
        "tables": list(tables.values()),
        "named": {str(team): {"id": p.pk, "name": p.name} for team, p in named.items()},
    }


def team_of_event(event: Event, team_id: int) -> Team:
    team = Team.objects.filter(event=event, pk=team_id).select_related("captain", "event").first()
    if team is None:
        raise Refusal.one("team", f"this event has no team {team_id}")
    return team
