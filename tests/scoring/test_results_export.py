"""The results CSV, now read as plain values and written piece by piece, says byte for byte what the export
said when it read every game as a model (with its stored result) and wrote the file in one piece."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from scoring.models import GameResult
from scoring.services import results_export
from scoring.services.csv_cells import cell, csv_writer, header, inert, wind, yes_no
from scoring.services.standings import standings_recompute
from tests.factories import EventFactory, RoundFactory, TableFactory, played, registered
from tournament.models import Event, Game
from tournament.selectors import with_seats

pytestmark = pytest.mark.django_db

RON = {"result": "ron", "han": 3, "fu": 40}


def reference_csv(event: Event, localised: bool) -> str:
    """The export as it was written before (every game a model instance, one text): the oracle."""
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(header(results_export.RESULT_COLUMNS, results_export.RESULT_LABELS, localised))
    winds = event.ruleset().seat_winds
    results = {(r.game_id, r.player_id): r for r in GameResult.objects.filter(event=event)}
    for game in with_seats(event.games.select_related("table__round")).order_by("pk"):
        for seat in game.seats.all():
            result = results.get((game.pk, seat.player_id))
            numbers = [result.rank, result.score, result.points, result.table_points] if result else [None] * 4
            where = [game.table.round.number, game.table.number] if game.table else ["", ""]
            cells = [
                game.pk,
                *where,
                game.played_on.isoformat(),
                yes_no(game.status == Game.Status.FINISHED, localised),
            ]
            cells += [seat.position + 1, wind(winds[seat.position], localised), seat.player_id, seat.player.name]
            writer.writerow(inert([*cells, yes_no(seat.substitute, localised), *(cell(n) for n in numbers)]))
    return out.getvalue()


@pytest.fixture
def league() -> Event:
    """Two rounds on tables, a game off any table, one still playing, a substitute, a formula and a Korean name."""
    event = EventFactory.create(slug="league")
    people = registered(event, "Ann", '=HYPERLINK("x")', "김민준", 'Di, "the" dealer', "Eve", "Fay")
    first, second = RoundFactory.create(event=event, number=1), RoundFactory.create(event=event, number=2)
    for n, (round_, seats) in enumerate([(first, people[:4]), (second, people[2:])]):
        ron = {**RON, "winner": seats[n].pk, "loser": seats[3].pk}
        played(event, seats, [ron], table=TableFactory.create(round=round_, number=n + 3), end=True)
    played(event, people[1:5], [{**RON, "winner": people[4].pk, "loser": people[1].pk}], substitutes=[people[4].pk])
    played(event, [people[5], *people[:3]], played_on=date(2026, 3, 1))  # no hand yet: no result
    standings_recompute(event)
    return event


@pytest.mark.parametrize("language", ["en", "ko", "ja", "zh-hans"])
@pytest.mark.parametrize("localised", [False, True])
def test_the_csv_is_byte_identical_to_the_export_before(league: Event, language: str, localised: bool):
    with translation.override(language):
        expected = reference_csv(league, localised)
        assert results_export.results_csv(league, localised=localised) == expected
    assert expected.count("\r\n") == 1 + 4 * 4  # the header and four games of four: the oracle saw them all


def test_the_pieces_join_into_the_same_text(league: Event, monkeypatch: pytest.MonkeyPatch):
    whole = results_export.results_csv(league)
    monkeypatch.setattr(results_export, "CHUNK_ROWS", 3)
    pieces = list(results_export.results_csv_chunks(league))
    assert len(pieces) == 6  # 17 lines in pieces of 3 (the header is in the first), then what is left
    assert "".join(pieces) == whole


def test_the_export_never_reads_a_games_stored_result(league: Event):
    with CaptureQueriesContext(connection) as queries:
        results_export.results_csv(league)
    read = [q["sql"] for q in queries.captured_queries]
    assert read
    assert not [sql for sql in read if '"tournament_game"."result"' in sql]
    assert len(read) <= 4  # the event's ruleset aside: the results, then the seats with everything joined


def test_the_page_streams_the_same_csv_in_the_readers_language(league: Event):
    response = Client().get("/events/league/results.csv", HTTP_ACCEPT_LANGUAGE="ko")
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Disposition"] == 'attachment; filename="league-results.csv"'
    with translation.override("ko"):
        expected = "\ufeff" + reference_csv(league, localised=True)
    assert response.getvalue().decode("utf-8") == expected
    keys = Client().get("/events/league/results.csv?header=keys", HTTP_ACCEPT_LANGUAGE="ko")
    assert keys.getvalue().decode("utf-8") == reference_csv(league, localised=False)


def test_an_unknown_header_is_refused_by_name(league: Event):
    response = Client().get("/events/league/results.csv?header=nope")
    assert response.status_code == 400
    assert response.content.decode() == "header: must be one of labels, keys"
