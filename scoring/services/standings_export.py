"""The standings as CSV: the full table, the team table, and the final table as federations take it.

Every text cell goes through the exports' one guard against spreadsheet formulas (``csv_cells``); numbers
stay numbers.
"""

from __future__ import annotations

import io
from typing import Any

from scoring.models import Standing
from scoring.selectors import stage_standings
from scoring.services.csv_cells import cell, csv_writer, inert
from scoring.services.standings import Progress, standings_progress
from scoring.services.teams import player_teams, team_standings
from tournament.models import Event, Stage

# The results a federation's ranking takes from a tournament: the EMA's MERS results list gives each player's
# place, EMA number, name and country, and for MCR the table points before the score. Club and games are
# there for the federations that ask for them.
FEDERATION_COLUMNS = ("rank", "federation_id", "name", "country", "club", "games", "points", "score",
                      "table_points")


def standings_table_csv(event: Event, stage: int | None = None) -> str:
    """One line per player in standings order (``stage``'s, or the event's): rank, movement since the previous
    round (the event's table only), the player's federation id, country and team, the totals, the draws that rank
    a player of the solo race to tenpai (``score`` their value; empty in other events), and the points of each
    round (``round_1``, …; a stage's own rounds). An event in stages adds the stage of the line (the final
    ranking's: the last stage reached) and the points carried into it beside the stage's own."""
    progress = standings_progress(event)
    in_stage = dict(event.rounds.values_list("number", "stage"))
    numbers = sorted({r.round for rounds in progress.rounds.values() for r in rounds
                      if stage is None or in_stage.get(r.round) == stage})
    staged = stage is not None or Stage.objects.filter(event=event, number__gte=2).exists()
    teams = player_teams(event)
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(["rank", "previous_rank", "movement", "player_id", "player", "federation_id", "country", "team",
                     *(("stage", "carried", "own") if staged else ()),
                     "points", "table_points", "score", "games", "average_rank", "penalties", "first_places",
                     "best_game", "draws", *(f"round_{n}" for n in numbers)])
    for s in stage_standings(event, stage):
        by_round = {r.round: r.points for r in progress.rounds.get(s.player_id, [])}
        moved = stage is None
        writer.writerow(inert([
            cell(s.rank), cell(progress.previous_ranks.get(s.player_id) if moved else None),
            _movement(progress, s) if moved else "", s.player_id, s.player.name, s.player.federation_id,
            s.player.country, teams.get(s.player_id, ""),
            *((s.stage, s.carried, s.points - s.carried) if staged else ()),
            s.points, cell(s.table_points), s.score, s.games, cell(s.average_rank), s.penalties, s.first_places,
            cell(s.best_game), cell(s.draws), *(cell(by_round.get(n)) for n in numbers)]))
    return out.getvalue()


def _movement(progress: Progress, standing: Any) -> Any:
    """Places gained since the previous round as a number (negative: lost), ``new``, or empty."""
    if progress.is_new(standing.player_id, standing.rank):
        return "new"
    return cell(progress.movement(standing.player_id, standing.rank))


def teams_csv(event: Event) -> str:
    """One line per team: rank, name, the total, and its members (those whose points count marked ``*``)."""
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(["rank", "team", "points", "table_points", "members", "counted"])
    for team in team_standings(event):
        writer.writerow(inert([team.rank, team.name, team.points, cell(team.table_points),
                                "; ".join(m.name for m in team.members),
                                "; ".join(m.name for m in team.members if m.counted)]))
    return out.getvalue()


def federation_csv(event: Event) -> str:
    """The final table as a federation's ranking submission takes it (``FEDERATION_COLUMNS``): ranked players
    in order; table points only for MCR (empty otherwise)."""
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(FEDERATION_COLUMNS)
    for s in Standing.objects.filter(event=event, rank__isnull=False).select_related("player"):
        writer.writerow(inert([s.rank, s.player.federation_id, s.player.name, s.player.country, s.player.club,
                                s.games, s.points, s.score, cell(s.table_points)]))
    return out.getvalue()
