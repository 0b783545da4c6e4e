"""The organiser's stages in the console: listed, added, changed and deleted while the service allows it (its
refusals shown by their field, nothing saved), and the cut into a final previewed, decided among the players
tied at the line, confirmed, followed by the final's first round seated by rank, and undone.

The event (tests/web/stage_event.py): after two rounds of qualifying Ann and Eve have +55.0, Bo, Cy and Fay
+20.0 each; a final of the top 4 carrying half takes Ann and Eve (+27.50 each) and two of Bo, Cy and Fay
(+10.00 each).
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.services.games import round_seat
from scoring.services.hands import game_put_sheet
from tests.factories import EventFactory, registered
from tests.markup import has
from tests.web.stage_event import qualified, with_final
from tournament.models import Event, Game, Stage
from tournament.services.events import round_add
from tournament.services.seating import Method

pytestmark = pytest.mark.django_db
URL = "/events/spring-cup/manage/stages/"


def text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))).strip()


def field_errors(response: Any, name: str) -> list[str]:
    """The errors shown in the form field that holds input ``name``: its own block, up to the next field."""
    page = response.content.decode()
    start = page.rindex('<div class="field', 0, page.index(f'name="{name}"'))
    end = page.find('<div class="field', page.index(f'name="{name}"'))
    block = page[start : end if end > 0 else None]
    return (
        [html.unescape(e) for e in re.findall(r"<li>(.*?)</li>", block.split('<ul class="errors">', 1)[-1])]
        if '<ul class="errors">' in block
        else []
    )


STAGE = {
    "name": "Final",
    "entry_top": "4",
    "carry": "half",
    "carry_share": "",
    "seating": "rank",
    "winds": "rank",
    "rounds_planned": "1",
}


def test_the_stages_are_listed_with_their_entry_carry_seating_and_state(org: Client, organiser: User):
    with_final(organiser)
    page = text(org.get(URL))
    assert "1. Qualifying entered everyone · seated random Round 1 · Round 2 Edit" in page
    assert (
        "2. Final not yet the top 4 · half the points carried in · seated by rank, winds by rank · 1 hanchan "
        "Preview the cut Edit Delete"
    ) in page


def test_a_stage_is_added_with_a_share_wildcards_and_its_seating(org: Client, organiser: User):
    event, players = qualified(organiser)
    response = org.post(
        URL,
        {
            **STAGE,
            "carry": "share",
            "carry_share": "1/3",
            "winds": "drawn",
            "entry_also": [str(players["Jun"].pk)],
            "rounds_planned": "2",
        },
    )
    assert response.status_code == 302
    stage = Stage.objects.get(event=event, number=2)
    assert (
        stage.name,
        stage.entry_top,
        stage.entry_also,
        stage.carry,
        stage.seating,
        stage.winds,
        stage.rounds_planned,
        stage.through,
    ) == ("Final", 4, [players["Jun"].pk], "1/3", "rank", "drawn", 2, None)
    page = text(org.get(URL))
    assert "the top 4 and 1 wildcard · 1/3 of the points carried in · seated by rank, winds drawn · 2 hanchan" in page
    assert "Final is added as stage 2." in page


def test_the_services_refusals_are_shown_by_their_field_and_nothing_is_saved(org: Client, organiser: User):
    event, players = qualified(organiser)
    response = org.post(URL, {**STAGE, "carry": "share", "carry_share": "1.5"})
    assert field_errors(response, "carry_share") == ['must be "all", "half", "none" or a fraction from 0 to 1']
    response = org.post(URL, {**STAGE, "entry_top": "", "entry_also": [str(players["Jun"].pk)]})
    assert field_errors(response, "entry_also") == ["a stage everyone enters has no wildcards"]
    response = org.post(URL, {**STAGE, "carry": "share", "carry_share": ""})
    assert field_errors(response, "carry_share") == ["give the share, such as 1/3"]
    response = org.post(URL, {**STAGE, "name": "  "})
    assert field_errors(response, "name") == ["This field is required."]
    assert response.status_code == 200
    assert not Stage.objects.filter(event=event).exists()


def test_a_stage_changes_until_it_is_seated_then_only_its_name(org: Client, organiser: User):
    event, players, final = with_final(organiser)
    edit = f"{URL}2/"
    form = org.get(edit).context["form"]
    assert (form["entry_top"].value(), form["carry"].value(), form["seating"].value()) == (4, "half", "rank")
    assert org.post(edit, {**STAGE, "carry": "all"}).status_code == 302
    assert Stage.objects.get(pk=final.pk).carry == "all"
    org.post(f"{URL}2/cut/", {"through": [str(players["Bo"].pk), str(players["Fay"].pk)]})
    org.post(f"/events/{event.slug}/manage/rounds/", {"stage": "2"})
    org.post(f"/events/{event.slug}/manage/rounds/3/", {"method": "rank", "action": "seat"})
    response = org.post(edit, {**STAGE, "carry": "none"})
    assert "stage 2 is seated: only its name changes now" in text(response)
    assert Stage.objects.get(pk=final.pk).carry == "all"
    assert org.post(edit, {**STAGE, "carry": "all", "name": "Grand final"}).status_code == 302
    assert Stage.objects.get(pk=final.pk).name == "Grand final"


def test_the_first_stage_is_named_but_takes_everyone(org: Client, organiser: User):
    event, _ = qualified(organiser)
    page = org.get(f"{URL}1/")
    assert "entry_top" not in page.context["form"].fields
    assert org.post(f"{URL}1/", {"name": "Heats", "seating": "swiss", "winds": "rank"}).status_code == 302
    assert Stage.objects.get(event=event, number=1).name == "Heats"
    assert org.post(f"{URL}1/delete/", follow=True).status_code == 200
    assert Stage.objects.filter(event=event, number=1).exists()  # refused: the first stage stays


def test_the_last_stage_is_deleted_before_it_is_seated(org: Client, organiser: User):
    event, players, _final = with_final(organiser)
    org.post(f"{URL}2/cut/", {"through": [str(players["Bo"].pk), str(players["Cy"].pk)]})
    org.post(f"/events/{event.slug}/manage/rounds/", {"stage": "2"})
    org.post(f"/events/{event.slug}/manage/rounds/3/", {"method": "rank", "action": "seat"})
    refused = org.post(f"{URL}2/delete/", follow=True)
    assert "stage 2 has a seated round: unseat its rounds first" in text(refused)
    org.post(f"/events/{event.slug}/manage/rounds/3/unseat/")
    deleted = org.post(f"{URL}2/delete/", follow=True)
    assert "Stage 2 (Final) is deleted." in text(deleted)
    assert not Stage.objects.filter(event=event, number=2).exists()
    assert not event.rounds.filter(number=3).exists()  # its rounds went with it


def test_the_cut_shows_who_goes_on_and_who_is_tied_at_the_line(org: Client, organiser: User):
    with_final(organiser)
    response = org.get(f"{URL}2/cut/")
    page = text(response)
    assert "Going on Rank and points in Qualifying, and the points carried in." in page
    assert "=1 Ann 55.0 +27.50 =1 Eve 55.0 +27.50" in page
    assert (
        "Tied at the line: 3 players for 2 places They are equal on every tiebreak. Tick the 2 who go on. "
        "Goes on Rank Player Points Carried Bo =3 Bo 20.0 +10.00 Cy =3 Cy 20.0 +10.00 "
        "Fay =3 Fay 20.0 +10.00"
    ) in page
    assert len(re.findall(r'<input type="checkbox" name="through"', response.content.decode())) == 3


def test_the_organiser_ticks_exactly_as_many_of_the_tied_as_there_are_places(org: Client, organiser: User):
    event, players, final = with_final(organiser)
    one = org.post(f"{URL}2/cut/", {"through": [str(players["Cy"].pk)]})
    tie = one.content.decode().split('<section class="tie invalid" id="tie">', 1)[1].split("</section>", 1)[0]
    assert re.findall(r"<li>(.*?)</li>", tie) == ["tick 2 of the tied players (1 ticked)"]
    assert has(one.content.decode(), 'value="{}" id="id_through_1" checked'.format(players["Cy"].pk))
    assert Stage.objects.get(pk=final.pk).through is None
    done = org.post(f"{URL}2/cut/", {"through": [str(players["Bo"].pk), str(players["Fay"].pk)]}, follow=True)
    assert Stage.objects.get(pk=final.pk).through == [players[n].pk for n in ("Ann", "Eve", "Bo", "Fay")]
    page = text(done)
    assert "The cut into Final is confirmed." in page
    assert "Confirmed: 4 go on." in page
    assert "=3 Bo chosen at the line 20.0 +10.00 =3 Fay chosen at the line 20.0 +10.00" in page
    assert "Tied at the line, not chosen Rank Player Points Carried =3 Cy 20.0 +10.00" in page
    assert "Add Final's first round and seat it" in page
    assert event.stages.get(number=2).cut_by == organiser


def test_after_the_cut_the_finals_first_round_is_added_and_seated_by_rank(org: Client, organiser: User):
    event, players, _final = with_final(organiser)
    org.post(f"{URL}2/cut/", {"through": [str(players["Bo"].pk), str(players["Fay"].pk)]})
    added = org.post(f"/events/{event.slug}/manage/rounds/", {"stage": "2"})
    assert added["Location"] == f"/events/{event.slug}/manage/rounds/3/"
    assert event.rounds.get(number=3).stage == 2
    page = org.get(added["Location"])
    assert page.context["form"]["method"].value() == "rank"  # the stage's seating, offered first
    assert "Round 3 Final · Spring Cup" in text(page)
    assert "Seat round 3" in text(org.get(f"{URL}2/cut/"))  # the next step, from the cut's page
    org.post(added["Location"], {"method": "rank", "action": "seat"})
    game = Game.objects.get(table__round__number=3)
    # By the final's standings (what was carried): Ann and Eve (+27.50, by entry), Bo and Fay (+10.00).
    assert [s.player.name for s in game.seats.order_by("position")] == ["Ann", "Eve", "Bo", "Fay"]


def test_the_cut_is_undone_before_the_final_begins_and_not_after(org: Client, organiser: User):
    event, players, final = with_final(organiser)
    org.post(f"{URL}2/cut/", {"through": [str(players["Bo"].pk), str(players["Fay"].pk)]})
    org.post(f"/events/{event.slug}/manage/rounds/", {"stage": "2"})
    org.post(f"/events/{event.slug}/manage/rounds/3/", {"method": "rank", "action": "seat"})
    undone = org.post(f"{URL}2/cut/undo/", follow=True)
    assert "The cut into Final is undone" in text(undone)
    assert Stage.objects.get(pk=final.pk).through is None
    assert not Game.objects.filter(table__round__number=3).exists()  # its seated tables went with it
    org.post(f"{URL}2/cut/", {"through": [str(players["Bo"].pk), str(players["Cy"].pk)]})
    org.post(f"/events/{event.slug}/manage/rounds/3/", {"method": "rank", "action": "seat"})
    game = Game.objects.get(table__round__number=3)
    game_put_sheet(
        game_id=game.pk,
        hands=[],
        user=None,
        version=None,
        ended_by_time=True,
        start={"scores": [38000, 33000, 28000, 21000]},
    )
    refused = org.post(f"{URL}2/cut/undo/", follow=True)
    assert "stage 2 has begun (a hand or a game is recorded): its cut stays" in text(refused)
    assert Stage.objects.get(pk=final.pk).through == [players[n].pk for n in ("Ann", "Eve", "Bo", "Cy")]


def test_the_cut_waits_for_the_last_game_of_the_stage_before(org: Client, organiser: User):
    event, players, final = with_final(organiser)
    round_seat(event=event, number=round_add(event=event, stage=1).number, method=Method.RANDOM)  # not played yet
    page = text(org.get(f"{URL}2/cut/"))
    assert (
        "Qualifying still has 3 games not finished: the ranks below may change, and the cut is confirmed "
        "after its last game."
    ) in page
    refused = org.post(f"{URL}2/cut/", {"through": [str(players["Bo"].pk), str(players["Fay"].pk)]})
    assert "stage 1 has 3 games not finished: the cut waits for its last game" in text(refused)
    assert Stage.objects.get(pk=final.pk).through is None


def test_a_cut_into_a_stage_whose_stage_before_is_not_entered_is_refused(org: Client, organiser: User):
    with_final(organiser)
    org.post(URL, {**STAGE, "name": "Super final", "entry_top": "2"})
    page = text(org.get(f"{URL}3/cut/"))
    assert "stage 2 is not entered yet: confirm its cut first" in page
    assert org.get(f"{URL}1/cut/").status_code == 200  # the first stage has no cut: said so, not a 500
    assert org.get(f"{URL}9/cut/").status_code == 404


def test_the_console_home_adds_a_round_to_a_chosen_stage(org: Client, organiser: User):
    event, _, _final = with_final(organiser)
    page = org.get(f"/events/{event.slug}/manage/")
    assert page.context["stages"][1].name == "Final"
    assert page.context["round_stage"] == 1  # the final is not entered: a new round is the qualifying's
    assert "Qualifying → Final" in text(page)
    refused = org.post(f"/events/{event.slug}/manage/rounds/", {"stage": "7"}, follow=True)
    assert "this event has no stage 7" in text(refused)
    assert event.rounds.count() == 2


@pytest.mark.parametrize("path", ["", "1/", "2/", "2/cut/"])
def test_only_the_events_organisers_run_its_stages(organiser: User, path: str):
    event, _, _ = with_final(organiser)
    assert Client().get(URL + path)["Location"].startswith("/accounts/login/")
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger"))
    assert stranger.get(URL + path).status_code == 403
    assert stranger.post(URL + path, STAGE).status_code == 403
    Event.objects.filter(pk=event.pk).update(public=False)
    assert stranger.get(URL + path).status_code == 404  # a private event is not there for a stranger
    for action in ("2/delete/", "2/cut/undo/"):
        assert stranger.post(URL + action).status_code == 404
    assert Stage.objects.filter(event=event).count() == 2


def test_a_wildcard_goes_on_whatever_the_rank_and_carries_its_share(org: Client, organiser: User):
    _event, players, final = with_final(organiser)
    org.post(f"{URL}2/", {**STAGE, "entry_also": [str(players["Jun"].pk)]})
    assert Stage.objects.get(pk=final.pk).entry_also == [players["Jun"].pk]
    page = text(org.get(f"{URL}2/cut/"))
    # Jun is 7th with -1.0: half of it comes along.
    assert "=1 Ann 55.0 +27.50 =1 Eve 55.0 +27.50 7 Jun wildcard -1.0 -0.50" in page
    assert "the top 4 and 1 wildcard" in text(org.get(URL))


def test_an_mcr_stage_may_carry_table_points(org: Client, organiser: User):
    event = EventFactory.create(slug="mcr-cup", ruleset_key="mcr", organisers=[organiser])
    registered(event, "Ann", "Bo", "Cy", "Dee")
    form = org.get("/events/mcr-cup/manage/stages/").context["form"]
    assert "carry_table_points" in form.fields
    org.post("/events/mcr-cup/manage/stages/", {**STAGE, "entry_top": "", "carry_table_points": "on"})
    stage = Stage.objects.get(event=event, number=2)
    assert (stage.carry, stage.carry_table_points) == ("half", True)
    assert "half the table points carried in" in text(org.get("/events/mcr-cup/manage/stages/"))
    qualified(organiser)  # a riichi event's form has no such field
    assert "carry_table_points" not in org.get(URL).context["form"].fields
