"""A team league (issue 20): tables seat teams, each team's captain or an organiser names who plays before the
game starts, the league is ranked by the sum of the team's game points, and a final among the top teams carries
their points halved, as M.League carries its regular season into the semi-final and final.

Scores are end scores under M.League's rules (preset ``m-league``: 25,000 to start, 30,000 returned, uma
+30/+10/-10/-30, oka +20 to the first), so each game's points follow from them by hand.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from scoring.models import EventChange
from scoring.services.standings import standings_recompute
from tests.conftest import client_for
from tournament.models import Event, Team

pytestmark = pytest.mark.django_db

TEAMS = ["Abemas", "Drivens", "Phoenix", "Pirates", "Raiden", "Sakura", "Thunders", "Fighters"]


def league(api: Any) -> str:
    answer = api.post(
        "/api/v1/events/", {"name": "Team League", "ruleset": "m-league", "entrants": "teams"}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["team_ranking"] == "sum"  # a team league ranks its teams
    slug: str = answer.json()["slug"]
    for team in TEAMS:
        for n in (1, 2):
            made = api.post(f"/api/v1/events/{slug}/players/", {"name": f"{team} {n}", "team": team}, format="json")
            assert made.status_code == 201, made.json()
    return slug


def members(slug: str) -> dict[str, list[int]]:
    event = Event.objects.get(slug=slug)
    return {t.name: sorted(t.members.values_list("player_id", flat=True)) for t in event.teams.all()}


def name_all(api: Any, slug: str, number: int, which: int = 0) -> dict[str, Any]:
    roster = members(slug)
    body: dict[str, Any] = {}
    for team in Team.objects.filter(event__slug=slug):
        body = api.put(
            f"/api/v1/events/{slug}/rounds/{number}/lineups",
            {"team": team.pk, "player": roster[team.name][which]},
            format="json",
        ).json()
    return body


def finish(api: Any, game_id: int, scores: list[int]) -> None:
    version = api.get(f"/api/v1/games/{game_id}/").json()["version"]
    done = api.put(
        f"/api/v1/games/{game_id}/sheet",
        {"start": {"scores": scores}, "end": "time", "hands": []},
        format="json",
        HTTP_IF_MATCH=f'"{version}"',
    )
    assert done.status_code == 200, done.json()


def team_names(tables: list[dict[str, Any]]) -> list[list[str]]:
    return [[seat["team"]["name"] for seat in table["teams"]] for table in tables]


def test_a_team_league_seats_teams_names_lineups_and_ranks_teams() -> None:
    organiser, captain, stranger = (User.objects.create_user(n) for n in ("org", "cap", "who"))
    api = client_for(organiser)
    slug = league(api)
    assert api.post(f"/api/v1/events/{slug}/rounds/", {}, format="json").status_code == 201
    seated = api.post(f"/api/v1/events/{slug}/rounds/1/seating", {"method": "random", "seed": 7}, format="json")
    assert seated.status_code == 201, seated.json()
    tables = seated.json()["tables"]
    assert [t["game"] for t in tables] == [None, None]  # no game until every team at the table names its player
    assert sorted(name for table in team_names(tables) for name in table) == sorted(TEAMS)

    team = Team.objects.get(event__slug=slug, name=tables[0]["teams"][0]["team"]["name"])
    roster = members(slug)
    assert api.patch(f"/api/v1/events/{slug}/teams/{team.pk}/", {"captain": "cap"}, format="json").status_code == 200
    put = {"team": team.pk, "player": roster[team.name][1]}
    # The league is private (an event is, until published): a stranger does not find it; a referee may not name.
    assert client_for(stranger).put(f"/api/v1/events/{slug}/rounds/1/lineups", put, format="json").status_code == 404
    Event.objects.get(slug=slug).referees.add(stranger)
    assert client_for(stranger).put(f"/api/v1/events/{slug}/rounds/1/lineups", put, format="json").status_code == 403
    assert client_for(captain).put(f"/api/v1/events/{slug}/rounds/1/lineups", put, format="json").status_code == 200
    other = next(name for name in TEAMS if name != team.name)
    refused = client_for(captain).put(
        f"/api/v1/events/{slug}/rounds/1/lineups", {"team": team.pk, "player": roster[other][0]}, format="json"
    )
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "player"

    lineups = name_all(api, slug, 1)
    games = [t["game"] for t in lineups["tables"]]
    assert all(games)
    first_seats = [s["player"]["name"] for s in lineups["tables"][0]["seats"]]
    assert first_seats == [f"{s['team']['name']} 1" for s in lineups["tables"][0]["seats"]]
    # Table 1: 45,000 / 30,000 / 16,000 / 9,000 → +65.0 (+15 +30 uma +20 oka), +10.0, -24.0, -51.0.
    # Table 2: 40,000 / 33,000 / 17,000 / 10,000 → +60.0, +13.0, -23.0, -50.0.
    finish(api, games[0], [45000, 30000, 16000, 9000])
    finish(api, games[1], [40000, 33000, 17000, 10000])
    refused = api.put(
        f"/api/v1/events/{slug}/rounds/1/lineups", {"team": team.pk, "player": roster[team.name][0]}, format="json"
    )
    assert refused.status_code == 409
    standings_recompute(Event.objects.get(slug=slug))
    teams = api.get(f"/api/v1/events/{slug}/standings/").json()["teams"]
    table_1, table_2 = team_names(tables)
    assert [(t["team"], t["points"]) for t in teams] == [
        (table_1[0], 65.0),
        (table_2[0], 60.0),
        (table_2[1], 13.0),
        (table_1[1], 10.0),
        (table_2[2], -23.0),
        (table_1[2], -24.0),
        (table_2[3], -50.0),
        (table_1[3], -51.0),
    ]

    # The final: the top 4 teams, their points halved (M.League's carry), seated by rank.
    made = api.post(
        f"/api/v1/events/{slug}/stages/",
        {"name": "Final", "entry": {"top": 4}, "carry": "half", "seating": "rank"},
        format="json",
    )
    assert made.status_code == 201, made.json()
    ids = {t.name: t.pk for t in Team.objects.filter(event__slug=slug)}
    cut = api.get(f"/api/v1/events/{slug}/stages/2/cut").json()
    assert cut["through"] == [ids[table_1[0]], ids[table_2[0]], ids[table_2[1]], ids[table_1[1]]]
    assert [p["carried"] for p in cut["players"]] == [32.5, 30.0, 6.5, 5.0]
    assert api.post(f"/api/v1/events/{slug}/stages/2/cut", {}, format="json").status_code == 201
    assert api.post(f"/api/v1/events/{slug}/rounds/", {"stage": 2}, format="json").json()["stage"] == 2
    final = api.post(f"/api/v1/events/{slug}/rounds/2/seating", {"method": "rank"}, format="json").json()
    assert team_names(final["tables"]) == [[table_1[0], table_2[0], table_2[1], table_1[1]]]
    game = name_all(api, slug, 2, which=1)["tables"][0]["game"]
    # The last of the four wins the final: 15,000 / 20,000 / 25,000 / 40,000 → -45.0, -20.0, +5.0, +60.0.
    finish(api, game, [15000, 20000, 25000, 40000])
    standings_recompute(Event.objects.get(slug=slug))
    in_final = api.get(f"/api/v1/events/{slug}/standings/?stage=2").json()["teams"]
    assert [(t["team"], t["carried"], t["points"]) for t in in_final] == [
        (table_1[1], 5.0, 65.0),
        (table_2[1], 6.5, 11.5),
        (table_2[0], 30.0, 10.0),
        (table_1[0], 32.5, -12.5),
    ]
    ranking = api.get(f"/api/v1/events/{slug}/standings/").json()["teams"]
    assert [(t["team"], t["rank"], t["stage"]) for t in ranking][:5] == [
        (table_1[1], 1, 2),
        (table_2[1], 2, 2),
        (table_2[0], 3, 2),
        (table_1[0], 4, 2),
        (table_2[2], 5, 1),
    ]
    assert list(EventChange.objects.filter(event__slug=slug).values_list("action", flat=True)) == ["stage", "cut"]
