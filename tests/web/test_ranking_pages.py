"""The rankings pages: the list, a ranking on a date with each row's explanation, in English and Korean."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.test import Client

from scoring.services.games import game_record_totals
from scoring.services.ranking_import import results_import
from scoring.services.ratings import rating_rebuild
from scoring.services.standings import standings_recompute
from tests.factories import EventFactory, registered

pytestmark = pytest.mark.django_db

CSV = (
    "event_id,event_name,date,days,players,countries,weight,federation_id,name,country,place\n"
    "E1,Winter Open,2025-01-11,2,50,7,,01,Ann Berg,DK,1\nE1,Winter Open,2025-01-11,2,50,7,,02,Bo Lind,SE,50\n"
    "E2,Spring Cup,2025-01-18,1,20,2,2.5,01,Ann Berg,DK,20\nE2,Spring Cup,2025-01-18,1,20,2,2.5,02,Bo Lind,SE,1\n"
)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def test_the_list_names_every_ranking_the_reader_may_see():
    EventFactory.create(name="Club Nights", slug="club", rating="tenhou")
    EventFactory.create(name="Hidden League", slug="hidden", rating="tenhou", public=False)
    body = text(Client().get("/rankings/").content.decode())
    assert "EMA ranking (MERS), riichi" in body
    assert "EMA ranking (MERS), MCR" in body
    assert "Club Nights Tenhou-style rating" in body
    assert "Hidden League" not in body


def test_a_ranking_on_a_date_explains_each_row():
    """Ann: 1st of 50 (weight 2 + ½ + ½ = 3) and last of 20 (published 2.5): 376.47, the last result counted in
    both parts; Bo the other way round, 313.73."""
    results_import(CSV)
    response = Client().get("/rankings/ema/?as_of=2025-01-22")
    assert response.status_code == 200
    body = text(response.content.decode())
    assert "The ranking published for the week of 2025-01-20; changes since the week of 2025-01-13." in body
    assert "1 new Ann Berg 01 Part A 352.94 · Part B 400.00" in body
    assert "counted for the first time DK 376.47" in body
    assert "Winter Open 2025-01-11 1 of 50 → 1000 · weight 3 × time 1 A B" in body
    assert "Spring Cup 2025-01-18 20 of 20 → 0 · weight 2.5 × time 1 A B" in body
    assert "Spring Cup (2025-01-18): counted for the first time" in body
    assert "1 DK 125.49 Ann Berg 1" in body  # Denmark: Ann's 376.47 and two missing players, / 3


def test_a_year_later_a_result_is_halved_and_says_so():
    results_import(CSV)
    body = text(Client().get("/rankings/ema/?as_of=2026-01-14").content.decode())
    assert "weight 3 × time 0.5" in body
    assert "Winter Open (2025-01-11): now at half weight (over a year old)" in body


def test_a_bad_date_is_refused_on_the_page_naming_it():
    response = Client().get("/rankings/ema/?as_of=2025-02-30")
    assert response.status_code == 400
    assert "Date: must be a date written YYYY-MM-DD" in text(response.content.decode())
    korean = Client().get("/rankings/ema/?as_of=1999-01-01", HTTP_ACCEPT_LANGUAGE="ko")
    assert korean.status_code == 400
    assert "날짜: 2005-01-01부터 오늘" in text(korean.content.decode())


def test_unknown_and_hidden_rankings_are_not_found():
    EventFactory.create(slug="hidden", rating="tenhou", public=False)
    assert Client().get("/rankings/nope/").status_code == 404
    assert Client().get("/rankings/hidden/").status_code == 404


def test_a_league_rating_shows_its_games():
    league = EventFactory.create(name="Club Nights", slug="club", kind="league", rating="tenhou")
    players = registered(league, "Ann", "Bo", "Cy", "Di")
    game = game_record_totals(
        event=league,
        player_ids=[p.pk for p in players],
        scores=[45000, 35000, 25000, 15000],
        deposits_left=0,
        user=None,
        played_on=date(2025, 5, 1),
    )
    standings_recompute(league)
    rating_rebuild(league)
    html = Client().get("/rankings/club/?as_of=2025-05-02", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    body = text(html)
    assert "Club Nights 텐호식 레이팅" in body
    assert "Ann 1대국 반영" in body
    assert f'href="/games/{game.pk}/"' in html
    assert "1위 · 1500.00 → 1530.00 (+30.00)" in body
