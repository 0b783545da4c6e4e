"""The public pages of an event's teams: the teams list, a team's page (its roster with each member's own numbers,
every game a member played) and a team league's standings table, shown above the players'."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from scoring.models import StageStanding, Standing
from scoring.services.team_pages import team_view
from scoring.services.teams import TeamLine, team_standings
from tournament.models import Event, Game, Round, Stage, Team
from tournament.users import RequestUser
from web.console_teams import LineupTable, lineup_tables, next_round_of


@dataclass(frozen=True, slots=True)
class MemberLine:
    """A member's own line beside their team's: their rank and games in the same standings as the points."""

    player_id: int
    name: str
    points: Decimal
    table_points: Decimal | None
    counted: bool
    rank: int | None
    games: int


@dataclass(frozen=True, slots=True)
class TeamRow:
    """A team's line of the team standings, with its members' own lines."""

    line: TeamLine
    members: list[MemberLine]
    stage_name: str = ""

    @property
    def own(self) -> Decimal:
        """The points the team made in its stage, without those it carried in."""
        return self.line.points - self.line.carried


def team_rows(event: Event, stage: int | None = None) -> list[TeamRow]:
    """The event's team standings (``stage``'s, or the final ranking), each team with its members' own lines."""
    lines = team_standings(event, stage)
    if not lines:
        return []
    staged = StageStanding.objects.filter(event=event).exists()
    rows: dict[tuple[int, int], Standing | StageStanding] = (
        {(r.stage, r.player_id): r for r in StageStanding.objects.filter(event=event)}
        if staged
        else {(1, r.player_id): r for r in Standing.objects.filter(event=event)}
    )
    names = dict(Stage.objects.filter(event=event).values_list("number", "name"))
    out = []
    for line in lines:
        own = [(m, rows.get((line.stage if staged else 1, m.player_id))) for m in line.members]
        out.append(
            TeamRow(
                line=line,
                stage_name=names.get(line.stage, ""),
                members=[
                    MemberLine(
                        player_id=m.player_id,
                        name=m.name,
                        points=m.points,
                        table_points=m.table_points,
                        counted=m.counted,
                        rank=row.rank if row else None,
                        games=row.games if row else 0,
                    )
                    for m, row in own
                ],
            )
        )
    return out


def team_league_table(event: Event, stage: int | None = None) -> str:
    """A team league's team standings as the standings page shows them, first (empty for any other event)."""
    if event.entrants != Event.Entrants.TEAMS:
        return ""
    rows = team_rows(event, stage)
    staged, mcr = any(row.line.carried or row.line.stage > 1 for row in rows), event.ruleset().is_mcr
    # Our own template's output: the standings table is cached as text and marked safe again where it is read.
    return mark_safe(
        render_to_string(
            "pages/_team_league.html",
            {"event": event, "rows": rows, "staged": staged, "mcr": mcr, "cols": 2 if mcr else 3 if staged else 1},
        )
    )


@dataclass(frozen=True, slots=True)
class TeamPage:
    team: Team
    members: list[dict[str, Any]]
    games: list[dict[str, Any]]
    standing: TeamRow | None


def team_page(event: Event, team: Team) -> TeamPage:
    """A team's page: its standing, its roster with each member's own numbers, every game a member played.

    In an event of several stages a player's standing is that of the last stage they reached: a member's points
    and games on the team page are their own of every stage, summed (what they brought the team)."""
    view = team_view(team, games=True)
    row = next((r for r in team_rows(event) if r.line.team_id == team.pk), None)
    staged: dict[int, tuple[Decimal, int]] = {}
    for line in StageStanding.objects.filter(event=event, player_id__in=[m["id"] for m in view["members"]]):
        points, games = staged.get(line.player_id, (Decimal(0), 0))
        staged[line.player_id] = (points + line.points - line.carried, games + line.games)
    members = [
        {**m, "points": staged[m["id"]][0], "games": staged[m["id"]][1]} if m["id"] in staged else m
        for m in view["members"]
    ]
    played = [{**g, "finished": g["status"] == Game.Status.FINISHED} for g in view["games"]]
    return TeamPage(team=team, members=members, games=played, standing=row)


def teams_list(event: Event) -> list[tuple[Team, int, TeamRow | None]]:
    """The event's teams, by rank when it ranks them (else by name), each with its number of members."""
    rows = {row.line.team_id: row for row in team_rows(event)}
    teams = sorted(event.teams.all(), key=lambda t: (rows[t.pk].line.rank if t.pk in rows else 10**9, t.name))
    counts: dict[int, int] = {}
    for team_id in event.registrations.filter(team__isnull=False, substitute=False).values_list("team_id", flat=True):
        counts[team_id] = counts.get(team_id, 0) + 1
    return [(team, counts.get(team.pk, 0), rows.get(team.pk)) for team in teams]


def event_teams(event: Event, user: RequestUser) -> dict[str, Any]:
    """A team league's event page: its teams and, for a captain or an organiser, the round to name players for
    (the captain's team's next; an organiser's first round with a table still naming, or still to seat)."""
    if event.entrants != Event.Entrants.TEAMS:
        return {"teams": [], "lineup_round": None}
    round_ = None
    if event.is_organiser(user):
        round_ = (
            event.rounds.filter(tables__team_seats__isnull=False, tables__game__isnull=True).order_by("number").first()
            or event.rounds.filter(tables__isnull=True).order_by("number").first()
        )
    elif user.is_authenticated and (team := event.teams.filter(captain=user).order_by("name").first()):
        round_ = next_round_of(team)
    return {"teams": teams_list(event), "lineup_round": round_}


def round_naming(event: Event, round_: Round, user: RequestUser) -> list[LineupTable]:
    """A team league round's tables while one of them is still naming who plays (its teams by seat wind): the public
    round page shows them where it has no players to show yet."""
    if event.entrants != Event.Entrants.TEAMS:
        return []
    tables = lineup_tables(round_, user) if round_.tables.exists() else []
    return tables if any(table.game_id is None for table in tables) else []
