"""A club night's game recorded by its end scores: the sum checked against the rules, seats as typed, uma, oka and
the sticks left applied as for any game; later expandable into hands."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.models import HandChange
from scoring.services import chain
from scoring.services.confirmations import player_code
from scoring.services.hands import game_put_sheet
from scoring.sheet.record import HandRecord
from tests.factories import EventFactory
from tournament.models import Event, Game, Player, Registration

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


@pytest.fixture
def league(referee: User) -> Event:
    event = EventFactory.create(slug="thursdays", kind=Event.Kind.LEAGUE, ruleset_key="wrc-2025", referees=[referee])
    for name in ("Ann", "Bo", "Cy", "Di", "Eve"):
        Registration.objects.create(event=event, player=Player.objects.create(name=name))
    return event


def ids(*names: str) -> list[int]:
    return [Player.objects.get(name=n).pk for n in names]


def post(client: Client, players: list[int], scores: list[int], sticks: int) -> Any:
    data: dict[str, Any] = {"deposits_left": sticks, "played_on": "2026-11-19"}
    for n, (pid, score) in enumerate(zip(players, scores, strict=True), start=1):
        data[f"player_{n}"], data[f"score_{n}"] = pid, score
    return client.post("/events/thursdays/games/new/", data)


@pytest.mark.parametrize(
    ("scores", "sticks", "points"),
    [
        # wrc-2025: (score - 30000) / 1000 + uma 15/5/-5/-15, no oka; the stick left goes to first place (+1000).
        ([45200, 31000, 24800, 18000], 1, [31.2, 6.0, -10.2, -27.0]),
        (
            [30000, 30000, 30000, 30000],
            0,
            [0.0, 0.0, 0.0, 0.0],
        ),  # all four tied share all the uma: 0 (docs/rules.md ties)
        ([35000, 35000, 25000, 25000], 0, [15.0, 15.0, -15.0, -15.0]),  # two pairs: 5 + (15 + 5) / 2, -5 + (-20) / 2
        ([52000, 38000, 19000, 9000], 2, [39.0, 13.0, -16.0, -36.0]),
    ],
)
def test_a_game_by_its_end_scores_is_scored_like_any_game(
    referee: User, league: Event, scores: list[int], sticks: int, points: list[float]
):
    client = Client()
    client.force_login(referee)
    response = post(client, ids("Bo", "Ann", "Di", "Cy"), scores, sticks)
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/"
    assert [s.player.name for s in game.seats.order_by("position")] == ["Bo", "Ann", "Di", "Cy"]  # as typed
    assert game.status == Game.Status.FINISHED
    assert game.played_on.isoformat() == "2026-11-19"
    assert game.table is None
    by_seat = {row["player"]: row["points"] for row in game.result["final"]}
    assert [by_seat[n] for n in range(4)] == points


def test_scores_that_do_not_add_up_are_refused_by_name(referee: User, league: Event):
    client = Client()
    client.force_login(referee)
    response = post(client, ids("Ann", "Bo", "Cy", "Di"), [45200, 31000, 24800, 18500], 1)
    assert "the scores add up to 119500; with 30000 each and 1 riichi stick left they must add up to 119000" in text(
        response
    )
    response = post(client, ids("Ann", "Ann", "Cy", "Di"), [30000] * 4, 0)
    assert "this player is already at the table" in text(response)
    assert Game.objects.count() == 0


def test_only_the_events_scorers_record_games(league: Event):
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger"))
    assert post(stranger, ids("Ann", "Bo", "Cy", "Di"), [30000] * 4, 0).status_code == 403
    assert Game.objects.count() == 0


def test_a_game_by_scores_can_be_expanded_into_its_hands(referee: User, league: Event):
    client = Client()
    client.force_login(referee)
    post(client, ids("Ann", "Bo", "Cy", "Di"), [38000, 30000, 22000, 30000], 0)
    game = Game.objects.get()
    ann, cy = ids("Ann", "Cy")
    # Ann deals first: 4 han 30 fu is a dealer mangan, 12000, with kiriage (wrc-2025).
    hands: list[HandRecord] = [{"result": "ron", "winner": ann, "loser": cy, "han": 4, "fu": 30}]
    game_put_sheet(game_id=game.pk, hands=hands, user=referee, version=None, start={}, ended_by_time=True)
    game.refresh_from_db()
    final = {row["player"]: row["score"] for row in game.result["final"]}
    assert final == {0: 42000, 1: 30000, 2: 18000, 3: 30000}
    assert game.start == {}


def test_an_mcr_game_by_its_scores_has_no_riichi_sticks(referee: User):
    event = EventFactory.create(slug="mcr-nights", kind=Event.Kind.LEAGUE, ruleset_key="mcr", referees=[referee])
    for name in ("Ann", "Bo", "Cy", "Di"):
        Registration.objects.create(event=event, player=Player.objects.create(name=name))
    client = Client()
    client.force_login(referee)
    assert "deposits_left" not in client.get("/events/mcr-nights/games/new/").content.decode()
    data: dict[str, Any] = {"played_on": "2026-11-19"}
    # MCR scores sum to 0 (start 0); table points 4/2/1/0 by rank.
    for n, (pid, score) in enumerate(zip(ids("Ann", "Bo", "Cy", "Di"), [60, 20, -30, -50], strict=True), start=1):
        data[f"player_{n}"], data[f"score_{n}"] = pid, score
    response = client.post("/events/mcr-nights/games/new/", data)
    assert response.status_code == 302
    table_points = {row["player"]: row["table_points"] for row in Game.objects.get().result["final"]}
    assert table_points == {0: 4, 1: 2, 2: 1, 3: 0}


def test_the_sum_is_refused_in_the_readers_language(referee: User, league: Event):
    client = Client()
    client.force_login(referee)
    client.cookies["django_language"] = "ko"
    response = post(client, ids("Ann", "Bo", "Cy", "Di"), [45200, 31000, 24800, 18500], 1)
    assert "점수 합계가 119500입니다: 각자 30000에 리치봉 1개가 남았다면 합계는 119000이어야 합니다" in text(response)


def test_the_game_page_shows_a_game_by_its_end_scores(referee: User, league: Event):
    client = Client()
    client.force_login(referee)
    post(client, ids("Bo", "Ann", "Di", "Cy"), [45200, 31000, 24800, 18000], 1)
    game = Game.objects.get()
    page = text(Client().get(f"/games/{game.pk}/"))
    assert "finished (recorded by end scores)" in page
    assert "(time)" not in page
    assert "No hands yet" not in page
    assert "This game was recorded by its end scores: no hands were entered." in page
    # Rank, player, score, uma, oka, penalty, points: first place has the stick left on the table (wrc-2025).
    assert "1 Bo Uma +15.0 46200 15.0 0.0 0.0 +31.2" in page
    assert "4 Cy Uma -15.0 18000 -15.0 0.0 0.0 -27.0" in page
    assert "1 riichi stick left on the table at the end · counted in first place's score" in page
    assert "confirmed 0/4" in page
    ko = text(Client().get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="ko"))
    assert "최종 점수로 기록됨" in ko
    assert "끝날 때 테이블에 남은 리치봉 1개" in ko


def test_a_game_by_its_end_scores_is_confirmed_and_corrected_like_any_game(referee: User, league: Event):
    client = Client()
    client.force_login(referee)
    post(client, ids("Ann", "Bo", "Cy", "Di"), [38000, 30000, 22000, 30000], 0)
    game = Game.objects.get()
    ann = Player.objects.get(name="Ann")
    confirmed = Client().post(
        f"/games/{game.pk}/confirm/", {"player": str(ann.pk), "code": player_code(league, ann)}, follow=True
    )
    assert "confirmed 1/4" in text(confirmed)
    assert "Correct the end scores" in text(client.get(f"/games/{game.pk}/"))
    form = client.get(f"/games/{game.pk}/scores/")
    assert form.context["form"]["score_1"].value() == 38000
    assert "최종 점수 정정" in text(client.get(f"/games/{game.pk}/scores/", HTTP_ACCEPT_LANGUAGE="ko"))
    refused = client.post(
        f"/games/{game.pk}/scores/",
        {"score_1": 38000, "score_2": 30000, "score_3": 22000, "score_4": 31000, "deposits_left": 0},
    )
    assert "the scores add up to 121000" in text(refused)
    corrected = client.post(
        f"/games/{game.pk}/scores/",
        {
            "score_1": 36000,
            "score_2": 30000,
            "score_3": 24000,
            "score_4": 29000,
            "deposits_left": 1,
            "player_1": ids("Di")[0],
        },
        follow=True,
    )
    assert "The end scores are corrected; the players confirm the game again." in text(corrected)
    game.refresh_from_db()
    assert game.start == {"scores": [36000, 30000, 24000, 29000], "deposits": 1}
    assert [s.player.name for s in game.seats.order_by("position")] == ["Ann", "Bo", "Cy", "Di"]  # seats kept
    assert {row["player"]: row["score"] for row in game.result["final"]}[0] == 37000  # and the stick left
    assert not game.confirmations.exists()  # asked again
    assert HandChange.objects.filter(game=game, action=HandChange.Action.SHEET).count() == 2
    assert chain.verify_game(game).intact
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger"))
    assert stranger.post(f"/games/{game.pk}/scores/", {"score_1": 30000}).status_code == 403
