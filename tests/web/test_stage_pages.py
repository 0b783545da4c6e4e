"""The public pages of an event in stages: the standings of each stage (carried, own and total side by side),
the final ranking by the stage reached, the stages' overview with who went through and the final tables, the
standings CSV of a stage, and the stage links only where there are stages.

The event (tests/web/stage_event.py): qualifying left Ann and Eve at +55.0, Bo, Cy and Fay at +20.0 (tied at
the line for two places of a top-4 final carrying half), Ivy +13.0, ... Hana -57.0. The organiser chose Bo and
Fay. The final ended Ann +23.0, Eve +8.0, Bo -7.0, Fay -24.0: with the +27.5 / +27.5 / +10.0 / +10.0 carried,
Ann +50.5, Eve +35.5, Bo +3.0, Fay -14.0.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import EventFactory
from tests.web.stage_event import final_played, qualified, with_final
from tournament.models import Event

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())).strip()


@pytest.fixture
def event_in_stages(organiser: User) -> Event:
    """Spring Cup's qualifying and its final, played (tests/web/stage_event.py)."""
    return final_played(organiser)[0]


def test_a_stages_standings_show_carried_own_and_total(event_in_stages: Event):
    page = text(Client().get("/events/spring-cup/standings/?stage=2"))
    assert "Standings · Final" in page
    assert "Carried: the points brought in from Qualifying. Own: this stage's games. The total is both." in page
    assert (
        "Rank Player Carried Own Total Games Avg. rank 1 Ann +27.5 +23.0 +50.5 Carried +27.5 R3 +23.0 1 1.00 "
        "2 Eve +27.5 +8.0 +35.5 Carried +27.5 R3 +8.0 1 2.00 3 Bo +10.0 -7.0 +3.0 Carried +10.0 R3 -7.0 1 3.00 "
        "4 Fay +10.0 -24.0 -14.0 Carried +10.0 R3 -24.0 1 4.00"
    ) in page
    qualifying = text(Client().get("/events/spring-cup/standings/?stage=1"))
    assert "Carried" not in qualifying.split("Rank Player", 1)[1]  # nothing is carried into the first stage
    assert "=3 Bo +20.0 R1 +7.0 R2 +13.0 2" in qualifying


def test_the_final_ranking_goes_by_the_stage_reached(event_in_stages: Event):
    page = text(Client().get("/events/spring-cup/standings/"))
    assert "Final ranking Qualifying Final" in page  # the switcher
    assert "Ranked by the last stage each player reached, then by the rank in it." in page
    ranking = re.findall(r"(\d+) (?:[▲▼]\d+ |– |new )?(\w+) (Final|Qualifying) ([+-]\d+\.\d)", page)
    assert ranking == [
        ("1", "Ann", "Final", "+50.5"),
        ("2", "Eve", "Final", "+35.5"),
        ("3", "Bo", "Final", "+3.0"),
        ("4", "Fay", "Final", "-14.0"),
        ("5", "Cy", "Qualifying", "+20.0"),
        ("6", "Ivy", "Qualifying", "+13.0"),
        ("7", "Jun", "Qualifying", "-1.0"),
        ("8", "Dee", "Qualifying", "-17.0"),
        ("9", "Gus", "Qualifying", "-20.0"),
        ("10", "Kai", "Qualifying", "-37.0"),
        ("11", "Lee", "Qualifying", "-51.0"),
        ("12", "Hana", "Qualifying", "-57.0"),
    ]


def test_readers_of_one_stage_are_not_served_another_stages_page(event_in_stages: Event):
    final = Client().get("/events/spring-cup/standings/?stage=2").content.decode()
    ranking = Client().get("/events/spring-cup/standings/").content.decode()
    polled = Client().get("/events/spring-cup/standings/?stage=2&part=table").content.decode()
    assert 'aria-current="page">Final</a>' in final
    assert 'aria-current="page">Final ranking</a>' in ranking
    assert 'data-poll="/events/spring-cup/standings/?part=table&amp;sort=rank&amp;stage=2"' in final
    assert ">Own<" in polled
    assert ">Own<" not in ranking
    assert 'href="/events/spring-cup/standings/?sort=points&amp;stage=2"' in polled  # a sort keeps the stage


@pytest.mark.parametrize("asked", ["9", "0", "x", "²", "1" * 5000])
def test_a_stage_the_event_does_not_have_is_not_found(event_in_stages: Event, asked: str):
    assert Client().get(f"/events/spring-cup/standings/?stage={asked}").status_code == 404
    assert Client().get(f"/events/spring-cup/standings.csv?stage={asked}").status_code == 404


def test_the_stages_page_says_who_went_through_and_shows_the_final_tables(event_in_stages: Event):
    page = text(Client().get("/events/spring-cup/stages/"))
    assert "1. Qualifying entered everyone · seated random" in page
    assert (
        "2. Final entered the top 4 · half the points carried in · seated by rank, winds by rank · 1 hanchan "
        "4 went through Rank Player Points Carried =1 Ann 55.0 +27.50 =1 Eve 55.0 +27.50 "
        "=3 Bo chosen at the line 20.0 +10.00 =3 Fay chosen at the line 20.0 +10.00 "
        "Tied at the line for 2 places; the organiser chose who went on. Not chosen: Cy"
    ) in page
    assert (
        "Final tables Final Round 3 Table 1 finished confirmed 0/4 East Ann 38000 23.0 South Eve 33000 8.0 "
        "West Bo 28000 -7.0 North Fay 21000 -24.0"
    ) in page
    # A game recorded by its end scores (no hands) has those as its result on the round's page too.
    assert "East Ann 45000 30.0 South Bo 32000 7.0" in text(Client().get("/events/spring-cup/rounds/1/"))


def test_a_cut_not_confirmed_is_not_published(organiser: User):
    with_final(organiser)
    page = text(Client().get("/events/spring-cup/stages/"))
    assert "2. Final not yet" in page
    assert "The cut into this stage is not confirmed yet." in page
    assert "Bo" not in page  # the preview is the organiser's until it is confirmed
    assert "Final is not seated yet." in page


def test_the_standings_csv_of_a_stage(event_in_stages: Event):
    response = Client().get("/events/spring-cup/standings.csv?stage=2&header=keys")
    assert response["Content-Disposition"] == 'attachment; filename="spring-cup-stage-2.csv"'
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(r["rank"], r["player"], r["stage"], r["carried"], r["own"], r["points"], r["round_3"]) for r in rows] == [
        ("1", "Ann", "2", "27.50", "23.00", "50.50", "23.00"),
        ("2", "Eve", "2", "27.50", "8.00", "35.50", "8.00"),
        ("3", "Bo", "2", "10.00", "-7.00", "3.00", "-7.00"),
        ("4", "Fay", "2", "10.00", "-24.00", "-14.00", "-24.00"),
    ]
    assert "round_1" not in rows[0]  # the qualifying's rounds are not the final's
    final = list(
        csv.DictReader(io.StringIO(Client().get("/events/spring-cup/standings.csv?header=keys").content.decode()))
    )
    assert [(r["player"], r["stage"], r["points"]) for r in final[3:5]] == [
        ("Fay", "2", "-14.00"),
        ("Cy", "1", "20.00"),
    ]


def test_stage_links_only_where_there_are_stages(event_in_stages: Event, organiser: User):
    assert '/events/spring-cup/stages/">Stages</a>' in Client().get("/events/spring-cup/").content.decode()
    plain, _ = qualified(organiser, slug="plain", name="Plain")
    page = Client().get("/events/plain/standings/").content.decode()
    assert "Stages" not in page
    assert "Final ranking" not in page
    keys = Client().get("/events/plain/standings.csv?header=keys").content.decode()
    assert "stage" not in next(csv.reader(io.StringIO(keys)))
    assert plain.has_stages() is False


def test_a_private_events_stage_pages_are_not_found_by_strangers(organiser: User):
    final_played(organiser, public=False)
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger"))
    for path in (
        "/events/spring-cup/stages/",
        "/events/spring-cup/standings/?stage=2",
        "/events/spring-cup/standings.csv?stage=2",
    ):
        assert stranger.get(path).status_code == 404
        assert Client().get(path).status_code == 404
    own = Client()
    own.force_login(organiser)
    assert own.get("/events/spring-cup/stages/").status_code == 200


def test_an_event_without_stages_has_a_stages_page_of_its_one_stage(organiser: User):
    EventFactory.create(slug="solo", public=True)
    page = text(Client().get("/events/solo/stages/"))
    assert "1. Stage 1 entered everyone · seated random" in page
    assert "Stage 1 is not seated yet." in page


def test_spectators_share_one_rendering_of_the_stages_page(event_in_stages: Event):
    first = text(Client().get("/events/spring-cup/stages/"))
    with CaptureQueriesContext(connection) as queries:
        again = text(Client().get("/events/spring-cup/stages/"))
    assert again == first
    assert len(queries) <= 2  # the event with its standings' version; the cuts are not read again
