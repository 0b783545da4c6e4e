"""The results CSV: one line per player per game, written as it is read, for a league of any size.

The games are read as plain values in chunks (one query over the seats, with their game, table, round and
player joined, and one over the results), never as model instances: a game's stored result JSON (6-9 KB each)
is not read at all, and the text goes out in pieces as the rows come, so a 10,000-game league neither waits for
the whole file nor holds it in memory.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from decimal import Decimal

from django.utils.translation import pgettext_lazy

from scoring.models import GameResult
from scoring.services.csv_cells import cell, csv_writer, header, inert, wind, yes_no
from tournament.models import Event, Game, Seat

# The results CSV's columns, and each one's label in the reader's language for the download from the pages (the
# keys stay the header of the command's export and of ``?header=keys``).
RESULT_COLUMNS = (
    "game",
    "round",
    "table",
    "played_on",
    "finished",
    "seat",
    "wind",
    "player_id",
    "player",
    "substitute",
    "rank",
    "score",
    "points",
    "table_points",
)
RESULT_LABELS = {
    "game": pgettext_lazy("CSV column", "Game"),
    "round": pgettext_lazy("CSV column", "Round"),
    "table": pgettext_lazy("CSV column", "Table"),
    "played_on": pgettext_lazy("CSV column", "Played on"),
    "finished": pgettext_lazy("CSV column", "Finished"),
    "seat": pgettext_lazy("CSV column", "Seat"),
    "wind": pgettext_lazy("CSV column", "Seat wind"),
    "player_id": pgettext_lazy("CSV column", "Player ID"),
    "player": pgettext_lazy("CSV column", "Player"),
    "substitute": pgettext_lazy("CSV column", "Substitute"),
    "rank": pgettext_lazy("CSV column", "Rank"),
    "score": pgettext_lazy("CSV column", "Score"),
    "points": pgettext_lazy("CSV column", "Points"),
    "table_points": pgettext_lazy("CSV column", "Table points"),
}
CHUNK_ROWS = 2000  # rows fetched from the database, and written out, at a time

_SEAT_FIELDS = (
    "game_id",
    "game__table__round__number",
    "game__table__number",
    "game__played_on",
    "game__status",
    "position",
    "player_id",
    "player__name",
    "substitute",
)
_RESULT_FIELDS = ("game_id", "player_id", "rank", "score", "points", "table_points")
_NO_RESULT = (None, None, None, None)

ResultCells = tuple[Decimal | None, int | None, Decimal | None, Decimal | None]


def results_csv(event: Event, *, localised: bool = False) -> str:
    """The whole CSV as one text (the command's export); ``results_csv_chunks`` writes the same, piece by piece."""
    return "".join(results_csv_chunks(event, localised=localised))


def results_csv_chunks(event: Event, *, localised: bool = False) -> Iterator[str]:
    """The results CSV in pieces of ``CHUNK_ROWS`` lines; ``localised``: the header, the winds and yes/no in the
    active language (``RESULT_LABELS``), for a reader."""
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(header(RESULT_COLUMNS, RESULT_LABELS, localised))
    winds = event.ruleset().seat_winds
    results = _results(event)
    seats = Seat.objects.filter(game__event=event).order_by("game_id", "position").values_list(*_SEAT_FIELDS)
    for n, (game, round_, table, played_on, status, position, player, name, substitute) in enumerate(
        seats.iterator(chunk_size=CHUNK_ROWS), start=1
    ):
        rank, score, points, table_points = results.get((game, player), _NO_RESULT)
        writer.writerow(
            inert(
                [
                    game,
                    cell(round_),
                    cell(table),
                    played_on.isoformat(),
                    yes_no(status == Game.Status.FINISHED, localised),
                    position + 1,
                    wind(winds[position], localised),
                    player,
                    name,
                    yes_no(substitute, localised),
                    cell(rank),
                    cell(score),
                    cell(points),
                    cell(table_points),
                ]
            )
        )
        if n % CHUNK_ROWS == 0:
            yield _drain(out)
    yield _drain(out)


def _results(event: Event) -> dict[tuple[int, int], ResultCells]:
    """Each (game, player)'s rank, score, points and table points: plain values, a few numbers a line."""
    rows = GameResult.objects.filter(event=event).values_list(*_RESULT_FIELDS).iterator(chunk_size=CHUNK_ROWS)
    return {(game, player): tuple(cells) for game, player, *cells in rows}


def _drain(out: io.StringIO) -> str:
    text = out.getvalue()
    out.seek(0)
    out.truncate()
    return text
