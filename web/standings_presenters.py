"""The standings as the public pages show them: the event's table (or a stage's, or an event in stages' final
ranking with the stage each player reached), cached per version of the stored rows, sort and language."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from scoring.models import Standing
from scoring.selectors import standings_version
from scoring.services.standings import RoundPoints, standings_progress
from scoring.services.teams import player_teams, team_standings
from tournament.models import Event, Player

STANDINGS_CACHE_SECONDS = 300  # a version's table never changes; this only bounds what an idle event keeps
# Standings columns a reader may sort by: (field, highest first).
SORTS = {"rank": ("rank", False), "player": ("player__name", False), "points": ("points", True),
         "table_points": ("table_points", True), "score": ("score", True), "games": ("games", True),
         "average_rank": ("average_rank", False)}


def standings_sort(asked: str | None) -> str:
    """The standings order a reader asked for, or the rank order for anything else: one of SORTS."""
    return asked if asked in SORTS else "rank"


@dataclass(frozen=True, slots=True)
class StandingLine:
    rank: int | None
    shared: bool
    player_id: int
    name: str
    points: Decimal
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

    @property
    def places(self) -> int:
        """How many places the line moved, up or down."""
        return abs(self.movement or 0)


def standings(event: Event, sort: str = "rank") -> list[StandingLine]:
    """The stored standings (one query) with each line's movement, points per round and team, sorted by a
    column; shared ranks marked."""
    column, descending = SORTS.get(sort, SORTS["rank"])
    rows = list(Standing.objects.filter(event=event).select_related("player"))
    progress, teams = standings_progress(event), player_teams(event)
    counts: dict[int | None, int] = {}
    for row in rows:
        counts[row.rank] = counts.get(row.rank, 0) + 1
    lines = [StandingLine(rank=r.rank, shared=r.rank is not None and counts[r.rank] > 1, player_id=r.player_id,
                          name=r.player.name, points=r.points, table_points=r.table_points, score=r.score,
                          games=r.games, average_rank=r.average_rank, movement=progress.movement(r.player_id, r.rank),
                          new=progress.is_new(r.player_id, r.rank), federation_id=r.player.federation_id,
                          country=r.player.country, team=teams.get(r.player_id, ""),
                          rounds=tuple(progress.rounds.get(r.player_id, ()))) for r in rows]
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


def standings_table(event: Event, sort: str) -> StandingsTable:
    """The standings table, rendered once per version of the standings, sort and language (a cache shared by
    every web process when CACHE_URL is set): readers polling while a round is played cost one row and a
    cache read each."""
    version, state = standings_version(event)
    teams = f"{event.team_ranking}.{event.team_best}"  # the team table is read under these settings
    sort = standings_sort(sort)
    key = f"standings-table:{version}:{teams}:{sort}:{translation.get_language()}"
    html = cache.get(key)
    if html is None:
        lines = standings(event, sort)
        html = render_to_string("pages/standings_table.html", {
            "event": event, "lines": lines, "sort": sort, "mcr": event.ruleset().is_mcr,
            "updating": state.updating, "computed_at": state.computed_at, "teams": team_standings(event),
            "federation": any(line.federation_id for line in lines), "country": any(line.country for line in lines),
            "movement": any(line.movement is not None or line.new for line in lines)})
        cache.set(key, html, STANDINGS_CACHE_SECONDS)
    # Our own template's output, stored as text by the cache.
    return StandingsTable(html=mark_safe(html), etag=f'"{hashlib.sha256(key.encode()).hexdigest()[:24]}"',
                          updating=state.updating)


def standing_of(event: Event, player: Player) -> StandingLine | None:
    """One player's line (and whether the rank is shared): two small queries, whatever the event's size."""
    row = Standing.objects.filter(event=event, player=player).select_related("player").first()
    if row is None:
        return None
    shared = row.rank is not None and Standing.objects.filter(event=event, rank=row.rank).count() > 1
    return StandingLine(rank=row.rank, shared=shared, player_id=row.player_id, name=row.player.name,
                        points=row.points, table_points=row.table_points, score=row.score, games=row.games,
                        average_rank=row.average_rank)


