"""The standings page after two rounds: movement, points per round, federation columns, teams; the CSVs.

wrc-2025. Round 1: Ann (East) rons Cy 3 han 40 fu = 7700: Ann +22.7, Bo and Di 0, Cy −22.7.
Round 2 (Bo East): Di rons Ann 3 han 40 fu = 5200: Di +20.2, Bo and Cy 0, Ann −20.2.
Totals Di +20.2, Ann +2.5, Bo 0.0, Cy −22.7: Di 1 (was =2: ▲1), Ann 2 (was 1: ▼1), Bo 3 (was =2: ▼1), Cy 4 (–).
Teams East (Ann, Bo) and West (Cy, Di), summed: East +2.5, West −2.5.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.services.standings import standings_recompute
from tests.factories import EventFactory, RoundFactory, TableFactory, played, registered
from tests.markup import has
from tournament.models import Event, Player, Registration, Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def team_event() -> Event:
    event = EventFactory.create(name="Team Open", slug="team-open", status=Event.Status.RUNNING, team_ranking="sum")
    ann, bo, cy, di = registered(event, "Ann", "Bo", "Cy", "Di")
    for number, seats, hand in (
        (1, [ann, bo, cy, di], {"winner": ann.pk, "loser": cy.pk}),
        (2, [bo, cy, di, ann], {"winner": di.pk, "loser": ann.pk}),
    ):
        table = TableFactory.create(round=RoundFactory.create(event=event, number=number), number=1)
        played(event, seats, [{"result": "ron", "han": 3, "fu": 40, **hand}], table=table, end=True)
    east, west = (Team.objects.create(event=event, name=name) for name in ("East", "West"))
    Registration.objects.filter(player__in=[ann, bo]).update(team=east)
    Registration.objects.filter(player__in=[cy, di]).update(team=west)
    standings_recompute(event)
    return event


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def page(query: str = "") -> str:
    response = Client().get(f"/events/team-open/standings/{query}")
    assert response.status_code == 200
    return response.content.decode()


def test_movement_rounds_and_teams(team_event: Event):
    html = page()
    # Rank and movement, name and team, the total that opens on each round's points, games, average rank
    # (tied places count as their mean: Di 2.5 then 1, Ann 1 then 4, Bo 2.5 twice, Cy 4 then 2.5).
    assert (
        "1 ▲1 Di West +20.2 R1 0.0 R2 +20.2 2 1.75 2 ▼1 Ann East +2.5 R1 +22.7 R2 -20.2 2 2.50 "
        "3 ▼1 Bo East 0.0 R1 0.0 R2 0.0 2 2.50 4 – Cy West -22.7 R1 -22.7 R2 0.0 2 3.25"
    ) in text(html)
    assert has(html, '<span class="move up" title="up 1 place since the previous round">▲1</span>')
    assert '<details class="rounds" id="rounds-' in html
    assert "Federation ID" not in html
    assert "Country" not in html
    teams = text(html.split('id="teams"')[1])
    assert "1 East Ann +2.5 · Bo 0.0 +2.5 2 West Di +20.2 · Cy -22.7 -2.5" in teams
    assert "Every member's points count." in teams


def test_federation_columns_appear_when_a_player_has_one(team_event: Event):
    Player.objects.filter(name="Cy").update(federation_id="04-000042", country="France")
    standings_recompute(team_event)  # a new version of the standings: the cached table is not reused
    html = page("?part=table")
    assert '<th class="wide">Federation ID</th>' in html
    assert '<th class="wide">Country</th>' in html
    assert "4 – Cy West 04-000042 France -22.7" in text(html)


def test_the_team_table_follows_the_events_setting(team_event: Event, settings):
    settings.PAGE_MICROCACHE_SECONDS = 0  # the shared entry's key follows the setting: this process keeps nothing
    team_event.team_ranking, team_event.team_best = "best", 1
    team_event.save()
    teams = text(page().split('id="teams"')[1])
    assert "1 West Di +20.2 · Cy -22.7 +20.2 2 East Ann +2.5 · Bo 0.0 +2.5" in teams
    assert "Each team's best member counts." in teams
    team_event.team_ranking = "none"
    team_event.save()
    assert 'id="teams"' not in page()


def rows(response: Any) -> list[dict[str, str]]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_the_csv_formats(team_event: Event):
    standings = rows(Client().get("/events/team-open/standings.csv?header=keys"))
    assert [(r["rank"], r["player"], r["movement"], r["team"], r["round_1"], r["round_2"]) for r in standings] == [
        ("1", "Di", "1", "West", "0.00", "20.20"),
        ("2", "Ann", "-1", "East", "22.70", "-20.20"),
        ("3", "Bo", "-1", "East", "0.00", "0.00"),
        ("4", "Cy", "0", "West", "-22.70", "0.00"),
    ]
    teams = rows(Client().get("/events/team-open/standings.csv?format=teams&header=keys"))
    assert [(r["rank"], r["team"], r["points"]) for r in teams] == [("1", "East", "2.50"), ("2", "West", "-2.50")]
    response = Client().get("/events/team-open/standings.csv?format=federation&header=keys")
    assert response["Content-Disposition"] == 'attachment; filename="team-open-federation.csv"'
    assert [(r["rank"], r["name"], r["games"], r["points"], r["score"]) for r in rows(response)] == [
        ("1", "Di", "2", "20.20", "65200"),
        ("2", "Ann", "2", "2.50", "62500"),
        ("3", "Bo", "2", "0.00", "60000"),
        ("4", "Cy", "2", "-22.70", "52300"),
    ]


def test_an_unknown_csv_format_is_refused_by_name(team_event: Event):
    response = Client().get("/events/team-open/standings.csv?format=xlsx")
    assert response.status_code == 400
    assert response.content.decode() == "format: must be one of standings, teams, federation"
    assert Client().get("/events/nope/standings.csv?format=xlsx").status_code == 404


def test_the_admin_edits_the_team_setting(team_event: Event):
    client = Client()
    client.force_login(User.objects.create_superuser("boss", "boss@example.org", "pw"))
    form = client.get(f"/admin/tournament/event/{team_event.pk}/change/").content.decode()
    assert re.search(r'<select name="team_ranking"[^>]*>', form)
    assert '<option value="sum" selected>' in form
    assert re.search(r'<input type="number" name="team_best"', form)
