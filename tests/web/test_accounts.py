"""Accounts without the admin: sign-up through a referee's or an organiser's link, a password reset by e-mail that
ends a lockout, a player claiming their record with their code, and "my tables" first on /me/."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from scoring.models import CodeFailure, Confirmation
from scoring.services.confirmations import player_code
from scoring.services.games import round_seat
from scoring.services.hands import game_record_hand, game_update
from tests.factories import EventFactory, RoundFactory, played, registered
from tournament.models import Event, Player
from tournament.services.invites import invite_renew
from tournament.services.seating import Method

pytestmark = pytest.mark.django_db

PASSWORD = "tile-wall-dragon-42"
SIGN_UP = {"username": "hana", "email": "hana@example.org", "password1": PASSWORD, "password2": PASSWORD}


def text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


@pytest.fixture
def private_event(organiser: User) -> Event:
    """Spring Cup: private, running, eight players, rounds 1 and 2 not seated yet."""
    event = EventFactory.create(
        slug="spring", name="Spring Cup", public=False, status=Event.Status.RUNNING, organisers=[organiser]
    )
    registered(event, *[f"P{n}" for n in range(8)])
    RoundFactory.create(event=event, number=1)
    RoundFactory.create(event=event, number=2)
    return event


def seated(event: Event, number: int) -> None:
    round_seat(event=event, number=number, method=Method.RANDOM, seed=1)


def signed_in_as(client: Client) -> str | None:
    user_id = client.session.get("_auth_user_id")
    return User.objects.get(pk=user_id).username if user_id else None


def test_a_visitor_signs_up_through_the_referee_link_and_lands_on_the_current_rounds_tables(private_event: Event):
    seated(private_event, 1)
    seated(private_event, 2)
    link = f"/events/spring/referee/{invite_renew(event=private_event, role='referee').referee_invite}/"
    client = Client()
    page = client.get(link)
    assert page.status_code == 200
    assert "Create your account" in text(page)
    assert f'href="/accounts/login/?next={link}"' in page.content.decode()  # "I have an account: sign in"
    answer = client.post(link, SIGN_UP)
    assert answer.status_code == 302
    assert answer["Location"] == "/me/#tables"
    assert signed_in_as(client) == "hana"
    hana = User.objects.get(username="hana")
    assert hana.email == "hana@example.org"
    assert private_event.can_score(hana)
    assert not private_event.is_organiser(hana)
    mine = client.get("/me/").content.decode()
    tables = mine.split('id="tables"')[1].split("</section>")[0]
    games = list(private_event.games.filter(table__round__number=2).order_by("table__number"))
    assert re.findall(r'href="/games/(\d+)/entry/"', tables) == [str(g.pk) for g in games]  # round 2's, in order
    assert "not started" in tables
    assert "round 2" in tables
    assert mine.index('id="tables"') < mine.index("Events I referee")


def test_an_organiser_link_makes_a_co_organiser_who_lands_on_the_console(private_event: Event, organiser: User):
    org = Client()
    org.force_login(organiser)
    assert org.post("/events/spring/manage/organisers/").status_code == 302
    private_event.refresh_from_db()
    link = f"/events/spring/organise/{private_event.organiser_invite}/"
    assert link in org.get("/events/spring/manage/").content.decode()
    client = Client()
    answer = client.post(link, {**SIGN_UP, "username": "jun"})
    assert answer["Location"] == "/events/spring/manage/"
    jun = User.objects.get(username="jun")
    assert private_event.is_organiser(jun)
    assert client.get("/events/spring/manage/").status_code == 200
    # A signed-in user accepts it in one tap.
    mina = User.objects.create_user("mina")
    client.force_login(mina)
    assert "Become an organiser" in text(client.get(link))
    assert client.post(link)["Location"] == "/events/spring/manage/"
    assert private_event.is_organiser(mina)
    # Revoked: the link stops working, nothing is created.
    org.post("/events/spring/manage/organisers/", {"revoke": "1"})
    refused = Client().post(link, {**SIGN_UP, "username": "late"})
    assert refused.status_code == 404
    assert "organiser link is not valid any more" in text(refused)
    assert "Spring Cup" not in text(refused)  # a private event's name is not told
    assert not User.objects.filter(username="late").exists()


@pytest.mark.parametrize("invite", ["made-up", "ㅁ", ""])
def test_a_bad_link_creates_nothing_and_says_why(private_event: Event, invite: str):
    invite_renew(event=private_event, role="referee")
    link = f"/events/spring/referee/{invite}/" if invite else "/events/spring/referee/x/"
    for response in (Client().get(link), Client().post(link, SIGN_UP)):
        assert response.status_code == 404
        assert "referee link is not valid any more" in text(response)
        assert "Create your account" not in text(response)
    assert not User.objects.filter(username="hana").exists()


@pytest.mark.parametrize(
    ("change", "field", "why"),
    [
        ({"password2": "something-else-99"}, "password2", "didn’t match"),
        ({"password1": "12345678", "password2": "12345678"}, "password2", "too common"),
        ({"password1": "hana", "password2": "hana"}, "password2", "too short"),
        ({"username": "ORG"}, "username", "already exists"),
        ({"email": "not-an-address"}, "email", "valid email"),
        ({"username": ""}, "username", "required"),
    ],
)
def test_sign_up_errors_name_the_field_and_create_nothing(
    private_event: Event, organiser: User, change: dict[str, str], field: str, why: str
):
    link = f"/events/spring/referee/{invite_renew(event=private_event, role='referee').referee_invite}/"
    answer = Client().post(link, {**SIGN_UP, **change})
    assert answer.status_code == 400
    errors = answer.content.decode().split(f'id="id_{field}"')[1].split("</div>")[0]
    assert why in html.unescape(errors)
    assert User.objects.count() == 1  # the organiser only
    assert not private_event.referees.exists()


def test_there_is_no_sign_up_without_an_invitation():
    assert Client().get("/accounts/signup/").status_code == 404
    assert Client().get("/me/").status_code == 302  # to sign in


def reset_link(body: str) -> str:
    match = re.search(r"http://testserver(/accounts/reset/[^/\s]+/[^/\s]+/)", body)
    assert match, body
    return match.group(1)


def test_a_password_reset_by_e_mail_end_to_end_unlocks_the_username(settings: Any):
    User.objects.create_user("hana", "hana@example.org", "old-password-77")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        Client().post("/accounts/login/", {"username": "hana", "password": "wrong"})
    locked = Client().post("/accounts/login/", {"username": "hana", "password": "old-password-77"})
    assert locked.status_code == 429
    assert 'href="/accounts/password_reset/"' in Client().get("/accounts/login/").content.decode()
    client = Client()
    assert (
        client.post("/accounts/password_reset/", {"email": "HANA@example.org"})["Location"]
        == "/accounts/password_reset/done/"
    )
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["hana@example.org"]
    assert "Hello hana," in mail.outbox[0].body
    form = client.get(reset_link(str(mail.outbox[0].body)), follow=True)
    assert "Choose a new password for hana" in text(form)
    new = {"new_password1": "fresh-password-88", "new_password2": "fresh-password-88"}
    done = client.post(form.redirect_chain[-1][0], new)
    assert done["Location"] == "/accounts/reset/done/"
    assert not AccessAttempt.objects.filter(username="hana").exists()
    signed = Client()
    assert signed.post("/accounts/login/", {"username": "hana", "password": "fresh-password-88"}).status_code == 302
    assert signed_in_as(signed) == "hana"
    # The link works once.
    assert "This link is not valid" in text(Client().get(reset_link(str(mail.outbox[0].body)), follow=True))


def test_a_reset_for_an_unknown_address_looks_the_same_and_sends_nothing():
    known = Client().post("/accounts/password_reset/", {"email": "nobody@example.org"})
    assert known.status_code == 302
    assert known["Location"] == "/accounts/password_reset/done/"
    assert mail.outbox == []
    bad = Client().post("/accounts/password_reset/", {"email": "nope"})
    assert bad.status_code == 200
    assert "valid email" in text(bad)


def test_a_password_reset_e_mail_is_in_the_readers_language():
    User.objects.create_user("hana", "hana@example.org", "old-password-77")
    client = Client(HTTP_ACCEPT_LANGUAGE="ko")
    client.post("/accounts/password_reset/", {"email": "hana@example.org"})
    assert "hana" in mail.outbox[0].body
    assert "Hello" not in mail.outbox[0].body
    assert "Someone asked" not in mail.outbox[0].body


@pytest.fixture
def public_event(organiser: User) -> Event:
    return EventFactory.create(
        slug="open", name="Open Cup", public=True, status=Event.Status.RUNNING, organisers=[organiser]
    )


def test_a_signed_in_user_claims_their_record_and_sees_games_codes_and_statistics(public_event: Event):
    kim, *others = registered(public_event, "Kim", "Lee", "Park", "Choi")
    game = played(public_event, [kim, *others])
    hana = User.objects.create_user("hana")
    client = Client()
    client.force_login(hana)
    answer = client.post("/me/claim/", {"code": player_code(public_event, kim).lower()})  # as typed
    assert answer["Location"] == "/me/#me"
    kim.refresh_from_db()
    assert kim.user == hana
    page = client.get("/me/").content.decode()
    assert f'href="/players/{kim.pk}/"' in page  # career and statistics
    assert f'href="/api/v1/players/{kim.pk}/stats/"' in page
    assert f'href="/events/open/players/{kim.pk}/"' in page  # the page with their code
    assert f'href="/games/{game.pk}/"' in page
    assert player_code(public_event, kim) in client.get(f"/events/open/players/{kim.pk}/").content.decode()


def test_a_visitor_creates_an_account_with_the_code(public_event: Event):
    (kim,) = registered(public_event, "Kim")
    client = Client()
    assert "Create your account" in text(client.get("/me/claim/"))
    answer = client.post(
        "/me/claim/",
        {"code": player_code(public_event, kim), "username": "kim", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert answer.status_code == 302
    assert signed_in_as(client) == "kim"
    kim.refresh_from_db()
    assert kim.user is not None
    assert kim.user.username == "kim"


def test_a_claim_is_refused_for_a_wrong_code_or_a_record_already_claimed(public_event: Event):
    kim, lee = registered(public_event, "Kim", "Lee")
    owner = User.objects.create_user("owner")
    Player.objects.filter(pk=kim.pk).update(user=owner)
    visitor = Client()
    taken = visitor.post(
        "/me/claim/",
        {"code": player_code(public_event, kim), "username": "thief", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert taken.status_code == 400
    assert "already claimed by another account" in text(taken)
    assert not User.objects.filter(username="thief").exists()
    wrong = visitor.post(
        "/me/claim/", {"code": "AAAAA-AAAAA", "username": "guess", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert wrong.status_code == 400
    assert "this is not a player's code" in text(wrong)
    assert not User.objects.filter(username="guess").exists()
    assert CodeFailure.objects.filter(scope="claim").count() == 1
    # One record per account: the owner cannot take Lee's too.
    client = Client()
    client.force_login(owner)
    second = client.post("/me/claim/", {"code": player_code(public_event, lee)})
    assert "already holds the record of Kim" in text(second)
    lee.refresh_from_db()
    assert lee.user is None


def test_wrong_claim_codes_are_limited_as_other_codes_are(public_event: Event, settings: Any):
    (kim,) = registered(public_event, "Kim")
    hana = User.objects.create_user("hana")
    client = Client()
    client.force_login(hana)
    statuses = [
        client.post("/me/claim/", {"code": "AAAAA-AAAAA"}).status_code for _ in range(settings.CODE_FAILURE_LIMIT + 1)
    ]
    assert statuses[:-1] == [400] * settings.CODE_FAILURE_LIMIT
    assert statuses[-1] == 429
    assert client.post("/me/claim/", {"code": player_code(public_event, kim)}).status_code == 302  # the right one


def test_a_claimed_player_of_a_private_event_sees_nothing_of_it(private_event: Event):
    kim = Player.objects.get(name="P0")
    game = played(private_event, list(Player.objects.filter(registrations__event=private_event))[:4])
    hana = User.objects.create_user("hana")
    client = Client()
    client.force_login(hana)
    assert client.post("/me/claim/", {"code": player_code(private_event, kim)}).status_code == 302
    page = client.get("/me/").content.decode()
    assert "Spring Cup" not in page
    assert f"/games/{game.pk}/" not in page
    assert f'href="/players/{kim.pk}/"' in page


def test_my_tables_show_each_tables_state(private_event: Event, referee: User):
    private_event.referees.add(referee)
    seated(private_event, 1)
    playing, finished = private_event.games.order_by("table__number")
    for game in (playing, finished):
        game_record_hand(game_id=game.pk, record={"result": "draw", "tenpai": []}, user=None, version=None)
    game_update(game_id=finished.pk, user=None, version=None, ended_by_time=True)
    client = Client()
    client.force_login(referee)
    tables = text(client.get("/me/")).split("My tables now")[1].split("Events I referee")[0]
    assert "Table 1 in play (hand 2)" in tables
    assert "Table 2 finished" in tables
    finished.refresh_from_db()
    for seat in finished.seats.all():
        Confirmation.objects.create(game=finished, player=seat.player, verdict="confirmed", version=finished.version)
    assert "Table 2 confirmed" in text(client.get("/me/")).split("My tables now")[1]
    # A finished event's tables are no longer "now"; the organisers' own are (they score too).
    private_event.status = Event.Status.FINISHED
    private_event.save()
    assert "My tables now" not in text(client.get("/me/"))
