"""The standings as the public pages show them: the event's table (or a stage's, or an event in stages' final
ranking with the stage each player reached), cached per version of the stored rows, sort and language."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from scoring.models import Standing
from scoring.selectors import stage_standings, standings_version
from scoring.services.stages import stages_of
from scoring.services.standings import RoundPoints, standings_progress_cached
from scoring.services.teams import player_teams, team_standings
from tournament.models import Event, Player, Stage

STANDINGS_CACHE_SECONDS = 300  # a version's table never changes; this only bounds what an idle event keeps
# Standings columns a reader may sort by: (field, highest first).
SORTS = {
    "rank": ("rank", False),
    "player": ("player__name", False),
    "points": ("points", True),
    "table_points": ("table_points", True),
    "score": ("score", True),
    "games": ("games", True),
    "average_rank": ("average_rank", False),
    "draws": ("draws", False),
}


def standings_sort(asked: str | None) -> str:
    """The standings order a reader asked for, or the rank order for anything else: one of SORTS."""
    return asked if asked in SORTS else "rank"


@dataclass(frozen=True, slots=True)
class StandingLine:
    rank: int | None
    shared: bool
    player_id: int
    name: str
    points: Decimal  # a stage's total: what was carried in and the stage's own
    table_points: Decimal | None
    score: int
    games: int
    average_rank: Decimal | None
    movement: int | None = None  # places gained since the previous round (negative: lost)
    new: bool = False  # ranked now, not after the previous round
    federation_id: str = ""
    country: str = ""
    team: str = ""
    rounds: tuple[RoundPoints, ...] = ()
    carried: Decimal = Decimal(0)
    carried_table_points: Decimal | None = None
    stage: int = 1  # a stage's line: its stage; the final ranking's: the last stage the player reached
    draws: int | None = None  # the solo race to tenpai: the draws that rank the player (score holds the value)

    @property
    def places(self) -> int:
        """How many places the line moved, up or down."""
        return abs(self.movement or 0)

    @property
    def own(self) -> Decimal:
        """The stage's own points: the total less what was carried in."""
        return self.points - self.carried

    @property
    def own_table_points(self) -> Decimal | None:
        if self.table_points is None:
            return None
        return self.table_points - (self.carried_table_points or Decimal(0))


def standings(event: Event, sort: str = "rank", stage: int | None = None) -> list[StandingLine]:
    """The stored standings (or a stage's) with each line's movement (the event's table only), the points of
    the rounds of the line's stage, and team, sorted by a column; shared ranks marked."""
    column, descending = SORTS.get(sort, SORTS["rank"])
    rows = list(stage_standings(event, stage))
    progress, teams = standings_progress_cached(event), player_teams(event)
    round_stage = dict(event.rounds.values_list("number", "stage"))
    counts = Counter(row.rank for row in rows)
    moves = stage is None  # since the previous round: the event's table only
    lines = [
        StandingLine(
            rank=r.rank,
            shared=r.rank is not None and counts[r.rank] > 1,
            player_id=r.player_id,
            name=r.player.name,
            points=r.points,
            table_points=r.table_points,
            score=r.score,
            games=r.games,
            average_rank=r.average_rank,
            movement=progress.movement(r.player_id, r.rank) if moves else None,
            new=moves and progress.is_new(r.player_id, r.rank),
            federation_id=r.player.federation_id,
            country=r.player.country,
            team=teams.get(r.player_id, ""),
            carried=r.carried,
            carried_table_points=r.carried_table_points,
            stage=r.stage,
            draws=r.draws,
            rounds=tuple(p for p in progress.rounds.get(r.player_id, ()) if round_stage.get(p.round, 1) == r.stage),
        )
        for r in rows
    ]
    if column != "rank":
        attr = "name" if column == "player__name" else column

        def key(line: StandingLine) -> tuple[bool, Any]:
            value = getattr(line, attr)
            return (value is None, value if not descending or value is None else -value)

        lines.sort(key=key)
    return lines


@dataclass(frozen=True, slots=True)
class StandingsTable:
    html: str  # the table as the standings page shows it, in the reader's language
    etag: str
    updating: bool


def standings_table(event: Event, sort: str, stage: int | None = None) -> StandingsTable:
    """The standings table (``stage``'s, or the event's), rendered once per version of the standings, sort,
    stage and language (a cache shared by every web process when CACHE_URL is set): readers polling while a
    round is played cost one row and a cache read each."""
    version, state = standings_version(event)
    teams = f"{event.team_ranking}.{event.team_best}"  # the team table is read under these settings
    sort = standings_sort(sort)
    key = f"standings-table:{version}:{teams}:{sort}:{stage}:{translation.get_language()}"
    html = cache.get(key)
    if html is None:
        from web.team_presenters import team_league_table  # it reads the presenters' wind names: imported here

        lines, league = standings(event, sort, stage), team_league_table(event, stage)  # a league's teams first
        stages = {s.number: s.name for s in stages_of(event)}
        html = league + render_to_string(
            "pages/standings_table.html",
            {
                "event": event,
                "lines": lines,
                "sorted_by": {sort: True},
                "mcr": event.ruleset().is_mcr,
                "solo": event.ruleset().is_solo,
                "updating": state.updating,
                "computed_at": state.computed_at,
                "teams": () if league else team_standings(event, stage),
                "federation": any(line.federation_id for line in lines),
                "country": any(line.country for line in lines),
                "movement": any(line.movement is not None or line.new for line in lines),
                "stage": stage,
                "carried": stage is not None and stage > 1,
                "reached": stage is None and len(stages) > 1,
                "stage_names": stages,
                "query": f"&stage={stage}" if stage is not None else "",
            },
        )
        cache.set(key, html, STANDINGS_CACHE_SECONDS)
    # Our own template's output, stored as text by the cache.
    return StandingsTable(
        html=mark_safe(html), etag=f'"{hashlib.sha256(key.encode()).hexdigest()[:24]}"', updating=state.updating
    )


def standing_of(event: Event, player: Player) -> StandingLine | None:
    """One player's line (and whether the rank is shared): two small queries, whatever the event's size."""
    row = Standing.objects.filter(event=event, player=player).select_related("player").first()
    if row is None:
        return None
    shared = row.rank is not None and Standing.objects.filter(event=event, rank=row.rank).count() > 1
    return StandingLine(
        rank=row.rank,
        shared=shared,
        player_id=row.player_id,
        name=row.player.name,
        points=row.points,
        table_points=row.table_points,
        score=row.score,
        games=row.games,
        average_rank=row.average_rank,
        draws=row.draws,
    )


def has_stage(event: Event, number: int) -> bool:
    return number == 1 or Stage.objects.filter(event=event, number=number).exists()


def stage_switch(event: Event, stage: int | None) -> dict[str, Any]:
    """The standings page's stage switcher: the event's stages (one: no switcher), the one shown and the one
    before it (whose points were carried in)."""
    stages = stages_of(event)
    shown = next((s for s in stages if s.number == stage), None)
    before = next((s for s in stages if stage is not None and s.number == stage - 1), None)
    return {"stages": stages if len(stages) > 1 else [], "stage": shown, "stage_before": before}
