"""A team league's standings stage by stage: each team's own points in a stage are its members' (the sum, or of
its best N members as the event chooses), what it carries in is the stage's share of its total in the stage
before, and the teams are ranked, cut and finally ranked by the same pure functions as players
(rules.stages). Computed from the players' lines, never stored: a league has tens of teams.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rules.stages import Carried, Line, StageLine, carry_over, seating_order, stage_standings
from scoring.services.standings_rows import Ranked, cents, entered_stages, stages_ranked
from tournament.models import Event, Registration, Stage


def team_stage_lines(event: Event, ranked: Sequence[list[Ranked]] | None = None) -> list[list[StageLine]]:
    """Each entered stage's teams, ranked (``ranked``: the players' lines per stage, when the caller has them)."""
    ranked = ranked if ranked is not None else stages_ranked(event)
    mcr = event.ruleset().is_mcr
    team_of = dict(
        Registration.objects.filter(event=event, substitute=False, team__isnull=False).values_list(
            "player_id", "team_id"
        )
    )
    best = event.team_best if event.team_ranking == Event.TeamRanking.BEST else None
    stages: list[list[StageLine]] = []
    for stage, lines in zip(entered_stages(event), ranked, strict=False):
        teams = _entrants(stage, team_of)
        own: dict[int, list[tuple[Fraction, Fraction]]] = {team: [] for team in teams}
        for _, line in lines:
            team = team_of.get(line.player_id)
            if team in own:
                own[team].append((Fraction(line.table_points or 0), Fraction(line.points)))
        results = [_line(team, members, best, mcr=mcr) for team, members in own.items()]
        carried: dict[int, Carried] = {}
        if stages:
            exact = carry_over(standings=stages[-1], players=teams, carry=stage.carry_rule())
            carried = {
                t: Carried(points=Fraction(cents(c.points)), table_points=Fraction(cents(c.table_points)))
                for t, c in exact.items()
            }
        stages.append(list(stage_standings(entrants=teams, results=results, carried=carried, mcr=mcr)))
    return stages


def _entrants(stage: Stage, team_of: dict[int, int]) -> list[int]:
    return sorted(set(team_of.values())) if stage.number == 1 else sorted(stage.through or [])


def _line(team: int, members: list[tuple[Fraction, Fraction]], best: int | None, *, mcr: bool) -> Line:
    counted = sorted(members, reverse=True)[:best] if best else members
    return Line(
        player=team,
        points=sum((m[1] for m in counted), Fraction(0)),
        table_points=sum((m[0] for m in counted), Fraction(0)) if mcr else None,
    )


def team_order(event: Event, number: int) -> list[int]:
    """Stage ``number``'s teams, best first (rules.stages.seating_order): what a team league seats by."""
    stages = team_stage_lines(event)
    if number > len(stages):
        return []
    stage = Stage.objects.filter(event=event, number=number).first() if number > 1 else None
    return seating_order(stages[number - 1], (stage.through if stage else None) or ())
