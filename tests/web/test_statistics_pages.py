"""Issue 21: the career page (/players/{id}/) and an event's leaderboards (page and CSV).

Ann plays a public event (two finished games, one with a yakuman) and a private one; what each reader sees is
read off the pages' text.
"""

from __future__ import annotations

import csv
import html
import io
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import EventFactory, played, registered
from tournament.models import Player, Registration

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def as_user(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def ann(organiser: User) -> Player:
    spring = EventFactory.create(name="Spring Open", slug="spring", organisers=[organiser])
    ann, bo, cy, di = registered(spring, "Ann", "Bo", "Cy", "Di")
    played(
        spring,
        [ann, bo, cy, di],
        [
            {"result": "ron", "winner": ann.pk, "loser": bo.pk, "han": 3, "fu": 30},
            {"result": "draw", "tenpai": [ann.pk]},
        ],
        end=True,
    )
    played(spring, [bo, ann, cy, di], [{"result": "tsumo", "winner": ann.pk, "yakuman": 1}], end=True)
    closed = EventFactory.create(name="Closed Cup", slug="closed", public=False, organisers=[organiser])
    for player in (ann, bo, cy, di):
        Registration.objects.create(event=closed, player=player)
    played(
        closed, [ann, bo, cy, di], [{"result": "ron", "winner": bo.pk, "loser": ann.pk, "han": 1, "fu": 30}], end=True
    )
    return ann


def test_the_career_shows_every_event_and_game_the_reader_may_see(ann: Player, organiser: User):
    public = text(as_user(None).get(f"/players/{ann.pk}/"))
    assert "Spring Open" in public
    assert "Closed Cup" not in public
    # 3 hands, 2 wins (one a tsumo), no deal-in; the yakuman is linked to its hand.
    assert "66.7% · 2 of 3 hands" in public
    assert "0.0% · 0 of 3 hands" in public
    assert "50.0% · 1 of 2 wins" in public
    response = as_user(None).get(f"/players/{ann.pk}/")
    assert re.search(r'href="/games/\d+/#hand-1">game \d+, hand 1</a>', response.content.decode())
    own = text(as_user(organiser).get(f"/players/{ann.pk}/"))
    assert "Closed Cup" in own
    assert "50.0% · 2 of 4 hands" in own


def test_a_filter_narrows_the_games_and_a_wrong_one_is_named(ann: Player):
    response = as_user(None).get(f"/players/{ann.pk}/?event=spring&platform=online")
    assert "No finished game among the games chosen." in text(response)
    wrong = as_user(None).get(f"/players/{ann.pk}/?event=closed&from=2025-02-30")
    assert wrong.status_code == 400
    assert "event: no event with this address" in text(wrong)
    assert "from: must be a date written YYYY-MM-DD" in text(wrong)


def test_a_player_of_a_private_event_only_is_not_found(organiser: User):
    hidden = EventFactory.create(slug="hidden", public=False, organisers=[organiser])
    [loner] = registered(hidden, "Loner")
    assert as_user(None).get(f"/players/{loner.pk}/").status_code == 404
    assert as_user(User.objects.create_user("stranger")).get(f"/players/{loner.pk}/").status_code == 404
    assert as_user(organiser).get(f"/players/{loner.pk}/").status_code == 200


def test_the_event_player_page_links_the_career(ann: Player):
    page = as_user(None).get(f"/events/spring/players/{ann.pk}/").content.decode()
    assert f'href="/players/{ann.pk}/?event=spring"' in page
    assert f'href="/players/{ann.pk}/"' in page


def test_the_career_costs_the_same_queries_for_a_few_games_or_many(django_assert_max_num_queries: Any):
    event = EventFactory.create(slug="many")
    players = registered(event, "Ann", "Bo", "Cy", "Di")
    hand = {"result": "tsumo", "winner": players[0].pk, "han": 1, "fu": 30}
    played(event, players, [hand], end=True)
    with django_assert_max_num_queries(20) as few:
        assert as_user(None).get(f"/players/{players[0].pk}/").status_code == 200
    for _ in range(8):
        played(event, players, [hand], end=True)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert as_user(None).get(f"/players/{players[0].pk}/").status_code == 200


def test_the_leaderboards_page_and_its_csv(ann: Player):
    page = text(as_user(None).get("/events/spring/leaderboards/"))
    # Each played 2 games, 3 hands: a rate needs half of 3, rounded up.
    assert "A rate ranks a player with at least 2 hands (half of the 3 hands the median player played" in page
    assert re.search(r"Most wins # Player Wins Hands 1 Ann 2 3 2 Bo 0 3", page)
    keys = as_user(None).get("/events/spring/leaderboards.csv?header=keys").content.decode()
    rows = list(csv.DictReader(io.StringIO(keys)))
    assert [r["player"] for r in rows] == ["Ann", "Bo", "Cy", "Di"]
    assert (rows[0]["wins"], rows[0]["hands"], rows[0]["win_rate"], rows[0]["yakuman"], rows[0]["tenpai"]) == (
        "2",
        "3",
        "0.6667",
        "1",
        "1",
    )
    assert rows[1]["deal_ins"] == "1"
    assert as_user(None).get("/events/closed/leaderboards/").status_code == 404
    assert as_user(None).get("/events/closed/leaderboards.csv").status_code == 404
    refused = as_user(None).get("/events/spring/leaderboards/?min_hands=x")
    assert refused.status_code == 400
    assert "min_hands: must be a whole number from 0 to 1000000" in text(refused)


def test_the_pages_speak_korean(ann: Player):
    korean = {"Accept-Language": "ko"}
    assert "최다 화료" in text(as_user(None).get("/events/spring/leaderboards/", headers=korean))
    career = text(as_user(None).get(f"/players/{ann.pk}/", headers=korean))
    assert "화료율" in career
    assert "3국 중 2" in career
