"""The organiser's console: an event from a preset with its schedule, players pasted with a preview, settings and
rules as form controls, publishing, referee links; nothing of it needs the admin."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from scoring.services.games import game_create
from tests.factories import EventFactory, PlayerFactory
from tournament.models import Event, Player, Registration
from tournament.services.roster import roster_read

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


@pytest.fixture
def draft_event(organiser: User) -> Event:
    """Not yet published: private, a draft, run by ``organiser``."""
    return EventFactory.create(slug="spring", public=False, status=Event.Status.DRAFT, organisers=[organiser])


def test_a_new_event_gets_its_preset_and_its_rounds_on_one_form(org: Client, organiser: User):
    response = org.post(
        "/events/new/",
        {
            "name": "Seoul Open",
            "kind": "tournament",
            "ruleset_key": "ema-2016",
            "starts_on": "2026-12-05",
            "ends_on": "2026-12-06",
            "rounds": "4",
            "first_start": "2026-12-05T10:00",
            "time_limit_minutes": "90",
            "break_minutes": "15",
        },
    )
    event = Event.objects.get(name="Seoul Open")
    assert response.status_code == 302
    assert response["Location"] == f"/events/{event.slug}/manage/players/"
    assert event.ruleset_key == "ema-2016"
    assert event.ruleset_overrides == {}
    assert event.is_organiser(organiser)
    assert not event.public
    assert event.status == Event.Status.DRAFT
    # Each round starts when the one before ends plus the break: 10:00, 11:45, 13:30, 15:15.
    starts = [timezone.localtime(r.starts_at).strftime("%H:%M") for r in event.rounds.order_by("number")]
    assert starts == ["10:00", "11:45", "13:30", "15:15"]
    assert set(event.rounds.values_list("time_limit_minutes", flat=True)) == {90}


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("ends_on", "2026-12-01", "the last day comes before the first"),
        ("rounds", "51", "less than or equal to 50"),
        ("ruleset_key", "nope", "Select a valid choice"),
        ("name", "", "This field is required"),
    ],
)
def test_a_refused_new_event_names_the_field_and_creates_nothing(org: Client, field: str, value: str, why: str):
    data = {
        "name": "Open",
        "kind": "tournament",
        "ruleset_key": "wrc-2025",
        "starts_on": "2026-12-05",
        "rounds": "2",
        "break_minutes": "0",
        field: value,
    }
    response = org.post("/events/new/", data)
    assert response.status_code == 200
    page = response.content.decode()
    assert why in html.unescape(page)
    assert re.search(r'class="field invalid[^"]*">\s*<label for="id_' + field, page)
    assert Event.objects.count() == 0


def test_a_visitor_is_sent_to_sign_in_and_a_stranger_finds_nothing(draft_event: Event):
    assert Client().get("/events/new/")["Location"].startswith("/accounts/login/")
    assert Client().get("/events/spring/manage/")["Location"].startswith("/accounts/login/")
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger"))
    for path in ("/events/spring/manage/", "/events/spring/manage/players/", "/events/spring/manage/settings/"):
        assert stranger.get(path).status_code == 404  # a private event: not there for a stranger (issue 25)
    assert stranger.post("/events/spring/manage/publish/", {"public": "1"}).status_code == 404
    draft_event.refresh_from_db()
    assert not draft_event.public


LIST = """name,federation id,country,club,team,substitute
Ann Lee,04120001,Korea,Seoul MC,Dragons,
Bo Kim,,Korea,,Dragons,no
Cy Park,,,,,yes
"""


def test_a_pasted_list_is_previewed_then_registered_with_one_confirm(org: Client, draft_event: Event):
    known = PlayerFactory.create(name="Ann Lee (EMA)", federation_id="04120001")
    response = org.post("/events/spring/manage/players/", {"text": LIST, "action": "check"})
    assert response.status_code == 200
    assert "3 lines read" in text(response)
    assert "(known player: registered as Ann Lee (EMA))" in text(response)
    assert Registration.objects.count() == 0  # a preview saves nothing
    response = org.post("/events/spring/manage/players/", {"text": LIST, "action": "register"})
    assert response.status_code == 302
    registered = {r.player.name: r for r in draft_event.registrations.select_related("player", "team")}
    assert set(registered) == {"Ann Lee (EMA)", "Bo Kim", "Cy Park"}  # the known player keeps his record
    assert registered["Ann Lee (EMA)"].player == known
    assert registered["Bo Kim"].team is not None
    assert registered["Bo Kim"].team.name == "Dragons"
    assert registered["Cy Park"].substitute
    assert not registered["Bo Kim"].substitute


def test_a_list_with_bad_lines_names_each_and_registers_none(org: Client, draft_event: Event):
    PlayerFactory.create(name="Dee")
    Registration.objects.create(event=draft_event, player=Player.objects.get(name="Dee"))
    bad = "Ann\nAnn\n\nDee\nEve, 1, KR, club, team, maybe\n" + "x" * 101 + "\n"
    response = org.post("/events/spring/manage/players/", {"text": bad, "action": "register"})
    page = text(response)
    assert response.status_code == 200
    assert "Ann is in the list twice" in page
    assert "Dee is already registered" in page
    assert "substitute must be yes or no, not 'maybe'" in page
    assert "name is longer than 100 characters" in page
    assert "Register" not in re.sub(r"\d+ registered", "", page.split("Check the list")[1])
    assert draft_event.registrations.count() == 1


def test_an_uploaded_file_is_read_like_a_paste(org: Client, draft_event: Event):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("players.csv", "\ufeffName;Club\nHana;Busan\nJun;Busan\n".encode(), "text/csv")
    response = org.post("/events/spring/manage/players/", {"file": upload, "action": "check"})
    assert "2 lines read" in text(response)
    assert "Hana;Busan\nJun;Busan" in response.context["form"]["text"].value()  # kept for the confirm


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Ann", ("Ann", "", "", "", "", False)),
        ("Ann, 123, KR, Seoul, Red, yes", ("Ann", "123", "KR", "Seoul", "Red", True)),
        ("Ann\t123\tKR", ("Ann", "123", "KR", "", "", False)),
        ('"Lee, Ann";9', ("Lee, Ann", "9", "", "", "", False)),
    ],
)
def test_roster_lines_are_read_by_their_columns(draft_event: Event, line: str, expected: tuple[Any, ...]):
    (read,) = roster_read(event=draft_event, text=line, user=None)
    assert (read.name, read.federation_id, read.country, read.club, read.team, read.substitute) == expected
    assert read.problems == ()


def test_withdrawing_keeps_the_player_out_of_later_seating(org: Client, draft_event: Event):
    org.post("/events/spring/manage/players/", {"text": "A\nB\nC\nD\nE", "action": "register"})
    gone = Player.objects.get(name="E")
    assert org.post(f"/events/spring/manage/players/{gone.pk}/withdraw/").status_code == 302
    assert Registration.objects.get(player=gone).withdrawn
    from tournament.services.seating import Method, plan_round

    draft_event.rounds.create(number=1)
    seating = plan_round(event=draft_event, number=1, method=Method.RANDOM, seed=1)
    assert gone.pk not in {p for table in seating.tables for p in table.seats} | set(seating.byes)


def test_the_rules_are_form_controls_and_only_changes_are_kept(org: Client, draft_event: Event):
    page = org.get("/events/spring/manage/settings/")
    form = page.context["rules"]
    assert form["start_points"].value() == 30000  # wrc-2025
    assert [form[f"uma_{n}"].value() for n in range(1, 5)] == [15, 5, -5, -15]
    data = {name: "" if value is None else value for name, value in ((f"rule-{f.name}", f.value()) for f in form)}
    data = {k: v for k, v in data.items() if v is not False}
    data.update(
        {
            "name": draft_event.name,
            "kind": "tournament",
            "min_games": "0",
            "ranking": "total",
            "team_ranking": "none",
            "swiss_spread": "1",
            "allow_byes": "on",
            "count_unconfirmed": "on",
            "tiebreak_1": "first_places",
            "tiebreak_2": "score",
            "rule-uma_1": "20",
            "rule-uma_2": "10",
            "rule-uma_3": "-10",
            "rule-uma_4": "-20",
        }
    )
    response = org.post("/events/spring/manage/settings/", data)
    assert response.status_code == 302, text(response)[:2000]
    draft_event.refresh_from_db()
    assert draft_event.ruleset_overrides == {"uma": [20, 10, -10, -20]}
    assert draft_event.tiebreaks == ["first_places", "score"]
    assert draft_event.ruleset().as_dict()["uma"] == [20, 10, -10, -20]
    data.update({"rule-riichi_deposit": "-1", "tiebreak_3": "score"})
    response = org.post("/events/spring/manage/settings/", data)
    assert response.status_code == 200
    assert response.context["rules"].errors["riichi_deposit"]
    assert "a tiebreak is chosen twice" in text(response)
    draft_event.refresh_from_db()
    assert draft_event.tiebreaks == ["first_places", "score"]  # nothing saved


def test_the_event_page_leads_its_organisers_to_the_console(org: Client, draft_event: Event):
    draft_event.public = True
    draft_event.save()
    assert 'href="/events/spring/manage/"' in org.get("/events/spring/").content.decode()
    assert "/manage/" not in Client().get("/events/spring/").content.decode()


def test_publishing_makes_a_draft_public_and_running(org: Client, draft_event: Event):
    assert Client().get("/events/spring/").status_code == 404
    org.post("/events/spring/manage/publish/", {"public": "1"})
    draft_event.refresh_from_db()
    assert draft_event.public
    assert draft_event.status == Event.Status.RUNNING
    assert Client().get("/events/spring/").status_code == 200
    org.post("/events/spring/manage/publish/", {"public": "0"})
    draft_event.refresh_from_db()
    assert not draft_event.public


def test_a_referee_link_makes_a_signed_in_user_a_referee_until_revoked(org: Client, draft_event: Event):
    org.post("/events/spring/manage/referees/")
    draft_event.refresh_from_db()
    link = f"/events/spring/referee/{draft_event.referee_invite}/"
    assert link in org.get("/events/spring/manage/").content.decode()
    hana = User.objects.create_user("hana")
    client = Client()
    client.force_login(hana)
    assert client.get(link).status_code == 200
    assert client.post(link).status_code == 302
    assert draft_event.can_score(hana)
    org.post("/events/spring/manage/referees/", {"revoke": "1"})
    jun = User.objects.create_user("jun")
    client.force_login(jun)
    refused = client.post(link)
    # The event is private: to jun, who may not see it, the old link says it is not valid, and not whose it was.
    assert refused.status_code == 404
    assert "This referee link is not valid any more" in text(refused)
    assert draft_event.name not in text(refused)
    assert not draft_event.can_score(jun)


def test_an_organiser_removes_a_referee_who_stops_scoring_at_once(org: Client, draft_event: Event):
    hana, jun = User.objects.create_user("hana"), User.objects.create_user("jun")
    draft_event.referees.add(hana, jun)
    players = [PlayerFactory.create() for _ in range(4)]
    for player in players:
        Registration.objects.create(event=draft_event, player=player)
    game = game_create(event=draft_event, player_ids=[p.pk for p in players])
    referee = Client()
    referee.force_login(hana)
    draw = {"action": "save", "version": 1, "result": "draw", "tenpai": []}
    assert referee.post(f"/games/{game.pk}/entry/", draw).status_code == 302
    page = org.get("/events/spring/manage/")
    assert f"/events/spring/manage/referees/{hana.pk}/remove/" in page.content.decode()
    done = org.post(f"/events/spring/manage/referees/{hana.pk}/remove/", follow=True)
    assert "hana is no longer a referee of this event" in text(done)
    assert list(draft_event.referees.all()) == [jun]
    # The event is private: to hana, no longer its referee, its pages are as if it were not there.
    assert referee.post(f"/games/{game.pk}/entry/", {**draw, "version": 2}).status_code == 404
    assert game.hands.count() == 1
    assert referee.post(f"/events/spring/manage/referees/{jun.pk}/remove/").status_code == 404
    assert org.post(f"/events/spring/manage/referees/{hana.pk}/remove/").status_code == 404  # not one any more


def test_my_events_lists_what_i_run_and_referee(org: Client, draft_event: Event, organiser: User):
    other = EventFactory.create(name="Club night", referees=[organiser])
    page = text(org.get("/me/"))
    assert draft_event.name in page.split("Events I referee")[0]
    assert other.name in page.split("Events I referee")[1]


def test_signing_in_lands_on_my_events(organiser: User):
    organiser.set_password("long-enough-pass")
    organiser.save()
    response = Client().post("/accounts/login/", {"username": "org", "password": "long-enough-pass"})
    assert response["Location"] == "/me/"


def test_the_new_event_form_offers_every_preset(org: Client):
    from rules.presets import preset_keys

    page = org.get("/events/new/").content.decode()
    assert all(f'value="{key}"' in page for key in preset_keys())


def test_a_player_of_other_events_keeps_his_name_against_this_organiser(org: Client, draft_event: Event):
    elsewhere = EventFactory.create(slug="elsewhere")
    known = PlayerFactory.create(name="Known", federation_id="EMA-1", online_name="known1")
    Registration.objects.create(event=elsewhere, player=known)
    org.post("/events/spring/manage/players/", {"text": "Anything, EMA-1", "action": "register"})
    assert draft_event.registrations.get().player == known
    response = org.post(
        f"/events/spring/manage/players/{known.pk}/",
        {"name": "Hijacked", "federation_id": "X", "online_name": "mine", "team": "Red", "substitute": "on"},
    )
    assert response.status_code == 302
    known.refresh_from_db()
    assert (known.name, known.federation_id, known.online_name) == ("Known", "EMA-1", "known1")
    registration = draft_event.registrations.select_related("team").get()
    assert registration.substitute
    assert registration.team is not None
    assert registration.team.name == "Red"


def test_the_standings_follow_the_players_registered_from_the_console(
    org: Client, draft_event: Event, django_capture_on_commit_callbacks: Any
):
    from scoring.models import Standing
    from tests.factories import played

    org.post("/events/spring/manage/players/", {"text": "Ann\nBo\nCy\nDi", "action": "register"})
    with django_capture_on_commit_callbacks(execute=True):
        seats = [r.player for r in draft_event.registrations.select_related("player").order_by("player__name")]
        played(draft_event, seats, [{"result": "draw", "tenpai": []}], end=True)
    ann = Player.objects.get(name="Ann")
    assert Standing.objects.filter(event=draft_event, player=ann).exists()
    with django_capture_on_commit_callbacks(execute=True):  # a late registration is listed at once, on 0
        org.post("/events/spring/manage/players/", {"text": "Eve", "action": "register"})
    eve = Standing.objects.get(event=draft_event, player__name="Eve")
    assert eve.points == 0
    assert eve.games == 0


def test_a_withdrawn_player_is_refused_a_seat_by_every_path(org: Client, draft_event: Event):
    from rules.errors import Refusal
    from tournament.services.games import game_seat

    org.post("/events/spring/manage/players/", {"text": "Ann\nBo\nCy\nDi", "action": "register"})
    gone = Player.objects.get(name="Di")
    org.post(f"/events/spring/manage/players/{gone.pk}/withdraw/")
    ids = list(draft_event.registrations.order_by("player__name").values_list("player_id", flat=True))
    with pytest.raises(Refusal, match="has withdrawn from this event"):
        game_seat(event=draft_event, player_ids=ids)


def test_the_consoles_refusals_are_in_the_readers_language(org: Client, draft_event: Event):
    org.cookies["django_language"] = "ko"
    page = text(
        org.post("/events/spring/manage/players/", {"text": "Ann\nAnn\nBo, 1, KR, c, t, maybe", "action": "check"})
    )
    assert "Ann 선수가 목록에 두 번 있습니다" in page
    assert "대체 선수 칸은 yes 또는 no여야 합니다('maybe' 아님)" in page
    draft_event.rounds.create(number=1)
    page = text(org.post("/events/spring/manage/rounds/1/", {"method": "named", "tables": "Nobody", "action": "seat"}))
    assert "1번째 줄: 'Nobody'은(는) 등록된 선수가 아닙니다" in page


def test_every_option_of_the_rules_has_words_for_the_organiser():
    from rules.parameters import PARAMETERS
    from web.rules_form import CHOICE_WORDS, FIXED

    options = {(name, value) for name, spec in PARAMETERS.items() if name not in FIXED for value in spec.choices}
    assert options - set(CHOICE_WORDS) == set()


def test_the_rules_form_speaks_korean(org: Client, draft_event: Event):
    org.cookies["django_language"] = "ko"
    form = org.get("/events/spring/manage/settings/").context["rules"]
    assert form["round_winds"].help_text != "1 = East only, 2 = East-South, 4 = full game"
    assert dict(form.fields["ties"].choices)["split"] != "split"
