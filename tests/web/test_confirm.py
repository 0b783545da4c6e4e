"""Players confirm their table: each with a personal code, on a page that needs no account; disputes come first
for the organisers, a correction asks again, and the event decides whether unconfirmed games count."""

from __future__ import annotations

import html
import re
from decimal import Decimal
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from scoring.models import Confirmation, HandChange, Standing
from scoring.services.chain import verify_game
from scoring.services.confirmations import player_code
from scoring.services.hands import game_change_hand
from scoring.services.standings import standings_recompute
from tests.factories import EventFactory, played, registered
from tournament.models import Event, Game, Player, Registration

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def confirm(game: Game, player: Player, code: str | None = None, **extra: str) -> Any:
    data = {
        "player": str(player.pk),
        "code": code if code is not None else player_code(game.event, player),
        "confirm": "",
        **extra,
    }
    return Client().post(f"/games/{game.pk}/confirm/", data, follow=True)


def test_codes_are_personal_and_stable(event: Event, players: list[Player]):
    codes = [player_code(event, p) for p in players]
    assert all(re.fullmatch(r"[A-Z2-7]{5}-[A-Z2-7]{5}", c) for c in codes)
    assert len(set(codes)) == 4
    assert player_code(event, players[0]) == codes[0]
    assert player_code(EventFactory.create(), players[0]) != codes[0]


def test_a_code_read_with_digits_for_letters_still_works(game: Game, players: list[Player]):
    code = player_code(game.event, players[0])
    misread = code.replace("O", "0").replace("I", "1").replace("B", "8").lower()
    assert "your confirmation is recorded" in text(confirm(game, players[0], code=misread))


def test_four_players_confirm_and_every_page_says_so(game: Game, players: list[Player]):
    assert "confirmed 0/4" in text(Client().get(f"/games/{game.pk}/"))
    for player in players:
        assert "your confirmation is recorded" in text(
            confirm(game, player, code=player_code(game.event, player).lower().replace("-", " "))
        )
    assert "confirmed 4/4" in text(Client().get(f"/games/{game.pk}/"))
    assert "confirmed 4/4" in text(Client().get("/events/spring/rounds/1/"))
    words = Confirmation.objects.filter(game=game)
    assert {w.version for w in words} == {game.version}
    assert HandChange.objects.filter(game=game, action="confirm").count() == 4
    assert verify_game(game).intact


def test_a_wrong_code_records_nothing_and_too_many_slow_the_guesser_only(game: Game, players: list[Player]):
    bo = players[1]
    page = text(confirm(game, bo, code="AAAA-AAAA"))
    assert "this is not the player's code" in page
    assert not Confirmation.objects.exists()
    for _ in range(settings.CODE_FAILURE_LIMIT - 1):
        confirm(game, bo, code="AAAA-AAAA")
    refused = Client().post(f"/games/{game.pk}/confirm/", {"player": str(bo.pk), "code": "AAAA-AAAA"})
    assert refused.status_code == 429
    assert "too many wrong codes for this player" in html.unescape(refused.content.decode())
    assert not Confirmation.objects.exists()
    assert "your confirmation is recorded" in text(confirm(game, bo))  # the right code still works
    assert "your confirmation is recorded" in text(confirm(game, players[0]))


def test_a_dispute_needs_a_reason_and_organisers_see_it_first(game: Game, players: list[Player], organiser: User):
    bo = players[1]
    data = {"player": str(bo.pk), "code": player_code(game.event, bo), "dispute": "", "reason": " "}
    assert "say in a few words what is wrong" in text(Client().post(f"/games/{game.pk}/confirm/", data))
    data["reason"] = "Cy's ron was 2 han"
    assert "your dispute is recorded" in text(Client().post(f"/games/{game.pk}/confirm/", data, follow=True))
    assert "disputed by Bo" in text(Client().get(f"/games/{game.pk}/"))
    signed_in = Client()
    signed_in.force_login(organiser)
    page = text(signed_in.get("/events/spring/"))
    assert "Disputed results" in page
    assert "Round 1, table 1 : Bo — Cy's ron was 2 han" in page
    assert "Disputed results" not in text(Client().get("/events/spring/"))


def test_a_correction_asks_the_players_again(game: Game, players: list[Player]):
    for player in players:
        confirm(game, player)
    a, _, c, _ = (p.pk for p in players)
    game_change_hand(
        game_id=game.pk,
        index=0,
        record={"result": "ron", "winner": a, "loser": c, "han": 4, "fu": 40},
        user=None,
        version=None,
    )
    assert not Confirmation.objects.filter(game=game).exists()
    assert "confirmed 0/4" in text(Client().get(f"/games/{game.pk}/"))


def test_an_event_may_count_confirmed_games_only(
    game: Game, players: list[Player], event: Event, django_capture_on_commit_callbacks: Any
):
    standings_recompute(event)
    assert "1 finished game is counted before all its players confirmed it" in text(
        Client().get("/events/spring/standings/")
    )
    event.count_unconfirmed = False
    event.save()
    standings_recompute(event)
    assert set(Standing.objects.values_list("games", flat=True)) == {0}
    with django_capture_on_commit_callbacks(execute=True):
        for player in players:
            confirm(game, player)
    assert dict(Standing.objects.values_list("player__name", "games")) == {"Ann": 1, "Bo": 1, "Cy": 1, "Di": 1}
    assert Standing.objects.get(player__name="Ann").points > Decimal(0)


def test_a_game_still_played_cannot_be_confirmed(event: Event, players: list[Player]):
    going_on = played(event, players)
    assert "The game is not finished" in text(Client().get(f"/games/{going_on.pk}/confirm/"))
    page = text(confirm(going_on, players[0]))
    assert "The game is not finished" in page
    assert not Confirmation.objects.exists()


def test_codes_go_to_the_player_alone_and_to_the_organisers(
    event: Event, players: list[Player], organiser: User, game: Game
):
    ann = players[0]
    ann.user = User.objects.create_user("ann")
    ann.save()
    own, other = Client(), Client()
    own.force_login(ann.user)
    other.force_login(User.objects.create_user("bo"))
    code = player_code(event, ann)
    assert code in text(own.get(f"/events/spring/players/{ann.pk}/"))
    assert code not in text(other.get(f"/events/spring/players/{ann.pk}/"))
    assert code not in text(Client().get("/events/spring/rounds/1/print/"))  # never on the shared table card
    assert other.get("/events/spring/codes/").status_code == 403
    boss = Client()
    boss.force_login(organiser)
    slips = text(boss.get("/events/spring/codes/"))
    assert all(player_code(event, p) in slips for p in players)


def test_the_page_speaks_korean(game: Game):
    page = text(Client().get(f"/games/{game.pk}/confirm/", HTTP_ACCEPT_LANGUAGE="ko"))
    assert "결과 확인" in page  # "Confirm the result"
    assert "동 · Ann" in page  # the seat winds in the reader's language, as on the entry page


def test_a_private_events_players_confirm_with_their_code_and_nobody_else_sees_it(event: Event, players: list[Player]):
    event.public = False
    event.save()
    a, _, c, _ = (p.pk for p in players)
    game = played(event, players, [{"result": "ron", "winner": a, "loser": c, "han": 3, "fu": 40}], end=True)
    others = registered(event, "Eve", "Fay", "Gus", "Hana")
    other = played(
        event, others, [{"result": "ron", "winner": others[0].pk, "loser": others[1].pk, "han": 1, "fu": 30}], end=True
    )
    stranger = Client()
    assert stranger.get(f"/games/{game.pk}/confirm/").status_code == 404
    for number, code in (
        (game.pk, "AAAAA-AAAAA"),
        (999, "AAAAA-AAAAA"),
        (other.pk, player_code(event, players[1])),
    ):  # a code of another game's player
        refused = stranger.post("/confirm/", {"game": number, "code": code})
        assert refused.status_code == 400
        assert "no game with this number has a player with this code" in html.unescape(refused.content.decode())
        assert event.name not in refused.content.decode()
    assert stranger.get(f"/games/{game.pk}/confirm/").status_code == 404
    bo = Client()
    opened = bo.post("/confirm/", {"game": game.pk, "code": player_code(event, players[1]).lower()})
    assert opened["Location"] == f"/games/{game.pk}/confirm/"
    page = bo.get(opened["Location"])
    assert page.status_code == 200
    assert f"/events/{event.slug}/" not in page.content.decode()  # nothing beyond the confirmation
    assert page.context["form"].initial["player"] == players[1].pk
    done = bo.post(
        opened["Location"],
        {"player": players[1].pk, "code": player_code(event, players[1]), "confirm": ""},
        follow=True,
    )
    assert "your confirmation is recorded" in text(done)
    assert Confirmation.objects.get().player == players[1]
    assert bo.get(f"/games/{other.pk}/confirm/").status_code == 404
    slips = Client()
    slips.force_login(event.organisers.get())
    assert "http://testserver/confirm/" in slips.get(f"/events/{event.slug}/codes/").content.decode()


def test_an_organiser_reissues_one_players_code_and_the_others_stay(game: Game, players: list[Player], organiser: User):
    event = game.event
    old = [player_code(event, p) for p in players]
    confirm(game, players[1], code="AAAAA-AAAAA")
    org = Client()
    org.force_login(organiser)
    done = text(org.post(f"/events/{event.slug}/manage/players/{players[1].pk}/code/", follow=True))
    new = player_code(event, players[1])
    assert new != old[1]
    assert f"Bo's new code: {new}. The old one no longer works." in done
    assert "code reissued" in done
    assert "by org" in done
    assert "1 wrong code in the last hour" in done
    assert [player_code(event, p) for p in players] == [old[0], new, old[2], old[3]]
    assert "this is not the player's code" in text(confirm(game, players[1], code=old[1]))
    assert "your confirmation is recorded" in text(confirm(game, players[1], code=new))
    slips = org.get(f"/events/{event.slug}/codes/").content.decode()
    assert new in slips
    assert old[1] not in slips
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger"))
    assert stranger.post(f"/events/{event.slug}/manage/players/{players[1].pk}/code/").status_code == 403
    assert player_code(event, players[1]) == new


def test_codes_printed_before_versions_work_until_reissued(game: Game, players: list[Player], organiser: User):
    Registration.objects.filter(event=game.event).update(code_version=0)
    first = player_code(game.event, players[0])
    assert re.fullmatch(r"[A-Z2-7]{4}-[A-Z2-7]{4}", first)
    assert "your confirmation is recorded" in text(confirm(game, players[0], code=first))
    org = Client()
    org.force_login(organiser)
    org.post(f"/events/{game.event.slug}/manage/players/{players[0].pk}/code/")
    assert re.fullmatch(r"[A-Z2-7]{5}-[A-Z2-7]{5}", player_code(game.event, players[0]))
    assert "this is not the player's code" in text(confirm(game, players[0], code=first))
