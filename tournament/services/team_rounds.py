"""A team league's rounds: tables seat teams, and each team names who plays for it (its lineup) before the
round starts. A table's game opens once every team at it has named its player; until its first hand, a team
may name another (the game is opened again with them).

Which teams play a stage: in the first, every team with a member who plays; in a later one, the teams its
confirmed cut sent on (``Stage.through`` holds team ids in a team league).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from rules.errors import Problem, Refusal
from rules.seating import Table as PlannedTable
from tournament.errors import Conflict
from tournament.models import Event, Game, Lineup, Registration, Round, Stage, Table, Team, TeamSeat
from tournament.services.games import game_seat
from tournament.users import RequestUser, account


def stage_teams(event: Event, number: int) -> list[int]:
    """The teams that play stage ``number``, by id (none for a later stage before its cut is confirmed)."""
    if number == 1:
        members = Registration.objects.filter(
            event=event, substitute=False, withdrawn=False, team__isnull=False
        ).values_list("team_id", flat=True)
        return sorted({int(t) for t in members if t is not None})
    stage = Stage.objects.filter(event=event, number=number).first()
    return sorted(stage.through or []) if stage is not None else []


def team_history(event: Event, *, before: int) -> list[list[list[int]]]:
    """The teams' tables of the rounds before ``before``: rounds → tables → team ids, East first."""
    rounds: dict[int, dict[int, list[int]]] = {}
    for number, table, team in (
        TeamSeat.objects.filter(table__round__event=event, table__round__number__lt=before)
        .order_by("table__round__number", "table__number", "position")
        .values_list("table__round__number", "table__number", "team_id")
    ):
        rounds.setdefault(number, {}).setdefault(table, []).append(team)
    return [list(tables.values()) for _, tables in sorted(rounds.items())]


def team_tables_open(round_: Round, tables: Iterable[PlannedTable]) -> list[Game]:
    """A table per planned table with its teams seated, East first; the games of those whose teams have all
    named who plays are opened (returned, not yet scored: the caller stores their first result)."""
    games = []
    for planned in tables:
        table = Table.objects.create(round=round_, number=planned.number)
        TeamSeat.objects.bulk_create(
            [TeamSeat(table=table, position=position, team_id=team) for position, team in enumerate(planned.seats)]
        )
        game = table_game_open(table)
        if game is not None:
            games.append(game)
    return games


def lineup_name(*, round_: Round, team: Team, player_id: int, user: RequestUser | None) -> tuple[Lineup, Game | None]:
    """Name who plays for ``team`` in ``round_``: one of its members still playing. Refused (Conflict) once the
    team's game in the round has a hand or is finished. Returns the lineup and the table's game when this
    named its last player (opened again if it had been opened with someone else; not yet scored)."""
    if round_.event.entrants != Event.Entrants.TEAMS or team.event_id != round_.event_id:
        raise Refusal.one("team", _("lineups are named in a team league, for its own teams"))
    member = Registration.objects.filter(
        event=round_.event, player_id=player_id, team=team, withdrawn=False, substitute=False
    ).exists()
    if not member:
        raise Refusal.one(
            "player",
            _("player %(id)s is not a member of %(team)s still playing") % {"id": player_id, "team": team.name},
        )
    seat = TeamSeat.objects.filter(table__round=round_, team=team).select_related("table").first()
    game = Game.objects.filter(table=seat.table).first() if seat is not None else None
    if game is not None and (game.hands.exists() or game.status == Game.Status.FINISHED):
        raise Conflict(
            [
                Problem(
                    "player",
                    _("%(team)s's game in round %(round)s has begun: its player stays")
                    % {"team": team.name, "round": round_.number},
                )
            ]
        )
    lineup, _created = Lineup.objects.update_or_create(
        round=round_, team=team, defaults={"player_id": player_id, "named_by": account(user)}
    )
    if seat is None:
        return lineup, None
    if game is not None:
        game.delete()  # no hand, no history: opened again with the players named now
    return lineup, table_game_open(seat.table)


def table_game_open(table: Table) -> Game | None:
    """The table's game with each team's named player in its seat, once every team at it has named one."""
    seats = list(TeamSeat.objects.filter(table=table).order_by("position"))
    named = dict(
        Lineup.objects.filter(round_id=table.round_id, team_id__in=[s.team_id for s in seats]).values_list(
            "team_id", "player_id"
        )
    )
    if not seats or any(s.team_id not in named for s in seats):
        return None
    return game_seat(event=table.round.event, player_ids=[named[s.team_id] for s in seats], table=table)


def may_name_lineup(team: Team, user: RequestUser) -> bool:
    """The event's organisers and the team's captain name its lineups."""
    return bool(user.is_authenticated and (team.captain_id == user.pk or team.event.is_organiser(user)))
