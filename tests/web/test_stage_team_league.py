"""The stage pages of a team league (M.League's final: the top 4 teams, their points halved): the cut names
teams, the wildcards offered are teams, and the pages read without a player's link or points for a team.

Qualifying (tests/api/test_team_league.py): table 1 ends 45,000 / 30,000 / 16,000 / 9,000 (+65.0, +10.0, -24.0,
-51.0), table 2 40,000 / 33,000 / 17,000 / 10,000 (+60.0, +13.0, -23.0, -50.0); the top 4 carry half: +32.50,
+30.00, +6.50, +5.00.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.services.standings import standings_recompute
from tests.api.test_team_league import finish, league, name_all, team_names
from tests.conftest import client_for
from tournament.models import Event

pytestmark = pytest.mark.django_db


def test_a_team_leagues_cut_names_teams() -> None:
    organiser = User.objects.create_user("org")
    api = client_for(organiser)
    slug = league(api)
    api.post(f"/api/v1/events/{slug}/rounds/", {}, format="json")
    tables = api.post(f"/api/v1/events/{slug}/rounds/1/seating", {"method": "random", "seed": 7}, format="json").json()[
        "tables"
    ]
    games = [t["game"] for t in name_all(api, slug, 1)["tables"]]
    finish(api, games[0], [45000, 30000, 16000, 9000])
    finish(api, games[1], [40000, 33000, 17000, 10000])
    event = Event.objects.get(slug=slug)
    standings_recompute(event)
    org = Client()
    org.force_login(organiser)
    added = org.post(
        f"/events/{slug}/manage/stages/",
        {"name": "Final", "entry_top": "4", "carry": "half", "seating": "rank", "winds": "rank"},
    )
    assert added.status_code == 302
    form = org.get(f"/events/{slug}/manage/stages/2/").context["form"]
    assert form.fields["entry_top"].label == "Teams going on"
    assert sorted(name for _id, name in form.fields["entry_also"].choices) == sorted(
        name for table in team_names(tables) for name in table
    )
    page = re.sub(
        r"\s+", " ", re.sub(r"<[^>]+>", " ", org.get(f"/events/{slug}/manage/stages/2/cut/").content.decode())
    )
    table_1, table_2 = team_names(tables)
    assert (
        f"Rank Team Points Carried 1 {table_1[0]} +32.50 2 {table_2[0]} +30.00 3 {table_2[1]} +6.50 "
        f"4 {table_1[1]} +5.00"
    ) in page
    confirmed = org.post(f"/events/{slug}/manage/stages/2/cut/")
    assert confirmed.status_code == 302
    overview = org.get(f"/events/{slug}/stages/").content.decode()
    assert overview.count(f"/events/{slug}/players/") == 0  # a team is not a player: no player's link
    assert org.get(f"/events/{slug}/standings/?stage=2").status_code == 200
