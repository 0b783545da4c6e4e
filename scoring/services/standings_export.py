"""The standings as CSV: the full table, the team table, and the final table as federations take it.

Every text cell goes through the exports' one guard against spreadsheet formulas (``csv_cells``); numbers
stay numbers.
"""

from __future__ import annotations

import io
from typing import Any

from django.utils.translation import pgettext, pgettext_lazy

from scoring.models import Standing
from scoring.selectors import stage_standings
from scoring.services.csv_cells import cell, csv_writer, header, inert
from scoring.services.standings import Progress, standings_progress_cached
from scoring.services.teams import player_teams, team_standings
from tournament.models import Event, Stage

# The results a federation's ranking takes from a tournament: the EMA's MERS results list gives each player's
# place, EMA number, name and country, and for MCR the table points before the score. Club and games are
# there for the federations that ask for them.
FEDERATION_COLUMNS = ("rank", "federation_id", "name", "country", "club", "games", "points", "score", "table_points")
TEAM_COLUMNS = ("rank", "team", "points", "table_points", "members", "counted")

# Every column's label in the reader's language, for the three standings CSVs downloaded from the pages (the
# keys stay the header of the API's, the commands' and ``?header=keys``); ``round_{n}`` names every round's.
LABELS = {
    "rank": pgettext_lazy("CSV column", "Rank"),
    "previous_rank": pgettext_lazy("CSV column", "Previous rank"),
    "movement": pgettext_lazy("CSV column", "Movement"),
    "player_id": pgettext_lazy("CSV column", "Player ID"),
    "player": pgettext_lazy("CSV column", "Player"),
    "federation_id": pgettext_lazy("CSV column", "Federation ID"),
    "country": pgettext_lazy("CSV column", "Country"),
    "team": pgettext_lazy("CSV column", "Team"),
    "stage": pgettext_lazy("CSV column", "Stage"),
    "carried": pgettext_lazy("CSV column", "Points carried"),
    "own": pgettext_lazy("CSV column", "Points in the stage"),
    "points": pgettext_lazy("CSV column", "Points"),
    "table_points": pgettext_lazy("CSV column", "Table points"),
    "score": pgettext_lazy("CSV column", "Score"),
    "games": pgettext_lazy("CSV column", "Games"),
    "average_rank": pgettext_lazy("CSV column", "Average rank"),
    "penalties": pgettext_lazy("CSV column", "Penalties"),
    "first_places": pgettext_lazy("CSV column", "First places"),
    "best_game": pgettext_lazy("CSV column", "Best game"),
    "draws": pgettext_lazy("CSV column", "Draws to tenpai"),
    "round_{n}": pgettext_lazy("CSV column", "Round %(n)s"),
    "name": pgettext_lazy("CSV column", "Name"),
    "club": pgettext_lazy("CSV column", "Club"),
    "members": pgettext_lazy("CSV column", "Members"),
    "counted": pgettext_lazy("CSV column", "Members counted"),
}


def standings_table_csv(event: Event, stage: int | None = None, *, localised: bool = False) -> str:
    """One line per player in standings order (``stage``'s, or the event's): rank, movement since the previous
    round (the event's table only), the player's federation id, country and team, the totals, the draws that rank
    a player of the solo race to tenpai (``score`` their value; empty in other events), and the points of each
    round (``round_1``, …; a stage's own rounds). An event in stages adds the stage of the line (the final
    ranking's: the last stage reached) and the points carried into it beside the stage's own. ``localised``: the
    header and the word ``new`` in the active language (``LABELS``), for a reader."""
    progress = standings_progress_cached(event)
    in_stage = dict(event.rounds.values_list("number", "stage"))
    numbers = sorted(
        {
            r.round
            for rounds in progress.rounds.values()
            for r in rounds
            if stage is None or in_stage.get(r.round) == stage
        }
    )
    staged = stage is not None or Stage.objects.filter(event=event, number__gte=2).exists()
    teams = player_teams(event)
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(header(_columns(staged, numbers), LABELS, localised))
    for s in stage_standings(event, stage):
        writer.writerow(
            inert(
                _line(
                    s, progress, teams, staged=staged, numbers=numbers, event_table=stage is None, localised=localised
                )
            )
        )
    return out.getvalue()


def _columns(staged: bool, numbers: list[int]) -> list[str]:
    return [
        "rank",
        "previous_rank",
        "movement",
        "player_id",
        "player",
        "federation_id",
        "country",
        "team",
        *(("stage", "carried", "own") if staged else ()),
        "points",
        "table_points",
        "score",
        "games",
        "average_rank",
        "penalties",
        "first_places",
        "best_game",
        "draws",
        *(f"round_{n}" for n in numbers),
    ]


def _line(
    s: Standing,
    progress: Progress,
    teams: dict[int, str],
    *,
    staged: bool,
    numbers: list[int],
    event_table: bool,
    localised: bool,
) -> list[Any]:
    """One player's cells in the order of ``_columns``; the movement only on the event's own table."""
    by_round = {r.round: r.points for r in progress.rounds.get(s.player_id, [])}
    return [
        cell(s.rank),
        cell(progress.previous_ranks.get(s.player_id) if event_table else None),
        _movement(progress, s, localised) if event_table else "",
        s.player_id,
        s.player.name,
        s.player.federation_id,
        s.player.country,
        teams.get(s.player_id, ""),
        *((s.stage, s.carried, s.points - s.carried) if staged else ()),
        s.points,
        cell(s.table_points),
        s.score,
        s.games,
        cell(s.average_rank),
        s.penalties,
        s.first_places,
        cell(s.best_game),
        cell(s.draws),
        *(cell(by_round.get(n)) for n in numbers),
    ]


def _movement(progress: Progress, standing: Standing, localised: bool) -> Any:
    """Places gained since the previous round as a number (negative: lost), ``new`` (or the reader's word), or
    empty."""
    if progress.is_new(standing.player_id, standing.rank):
        return pgettext("CSV value", "new") if localised else "new"
    return cell(progress.movement(standing.player_id, standing.rank))


def teams_csv(event: Event, *, localised: bool = False) -> str:
    """One line per team: rank, name, the total, its members, and those whose points count."""
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(header(TEAM_COLUMNS, LABELS, localised))
    for team in team_standings(event):
        writer.writerow(
            inert(
                [
                    team.rank,
                    team.name,
                    team.points,
                    cell(team.table_points),
                    "; ".join(m.name for m in team.members),
                    "; ".join(m.name for m in team.members if m.counted),
                ]
            )
        )
    return out.getvalue()


def federation_csv(event: Event, *, localised: bool = False) -> str:
    """The final table as a federation's ranking submission takes it (``FEDERATION_COLUMNS``): ranked players
    in order; table points only for MCR (empty otherwise)."""
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(header(FEDERATION_COLUMNS, LABELS, localised))
    for s in Standing.objects.filter(event=event, rank__isnull=False).select_related("player"):
        writer.writerow(
            inert(
                [
                    s.rank,
                    s.player.federation_id,
                    s.player.name,
                    s.player.country,
                    s.player.club,
                    s.games,
                    s.points,
                    s.score,
                    cell(s.table_points),
                ]
            )
        )
    return out.getvalue()
