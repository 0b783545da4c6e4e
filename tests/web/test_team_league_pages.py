"""A team league's pages (issue 20): the organiser makes one and names captains; the round's tables show teams by
seat wind with a select of each team's members, one form naming any or all of them; a captain names their own
team's player (and no other), from "My events"; the public sees each team's page, the teams and the team standings
first (carried | own | total once a final carries points in)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from scoring.services.games import round_seat
from scoring.services.hands import game_put_sheet
from scoring.services.standings import standings_recompute
from tests.conftest import client_for
from tests.factories import EventFactory, registered
from tournament.models import Event, Game, Lineup, Player, Team
from tournament.services.seating import Method

pytestmark = pytest.mark.django_db
TEAMS = ("Red", "Blue", "Green", "Gold")


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """A page read in Korean leaves Korean active in this thread: the tests after it read English."""
    yield
    translation.activate("en")


def text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def browser(user: User | None = None, language: str = "en") -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    client.cookies["django_language"] = language
    return client


def seat_of(response: Any, team: Team) -> str:
    """The text of one team's seat on a lineup form: its team, its field or player, the refusal beside it."""
    page = response.content.decode()
    match = re.search(rf"<li[^>]*>(?:(?!</li>).)*?/teams/{team.pk}/(?:(?!</li>).)*</li>", page, flags=re.S)
    assert match, f"no seat of {team.name}"
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(0)))).strip()


@pytest.fixture
def captain() -> User:
    return User.objects.create_user("cap")


@pytest.fixture
def league(organiser: User, captain: User) -> Event:
    """Four teams of two (the first named "<team> 1"), Red captained by ``cap``; round 1 seated at one table."""
    event = EventFactory.create(
        slug="league",
        ruleset_key="m-league",
        entrants=Event.Entrants.TEAMS,
        team_ranking=Event.TeamRanking.SUM,
        organisers=[organiser],
    )
    for name in TEAMS:
        team = Team.objects.create(event=event, name=name, captain=captain if name == "Red" else None)
        registered(event, f"{name} 1", f"{name} 2", team=team)
    event.rounds.create(number=1)
    round_seat(event=event, number=1, method=Method.RANDOM, seed=3)
    return event


def team(name: str) -> Team:
    return Team.objects.get(name=name)


def member(name: str) -> int:
    return Player.objects.get(name=name).pk


def name_all(client: Client, which: int = 1, path: str = "/events/league/rounds/1/lineup/") -> Any:
    return client.post(path, {f"team-{team(t).pk}": member(f"{t} {which}") for t in TEAMS})


# --- the organiser's console --------------------------------------------------------------------------------------


def test_a_new_event_is_a_team_league_when_its_organiser_says_so(organiser: User):
    answer = browser(organiser).post(
        "/events/new/",
        {
            "name": "Pro League",
            "kind": "league",
            "ruleset_key": "m-league",
            "rounds": "2",
            "break_minutes": "0",
            "entrants": "teams",
        },
    )
    assert answer.status_code == 302
    event = Event.objects.get(name="Pro League")
    assert (event.entrants, event.team_ranking) == ("teams", "sum")  # a team league ranks its teams
    page = text(browser(organiser).get("/events/new/"))
    assert "teams (a team league: tables seat teams, each names who plays)" in page


def test_who_plays_is_fixed_once_a_round_is_seated_and_the_settings_say_so_by_the_field(organiser: User, league: Event):
    data = {
        "name": league.name,
        "kind": "tournament",
        "min_games": "0",
        "ranking": "total",
        "team_ranking": "sum",
        "swiss_spread": "1",
        "allow_byes": "on",
        "count_unconfirmed": "on",
        "entrants": "players",
    }
    answer = browser(organiser).post("/events/league/manage/settings/", data)
    assert answer.status_code == 200
    assert "who is seated (players or teams) is fixed once a round is seated or a game is opened" in " ".join(
        answer.context["form"].errors["entrants"]
    )
    league.refresh_from_db()
    assert league.entrants == "teams"
    league.rounds.all().delete()  # before any round is seated, it may change (with the rules, then shown)
    rules = browser(organiser).get("/events/league/manage/settings/").context["rules"]
    data.update({f"rule-{f.name}": "" if f.value() is None else f.value() for f in rules if f.value() is not False})
    data["team_ranking"] = "none"
    assert browser(organiser).post("/events/league/manage/settings/", data).status_code == 302
    league.refresh_from_db()
    assert league.entrants == "players"
    data.update(entrants="teams")  # back to a team league: its teams are ranked though "none" was posted
    assert browser(organiser).post("/events/league/manage/settings/", data).status_code == 302
    league.refresh_from_db()
    assert (league.entrants, league.team_ranking) == ("teams", "sum")


def test_the_round_page_shows_teams_by_wind_and_names_them_all_at_once(organiser: User, league: Event):
    org = browser(organiser)
    page = org.get("/events/league/manage/rounds/1/")
    assert page.status_code == 200
    tables = page.context["lineup"]
    assert [seat.wind for seat in tables[0].seats] == ["East", "South", "West", "North"]
    assert sorted(seat.team for seat in tables[0].seats) == sorted(TEAMS)
    assert page.content.decode().count('<select name="team-') == 4
    assert "/games/" not in page.content.decode()  # no game before every team has named its player
    answer = name_all(org, which=2, path="/events/league/rounds/1/lineup/")
    assert answer.status_code == 302
    answer = org.post(
        "/events/league/rounds/1/lineup/",
        {f"team-{team('Red').pk}": member("Red 1"), "next": "/events/league/manage/rounds/1/"},
    )
    assert answer["Location"] == "/events/league/manage/rounds/1/"
    game = Game.objects.get(table__round__number=1)
    assert sorted(s.player.name for s in game.seats.all()) == ["Blue 2", "Gold 2", "Green 2", "Red 1"]
    page = org.get("/events/league/manage/rounds/1/")
    assert f'href="/games/{game.pk}/"' in page.content.decode()
    assert "1 player named." in text(page)


def test_a_team_leagues_preview_names_its_teams_and_offers_no_typed_tables(organiser: User, league: Event):
    league.rounds.create(number=2)
    answer = browser(organiser).post("/events/league/manage/rounds/2/", {"method": "random", "action": "preview"})
    assert answer.status_code == 200
    ((_number, seats),) = answer.context["preview"]["tables"]
    assert sorted(name for _wind, name in seats) == sorted(TEAMS)
    assert 'value="named"' not in answer.content.decode()
    assert 'name="tables"' not in answer.content.decode()


def test_the_public_round_page_shows_the_teams_while_they_name_who_plays(organiser: User, league: Event):
    browser(organiser).post("/events/league/rounds/1/lineup/", {f"team-{team('Red').pk}": member("Red 2")})
    page = browser().get("/events/league/rounds/1/")
    assert "Red 2" in seat_of(page, team("Red"))
    assert "not named yet" in seat_of(page, team("Blue"))
    assert "named by" not in text(page)  # who named a player is the organisers' and captains' to read
    assert 'name="team-' not in page.content.decode()
    assert "named by org" in seat_of(browser(organiser).get("/events/league/rounds/1/lineup/"), team("Red"))
    name_all(browser(organiser))
    page = browser().get("/events/league/rounds/1/")
    assert 'id="lineups"' not in page.content.decode()  # the game is open: its table shows its players
    assert "Red 1" in text(page)


def test_a_refusal_is_told_beside_its_team(organiser: User, league: Event):
    org = browser(organiser)
    answer = org.post("/events/league/rounds/1/lineup/", {f"team-{team('Red').pk}": member("Blue 1")}, follow=True)
    assert "is not a member of Red still playing" in seat_of(answer, team("Red"))
    assert "is not a member" not in seat_of(answer, team("Blue"))
    name_all(org)
    game = Game.objects.get(table__round__number=1)
    game_put_sheet(
        game_id=game.pk,
        hands=[],
        user=None,
        version=None,
        ended_by_time=True,
        start={"scores": [40000, 30000, 20000, 10000]},
    )
    answer = org.post("/events/league/rounds/1/lineup/", {f"team-{team('Red').pk}": member("Red 2")}, follow=True)
    assert "Red's game in round 1 has begun: its player stays" in seat_of(answer, team("Red"))
    assert Lineup.objects.get(team=team("Red")).player.name == "Red 1"
    assert 'name="team-' not in answer.content.decode()  # a begun game's players are shown, not offered


def test_the_organiser_names_captains_by_user_name(organiser: User, league: Event):
    org = browser(organiser)
    User.objects.create_user("blue-cap")
    answer = org.post(f"/events/league/manage/teams/{team('Blue').pk}/captain/", {"captain": "blue-cap"})
    assert answer["Location"] == "/events/league/manage/players/#teams"
    assert getattr(team("Blue").captain, "username", None) == "blue-cap"
    page = org.post(f"/events/league/manage/teams/{team('Blue').pk}/captain/", {"captain": "nobody"}, follow=True)
    said = text(page)
    assert "No user is named nobody" in said
    assert re.search(r'id="team-\d+">(?:(?!</li>).)*No user is named nobody', page.content.decode(), flags=re.S)
    assert getattr(team("Blue").captain, "username", None) == "blue-cap"  # nothing changed
    org.post(f"/events/league/manage/teams/{team('Blue').pk}/captain/", {"captain": ""})
    assert team("Blue").captain is None
    assert text(org.get("/events/league/manage/players/")).count("Captain") == 4


# --- the captain ------------------------------------------------------------------------------------------------


def test_a_captain_names_their_own_team_only(captain: User, league: Event):
    cap = browser(captain)
    page = cap.get("/events/league/rounds/1/lineup/")
    assert page.status_code == 200
    assert page.content.decode().count('<select name="team-') == 1
    assert f'<select name="team-{team("Red").pk}"' in page.content.decode()
    answer = cap.post("/events/league/rounds/1/lineup/", {f"team-{team('Red').pk}": member("Red 2")})
    assert answer.status_code == 302
    assert Lineup.objects.get(team=team("Red")).named_by == captain
    refused = cap.post("/events/league/rounds/1/lineup/", {f"team-{team('Blue').pk}": member("Blue 1")})
    assert refused.status_code == 403
    both = cap.post(
        "/events/league/rounds/1/lineup/",
        {f"team-{team('Red').pk}": member("Red 1"), f"team-{team('Blue').pk}": member("Blue 1")},
    )
    assert both.status_code == 403  # refused as a whole: nothing named
    assert list(Lineup.objects.values_list("player__name", flat=True)) == ["Red 2"]


def test_my_events_leads_a_captain_to_the_next_round_to_name(captain: User, league: Event):
    page = browser(captain).get("/me/")
    assert 'href="/events/league/rounds/1/lineup/"' in page.content.decode()
    assert "Teams I captain" in text(page)
    assert "name who plays" in text(page)
    browser(captain).post("/events/league/rounds/1/lineup/", {f"team-{team('Red').pk}": member("Red 2")})
    assert "round 1: Red 2 plays" in text(browser(captain).get("/me/"))
    name_all(browser(User.objects.get(username="org")))
    game = Game.objects.get(table__round__number=1)
    game_put_sheet(
        game_id=game.pk,
        hands=[],
        user=None,
        version=None,
        ended_by_time=True,
        start={"scores": [40000, 30000, 20000, 10000]},
    )
    league.rounds.create(number=2)  # the next round, not seated yet: the captain may name ahead
    assert 'href="/events/league/rounds/2/lineup/"' in browser(captain).get("/me/").content.decode()


@pytest.mark.parametrize("public", [True, False])
def test_strangers_find_no_lineup_to_name(league: Event, public: bool):
    Event.objects.filter(pk=league.pk).update(public=public)
    stranger = browser(User.objects.create_user("who"))
    assert stranger.get("/events/league/rounds/1/lineup/").status_code == (403 if public else 404)
    post = {f"team-{team('Red').pk}": member("Red 2")}
    assert stranger.post("/events/league/rounds/1/lineup/", post).status_code == (403 if public else 404)
    assert browser().get("/events/league/rounds/1/lineup/")["Location"].startswith("/accounts/login/")
    referee = User.objects.create_user("ref")
    league.referees.add(referee)
    assert browser(referee).post("/events/league/rounds/1/lineup/", post).status_code == 403
    assert not Lineup.objects.exists()
    assert browser(User.objects.get(username="org")).get("/events/league/rounds/9/lineup/").status_code == 404


def test_a_captain_sees_the_private_league_and_its_pages(captain: User, league: Event):
    Event.objects.filter(pk=league.pk).update(public=False)
    paths = (
        "/events/league/",
        f"/events/league/teams/{team('Red').pk}/",
        "/events/league/teams/",
        "/events/league/standings/",
    )
    for n, path in enumerate(paths):
        assert browser().get(path).status_code == 404, path
        assert browser(User.objects.create_user(f"stranger{n}")).get(path).status_code == 404, path
        assert browser(captain).get(path).status_code == 200, path
    assert browser(captain).get("/events/league/manage/rounds/1/").status_code == 403  # the console is not theirs


# --- the public pages -------------------------------------------------------------------------------------------


def played_round(organiser: User) -> Game:
    """Round 1 played: East 45,000, South 30,000, West 16,000, North 9,000 (M.League: +65, +10, -24, -51)."""
    name_all(browser(organiser))
    game = Game.objects.get(table__round__number=1)
    game_put_sheet(
        game_id=game.pk,
        hands=[],
        user=None,
        version=None,
        ended_by_time=True,
        start={"scores": [45000, 30000, 16000, 9000]},
    )
    standings_recompute(Event.objects.get(slug="league"))
    return game


def test_a_team_page_shows_its_roster_with_their_own_numbers_and_every_game(organiser: User, league: Event):
    game = played_round(organiser)
    east = game.seats.get(position=0).player  # "<team> 1"
    first = Team.objects.get(members__player=east)
    page = browser().get(f"/events/league/teams/{first.pk}/")
    assert page.status_code == 200
    said = text(page)
    assert f"{first.name} 1 1 +65.0 1" in said  # the member's own rank, points and games
    assert f"{first.name} 2 – 0.0 0" in said
    assert "Rank 1 · 65.0 points" in said
    assert f'href="/games/{game.pk}/"' in page.content.decode()
    assert f'href="/events/league/players/{east.pk}/"' in page.content.decode()
    assert browser().get("/events/league/teams/99999/").status_code == 404
    other = EventFactory.create(slug="other")
    assert browser().get(f"/events/other/teams/{first.pk}/").status_code == 404  # not that event's team
    listed = text(browser().get("/events/league/teams/"))
    assert re.search(rf"1 {first.name} \+65\.0 2 members", listed)
    assert other.teams.count() == 0


def test_the_standings_show_the_teams_first_with_each_members_own_points(organiser: User, league: Event):
    game = played_round(organiser)
    order = [Team.objects.get(members__player=s.player) for s in game.seats.order_by("position")]
    page = browser().get("/events/league/standings/")
    body = page.content.decode()
    assert body.index('class="team-standings') < body.index('class="standings"')  # the teams come first
    for n, points in enumerate(("+65.0", "+10.0", "-24.0", "-51.0")):
        row = re.search(rf'<details class="ts-row" id="team-{order[n].pk}">(.*?)</details>', body, flags=re.S)
        assert row, order[n].name
        said = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row.group(1))))
        assert f"Rank {n + 1} {order[n].name}" in said
        assert f"{order[n].name} 1 rank {n + 1} · 1 game {points}" in said  # the member's own line
        assert f'href="/events/league/teams/{order[n].pk}/"' in row.group(1)
    assert 'href="/events/league/teams/"' in body  # the teams, from the event's menu
    event_page = browser().get("/events/league/").content.decode()
    assert all(f'href="/events/league/teams/{t.pk}/"' in event_page for t in order)


def test_a_final_shows_what_each_team_carried_its_own_and_the_total(organiser: User):
    from tests.api.test_team_league import finish, league, name_all, team_names

    api = client_for(organiser)
    slug = league(api)
    Event.objects.filter(slug=slug).update(public=True)
    api.post(f"/api/v1/events/{slug}/rounds/", {}, format="json")
    tables = api.post(f"/api/v1/events/{slug}/rounds/1/seating", {"method": "random", "seed": 7}, format="json").json()[
        "tables"
    ]
    games = [t["game"] for t in name_all(api, slug, 1)["tables"]]
    finish(api, games[0], [45000, 30000, 16000, 9000])
    finish(api, games[1], [40000, 33000, 17000, 10000])
    standings_recompute(Event.objects.get(slug=slug))
    api.post(
        f"/api/v1/events/{slug}/stages/",
        {"name": "Final", "entry": {"top": 4}, "carry": "half", "seating": "rank"},
        format="json",
    )
    api.post(f"/api/v1/events/{slug}/stages/2/cut", {}, format="json")
    api.post(f"/api/v1/events/{slug}/rounds/", {"stage": 2}, format="json")
    api.post(f"/api/v1/events/{slug}/rounds/2/seating", {"method": "rank"}, format="json")
    finish(api, name_all(api, slug, 2, which=1)["tables"][0]["game"], [15000, 20000, 25000, 40000])
    standings_recompute(Event.objects.get(slug=slug))
    table_1, table_2 = team_names(tables)
    said = text(browser().get(f"/events/{slug}/standings/"))
    assert "Carried Own Total" in said
    # The numbers of tests/api/test_team_league.py: carried (half the regular season), own (the final), total.
    for rank, name, carried, own, total in (
        (1, table_1[1], "+5.0", "+60.0", "+65.0"),
        (2, table_2[1], "+6.5", "+5.0", "+11.5"),
        (3, table_2[0], "+30.0", "-20.0", "+10.0"),
        (4, table_1[0], "+32.5", "-45.0", "-12.5"),
    ):
        assert re.search(
            rf"Rank {rank} {name} Final \d members Carried {re.escape(carried)} Own {re.escape(own)} "
            rf"Total {re.escape(total)}",
            said,
        ), name
    # The winner's page: each member's own points of every stage (+10 in the season, +60 in the final).
    winner = Team.objects.get(name=table_1[1])
    page = text(browser().get(f"/events/{slug}/teams/{winner.pk}/"))
    assert "Rank 1 · 65.0 points (5.0 carried, 60.0 own) · Final" in page
    assert re.search(rf"{table_1[1]} 1 \d+ \+10\.0 1 {table_1[1]} 2 \d+ \+60\.0 1", page), page


def test_the_team_pages_speak_korean(captain: User, league: Event):
    lineup = text(browser(captain, "ko").get("/events/league/rounds/1/lineup/"))
    assert "1회전 출전 선수" in lineup
    assert "— 출전 선수 선택 —" in lineup
    team_page = text(browser(language="ko").get(f"/events/league/teams/{team('Red').pk}/"))
    assert "멤버" in team_page
