"""Team standings, read from the stored players' standings (no second standings computation).

A team's total is the sum of its members' points, or of its best ``team_best`` members' points, as the event
chooses (``Event.team_ranking``). Substitutes are not members of a team for this: a substitute is not ranked,
so a team never counts one. MCR teams rank on table points, then points, as players do.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction

from rules.stages import Line, final_ranking, stage_standings
from scoring.models import StageStanding, Standing
from scoring.services.standings_rows import cents, entered_stages
from scoring.services.team_stages import team_stage_lines
from tournament.models import Event, Registration


@dataclass(frozen=True, slots=True)
class TeamMember:
    player_id: int
    name: str
    points: Decimal
    table_points: Decimal | None
    counted: bool  # among the members whose points make the team's total


@dataclass(frozen=True, slots=True)
class TeamLine:
    rank: int
    shared: bool
    team_id: int
    name: str
    points: Decimal
    table_points: Decimal | None
    members: tuple[TeamMember, ...]
    carried: Decimal = Decimal(0)  # brought in from the stage before (a team league's later stages)
    stage: int = 1  # the stage of the line; in the final ranking, the last stage the team reached


def team_standings(event: Event, stage: int | None = None) -> list[TeamLine]:
    """The event's teams, best first; teams equal on the total (MCR: table points, then points) share the rank.

    Empty when the event ranks no teams. A member without a standing yet (no game) counts 0. A team league in
    stages: ``stage``'s lines with what each team carried in, or (None) the final ranking by the last stage
    reached (scoring.services.team_stages).
    """
    if event.team_ranking == Event.TeamRanking.NONE:
        return []
    if event.entrants == Event.Entrants.TEAMS and (stage is not None or len(entered_stages(event)) > 1):
        return staged_team_standings(event, stage)
    mcr = event.ruleset().is_mcr
    standings = {s.player_id: s for s in Standing.objects.filter(event=event)}
    members: dict[tuple[int, str], list[TeamMember]] = {}
    registrations = (
        Registration.objects.filter(event=event, substitute=False, team__isnull=False)
        .select_related("team", "player")
        .order_by("team__name", "player__name", "player_id")
    )
    for reg in registrations:
        assert reg.team is not None  # filtered above
        standing = standings.get(reg.player_id)
        members.setdefault((reg.team.pk, reg.team.name), []).append(
            TeamMember(
                player_id=reg.player_id,
                name=reg.player.name,
                points=standing.points if standing else Decimal(0),
                table_points=(standing.table_points or Decimal(0) if standing else Decimal(0)) if mcr else None,
                counted=True,
            )
        )
    best = event.team_best if event.team_ranking == Event.TeamRanking.BEST else None
    return _ranked([_team(team_id, name, team, best, mcr) for (team_id, name), team in members.items()], mcr=mcr)


def _key(points: Decimal, table_points: Decimal | None) -> tuple[Decimal, Decimal]:
    return (table_points if table_points is not None else Decimal(0), points)


def _team(team_id: int, name: str, team: list[TeamMember], best: int | None, mcr: bool) -> TeamLine:
    order = sorted(team, key=lambda m: (_key(m.points, m.table_points), -m.player_id), reverse=True)
    counted = {m.player_id for m in (order[:best] if best else order)}
    members = tuple(
        TeamMember(
            player_id=m.player_id,
            name=m.name,
            points=m.points,
            table_points=m.table_points,
            counted=m.player_id in counted,
        )
        for m in order
    )
    return TeamLine(
        rank=0,
        shared=False,
        team_id=team_id,
        name=name,
        points=sum((m.points for m in members if m.counted), Decimal(0)),
        table_points=sum((m.table_points or Decimal(0) for m in members if m.counted), Decimal(0)) if mcr else None,
        members=members,
    )


def _ranked(lines: list[TeamLine], *, mcr: bool) -> list[TeamLine]:
    """Ranked by the function that ranks players and a team league's stages (rules.stages.stage_standings): MCR
    table points, then points, equal teams sharing the rank; listed by rank, then name."""
    results = [
        Line(
            player=line.team_id,
            points=Fraction(line.points),
            table_points=Fraction(line.table_points or 0) if mcr else None,
        )
        for line in lines
    ]
    ranks = {
        s.player: s.rank for s in stage_standings(entrants=[line.team_id for line in lines], results=results, mcr=mcr)
    }
    sharing = Counter(ranks.values())
    ranked = [replace(line, rank=ranks[line.team_id], shared=sharing[ranks[line.team_id]] > 1) for line in lines]
    return sorted(ranked, key=lambda line: (line.rank, line.name))


def player_teams(event: Event) -> dict[int, str]:
    """Each registered player's team name (players without one absent)."""
    return dict(Registration.objects.filter(event=event, team__isnull=False).values_list("player_id", "team__name"))


def staged_team_standings(event: Event, stage: int | None) -> list[TeamLine]:
    """A team league's teams in one stage, or by the final ranking; members with their own line of that stage."""
    stages = team_stage_lines(event)
    names = dict(event.teams.values_list("pk", "name"))
    if stage is not None:
        chosen = [(line, stage, line.rank) for line in stages[stage - 1]] if stage <= len(stages) else []
    else:
        by_stage = {(n, line.player): line for n, lines in enumerate(stages, start=1) for line in lines}
        chosen = [(by_stage[(p.stage, p.player)], p.stage, p.rank) for p in final_ranking(stages)]
    rows: dict[tuple[int, int], Standing | StageStanding] = {
        (row.stage, row.player_id): row for row in StageStanding.objects.filter(event=event)
    }
    if not rows:  # one stage entered: its lines are the event's
        rows = {(1, row.player_id): row for row in Standing.objects.filter(event=event)}
    members: dict[int, list[Registration]] = {}
    for reg in (
        Registration.objects.filter(event=event, substitute=False, team__isnull=False)
        .select_related("player")
        .order_by("player__name", "player_id")
    ):
        members.setdefault(reg.team_id or 0, []).append(reg)
    ranks = [rank for _, _, rank in chosen]
    return [
        TeamLine(
            rank=rank,
            shared=ranks.count(rank) > 1,
            team_id=line.player,
            name=names.get(line.player, ""),
            points=cents(line.total),
            table_points=cents(line.total_table_points) if line.total_table_points is not None else None,
            carried=cents(line.carried),
            stage=number,
            members=tuple(_member(reg, rows.get((number, reg.player_id))) for reg in members.get(line.player, [])),
        )
        for line, number, rank in chosen
    ]


def _member(reg: Registration, row: Standing | StageStanding | None) -> TeamMember:
    return TeamMember(
        player_id=reg.player_id,
        name=reg.player.name,
        points=row.points if row is not None else Decimal(0),
        table_points=row.table_points if row is not None else None,
        counted=True,
    )
