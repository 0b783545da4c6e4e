"""Pasting the roster again with a team column sets the teams of the players already registered (issue 20: setting
the teams of 12 players one at a time took 36 steps, and the pasted roster was refused line by line as "already
registered"). A line names a registered player by federation id, else by name; without a team it is refused as
before; the preview says what changes, and the save reports it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from rules.errors import Refusal
from tests.factories import EventFactory, PlayerFactory, RegistrationFactory, registered
from tests.web.test_console import text
from tournament.models import Event, Registration
from tournament.services.roster import roster_read, roster_register

pytestmark = pytest.mark.django_db
NAMES = [
    "Ann Lee",
    "Bo Kim",
    "Cy Park",
    "Dee Choi",
    "Eve Han",
    "Fay Jung",
    "Gus Yoon",
    "Hana Lim",
    "Ivy Seo",
    "Jun Oh",
    "Kai Moon",
    "Lee Shin",
]


@pytest.fixture
def team_league(organiser: User) -> Event:
    """An event of teams ranked by the sum of their players' points; nobody registered."""
    return EventFactory.create(
        slug="league", entrants=Event.Entrants.TEAMS, team_ranking=Event.TeamRanking.SUM, organisers=[organiser]
    )


def teams(event: Event) -> dict[str, str]:
    return {r.player.name: r.team.name if r.team else "" for r in event.registrations.select_related("player", "team")}


def test_the_roster_pasted_again_with_a_team_column_sets_every_team(team_league: Event):
    registered(team_league, *NAMES)
    roster = "\n".join(f"{name},,,,{'Red' if n < 4 else 'Blue' if n < 8 else 'Green'}" for n, name in enumerate(NAMES))
    lines = roster_read(event=team_league, text=roster, user=None)
    assert [line.problems for line in lines] == [()] * 12
    assert all(line.registered is not None and line.team_changes for line in lines)
    saved = roster_register(event=team_league, text=roster, user=None)
    assert saved.registered == []
    assert [(line.name, line.team_was, line.team) for line in saved.moved][:2] == [
        ("Ann Lee", "", "Red"),
        ("Bo Kim", "", "Red"),
    ]
    assert team_league.registrations.count() == 12  # nobody registered twice
    assert sorted(teams(team_league).values()).count("Blue") == 4
    assert set(team_league.teams.values_list("name", flat=True)) == {"Red", "Blue", "Green"}


def test_a_second_paste_moves_only_whom_it_changes_and_registers_the_new(team_league: Event):
    registered(team_league, "Ann Lee", "Bo Kim")
    roster_register(event=team_league, text="Ann Lee,,,,Red\nBo Kim,,,,Red", user=None)
    lines = roster_read(event=team_league, text="Ann Lee,,,,Red\nBo Kim,,,,Blue\nCy Park,,,,Blue", user=None)
    assert [(line.name, line.registered is not None, line.team_was, line.team_changes) for line in lines] == [
        ("Ann Lee", True, "Red", False),
        ("Bo Kim", True, "Red", True),
        ("Cy Park", False, "", False),
    ]
    saved = roster_register(event=team_league, text="Ann Lee,,,,Red\nBo Kim,,,,Blue\nCy Park,,,,Blue", user=None)
    assert [r.player.name for r in saved.registered] == ["Cy Park"]
    assert [line.name for line in saved.moved] == ["Bo Kim"]
    assert teams(team_league) == {"Ann Lee": "Red", "Bo Kim": "Blue", "Cy Park": "Blue"}


def test_a_registered_player_is_found_by_federation_id_and_keeps_his_name(team_league: Event):
    player = PlayerFactory.create(name="Ann Lee", federation_id="04120001")
    RegistrationFactory.create(event=team_league, player=player)
    saved = roster_register(event=team_league, text="Ann LEE (EMA), 04120001,,,Red", user=None)
    assert [line.registered for line in saved.moved] == [player.pk]
    player.refresh_from_db()
    assert player.name == "Ann Lee"
    assert teams(team_league) == {"Ann Lee": "Red"}


@pytest.mark.parametrize(
    ("roster", "why"),
    [
        ("Ann Lee", ["Ann Lee is already registered"]),  # no team: a second registration, as before
        ("Ann Lee,,,,Red\nann lee,,,,Blue", ["Ann Lee is in the list twice", "ann lee is in the list twice"]),
        ("Kim,,,,Red", ["Kim is already registered"]),  # two registered players are named Kim: which one?
        ("Ann Lee, 999,,,Red", []),  # found by name; the federation id names nobody registered
        ("Bo, 0412,,,Red", ["Bo is already registered", "federation id 0412 is already registered"]),  # two players
    ],
)
def test_a_line_that_names_nobody_for_sure_is_refused(team_league: Event, roster: str, why: list[str]):
    RegistrationFactory.create(event=team_league, player=PlayerFactory.create(name="Ann Lee", federation_id="0412"))
    registered(team_league, "Kim", "Kim", "Bo")
    problems = [p for line in roster_read(event=team_league, text=roster, user=None) for p in line.problems]
    assert problems == why
    if why:
        with pytest.raises(Refusal):
            roster_register(event=team_league, text=roster, user=None)
    else:
        roster_register(event=team_league, text=roster, user=None)
    assert Registration.objects.filter(event=team_league, team__isnull=False).count() == (0 if why else 1)


def test_the_console_previews_the_changes_then_reports_them(organiser: User, team_league: Event):
    registered(team_league, "Ann Lee", "Bo Kim")
    roster_register(event=team_league, text="Ann Lee,,,,Red", user=None)
    org = Client()
    org.force_login(organiser)
    roster = "name,team\nAnn Lee,Blue\nBo Kim,Blue\nCy Park,Red"
    page = text(org.post("/events/league/manage/players/", {"text": roster, "action": "check"}))
    assert "Ann Lee (registered)" in page
    assert "Red → Blue" in page
    assert "— → Blue" in page
    assert "Register 1 player · change 2 teams" in page
    assert teams(team_league) == {"Ann Lee": "Red", "Bo Kim": ""}  # a preview saves nothing
    answer = org.post("/events/league/manage/players/", {"text": roster, "action": "register"}, follow=True)
    said = text(answer)
    assert "1 player registered." in said
    assert "2 players changed team: Ann Lee → Blue, Bo Kim → Blue." in said
    assert teams(team_league) == {"Ann Lee": "Blue", "Bo Kim": "Blue", "Cy Park": "Red"}
    page = text(org.post("/events/league/manage/players/", {"text": roster, "action": "check"}))
    assert "Nothing to change" in page
    assert "(unchanged)" in page


@pytest.mark.parametrize("separator", [", ", "\t"])
def test_names_and_teams_in_two_columns_set_the_teams(team_league: Event, separator: str):
    """The roster copied from a sheet as "Name, Team" (or tab-separated), with no header line: the second column
    is the team, not a federation id; a new name joins with its team."""
    registered(team_league, "Ann Lee", "Bo Kim")
    roster = (
        separator.join(("Ann Lee", "Red"))
        + "\n"
        + separator.join(("Bo Kim", "Blue"))
        + "\n"
        + separator.join(("Cy Park", "Blue"))
    )
    lines = roster_read(event=team_league, text=roster, user=None)
    assert [
        (line.name, line.federation_id, line.team, line.registered is not None, line.problems) for line in lines
    ] == [("Ann Lee", "", "Red", True, ()), ("Bo Kim", "", "Blue", True, ()), ("Cy Park", "", "Blue", False, ())]
    saved = roster_register(event=team_league, text=roster, user=None)
    assert [r.player.name for r in saved.registered] == ["Cy Park"]
    assert teams(team_league) == {"Ann Lee": "Red", "Bo Kim": "Blue", "Cy Park": "Blue"}


def test_two_columns_stay_names_and_federation_ids_where_they_name_ids(organiser: User):
    """An individual event's first list "Ann Lee, 0412" is names and federation ids; so is a list whose second
    column holds a registered player's id, and any list under a header line that says so."""
    event = EventFactory.create(slug="open", organisers=[organiser])
    (ann,) = roster_read(event=event, text="Ann Lee, 0412", user=None)
    assert (ann.federation_id, ann.team) == ("0412", "")
    RegistrationFactory.create(event=event, player=PlayerFactory.create(name="Ann Lee", federation_id="0412"))
    (again,) = roster_read(event=event, text="Ann Lee, 0412", user=None)
    assert again.problems == ("Ann Lee is already registered", "federation id 0412 is already registered")
    (header,) = roster_read(event=event, text="name, federation id\nBo Kim, Red", user=None)
    assert (header.federation_id, header.team) == ("Red", "")


def test_a_bad_line_of_a_two_column_paste_is_named_and_nothing_changes(team_league: Event):
    registered(team_league, "Ann Lee", "Bo Kim")
    roster = "Ann Lee, Red\nBo Kim, Blue\nann lee, Green"
    with pytest.raises(Refusal) as refused:
        roster_register(event=team_league, text=roster, user=None)
    assert [p.message for p in refused.value.problems] == [
        "line 1: Ann Lee is in the list twice",
        "line 3: ann lee is in the list twice",
    ]
    assert teams(team_league) == {"Ann Lee": "", "Bo Kim": ""}


def test_the_console_previews_a_two_column_paste_and_applies_it_with_one_confirm(organiser: User, team_league: Event):
    registered(team_league, "Ann Lee", "Bo Kim")
    org = Client()
    org.force_login(organiser)
    roster = "Ann Lee\tRed\nBo Kim\tBlue\nCy Park\tBlue"
    page = text(org.post("/events/league/manage/players/", {"text": roster, "action": "check"}))
    assert "Ann Lee (registered)" in page
    assert "Cy Park (new player)" in page
    assert "— → Red" in page
    assert "Register 1 player · change 2 teams" in page
    assert teams(team_league) == {"Ann Lee": "", "Bo Kim": ""}
    org.post("/events/league/manage/players/", {"text": roster, "action": "register"})
    assert teams(team_league) == {"Ann Lee": "Red", "Bo Kim": "Blue", "Cy Park": "Blue"}
