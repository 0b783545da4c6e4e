"""Issue 21: ``GET /api/v1/players/{id}/stats/`` and ``GET /api/v1/events/{slug}/leaderboards/``.

One player, Ann, plays a riichi event at the table (two games), an MCR event (one game), a Tenhou game imported
into an online event, and a game of a private event. What each reader sees, and what each filter keeps, is
counted from those games by hand below.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from django.contrib.auth.models import User

from scoring.services.online import Outcome, log_import
from tests.conftest import client_for
from tests.factories import EventFactory, played, registered
from tournament.models import Event, Player, Registration

pytestmark = pytest.mark.django_db
API = "/api/v1/"
LOG = Path(__file__).parents[1] / "fixtures" / "online" / "tenhou" / "mjx-2010081709gm-00a9-0000-fe3371ad.xml"
LOG_NAMES = [unquote(n) for n in re.findall(r'n\d="([^"]*)"', LOG.read_text(encoding="utf-8").split("<UN ", 1)[1])[:4]]


@pytest.fixture
def ann(organiser: User) -> Player:
    """Ann's games: 2 riichi at the table (April), 1 MCR (May), 1 on Tenhou (2010), 1 in a private event."""
    riichi = EventFactory.create(slug="spring", organisers=[organiser])
    ann, bo, cy, di = registered(riichi, "Ann", "Bo", "Cy", "Di")
    played(
        riichi,
        [ann, bo, cy, di],
        [
            {"result": "ron", "winner": ann.pk, "loser": bo.pk, "han": 3, "fu": 30, "riichi": [ann.pk]},
            {"result": "draw", "tenpai": [ann.pk, cy.pk]},
            {"result": "tsumo", "winner": cy.pk, "han": 1, "fu": 30},
        ],
        end=True,
        played_on=date(2025, 4, 5),
    )
    played(
        riichi,
        [bo, ann, di, cy],
        [
            {"result": "ron", "winner": di.pk, "loser": ann.pk, "han": 2, "fu": 30},
            {"result": "tsumo", "winner": ann.pk, "yakuman": 1},
        ],
        end=True,
        played_on=date(2025, 4, 20),
    )
    mcr = EventFactory.create(slug="mcr-open", ruleset_key="mcr", organisers=[organiser])
    for player in (ann, bo, cy, di):
        Registration.objects.create(event=mcr, player=player)
    played(
        mcr,
        [ann, bo, cy, di],
        [{"result": "ron", "winner": ann.pk, "loser": di.pk, "fan": 12}, {"result": "draw", "false_wins": [ann.pk]}],
        end=True,
        played_on=date(2025, 5, 1),
    )
    online = EventFactory.create(slug="online", ruleset_key="tenhou", organisers=[organiser])
    Player.objects.filter(pk=ann.pk).update(online_name=LOG_NAMES[0])
    Registration.objects.create(event=online, player=ann)
    assert (
        log_import(event=online, source=LOG.name, data=LOG.read_bytes(), create_players=True, user=organiser).outcome
        == Outcome.IMPORTED
    )
    closed = EventFactory.create(slug="closed", public=False, organisers=[organiser])
    for player in (ann, bo, cy, di):
        Registration.objects.create(event=closed, player=player)
    played(closed, [ann, bo, cy, di], [{"result": "tsumo", "winner": ann.pk, "han": 1, "fu": 30}], end=True)
    return ann


def stats(user: User | None, player: Player, query: str = "") -> dict[str, Any]:
    response = client_for(user).get(f"{API}players/{player.pk}/stats/{query}")
    assert response.status_code == 200, response.content[:300]
    body: dict[str, Any] = response.json()
    return body


def test_a_stranger_counts_the_public_games_and_the_organiser_the_private_one_too(ann: Player, organiser: User):
    public = stats(None, ann)
    own = stats(organiser, ann)
    assert (public["games"], own["games"]) == (4, 5)
    assert (public["online_games"], public["mcr"]["games"], public["riichi_games"]) == (1, 1, 3)
    assert own["wins"] - public["wins"] == 1  # the private game's tsumo


def test_each_filter_keeps_what_it_names(ann: Player):
    table = stats(None, ann, "?event=spring")
    # 5 hands: Ann won 2 (a 3 han ron, a yakuman tsumo), dealt in once, declared riichi once and won with it,
    # and was tenpai at the one exhaustive draw.
    assert (table["games"], table["hands"], table["wins"], table["tsumo_wins"], table["deal_ins"]) == (2, 5, 2, 1, 1)
    assert (table["riichi"], table["riichi_wins"], table["draws"], table["tenpai"]) == (1, 1, 1, 1)
    assert (table["win_rate"], table["deal_in_rate"], table["riichi_rate"], table["tsumo_share"]) == (
        0.4,
        0.2,
        0.2,
        0.5,
    )
    # 3 han 30 fu as the first dealer: 5800. In game 2 Di's win on Bo's deal passes the deal to Ann: her
    # yakuman tsumo is a dealer's, 16000 from each.
    assert (table["win_points"], table["han"], table["han_wins"], table["yakuman"]) == (5800 + 48000, 3, 1, 1)
    assert table["average_win_points"] == 26900
    assert table["deal_in_points"] == 2000  # 2 han 30 fu to Di, a non-dealer
    assert [(y["event"], y["hand"]) for y in table["yakuman_hands"]] == [("spring", 2)]
    assert stats(None, ann, "?from=2025-04-10&to=2025-04-30")["games"] == 1
    assert stats(None, ann, "?platform=online")["games"] == 1
    assert stats(None, ann, "?platform=tenhou")["games"] == 1
    assert stats(None, ann, "?platform=table")["games"] == 3
    assert stats(None, ann, "?platform=mahjong_soul")["games"] == 0
    mcr = stats(None, ann, "?ruleset=mcr")
    assert (mcr["games"], mcr["wins"], mcr["mcr"]["fan"], mcr["mcr"]["false_wins"], mcr["riichi_games"]) == (
        1,
        1,
        12,
        1,
        0,
    )
    assert stats(None, ann, "?ruleset=riichi")["games"] == 3
    assert stats(None, ann, "?ruleset=tenhou")["games"] == 1
    assert stats(None, ann, "?ruleset=wrc-2025")["games"] == 2


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?event=closed", "event"),
        ("?event=nope", "event"),
        ("?event=%00", "event"),
        ("?from=2025-13-01", "from"),
        ("?to=20250101", "to"),
        ("?from=2025-05-01&to=2025-04-01", "to"),
        ("?platform=irl", "platform"),
        ("?ruleset=chess", "ruleset"),
    ],
)
def test_a_filter_that_is_not_one_is_refused_by_name(ann: Player, query: str, field: str):
    response = client_for(None).get(f"{API}players/{ann.pk}/stats/{query}")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == [field]


def test_a_private_events_name_is_refused_as_one_that_does_not_exist(ann: Player):
    closed, nope = (
        client_for(None).get(f"{API}players/{ann.pk}/stats/?event={slug}").json() for slug in ("closed", "nope")
    )
    assert closed == nope


def test_a_player_of_private_events_only_is_not_found(organiser: User):
    closed = EventFactory.create(slug="hidden", public=False, organisers=[organiser])
    [hidden] = registered(closed, "Hidden")
    assert client_for(None).get(f"{API}players/{hidden.pk}/stats/").status_code == 404
    assert client_for(User.objects.create_user("x")).get(f"{API}players/{hidden.pk}/stats/").status_code == 404
    assert client_for(organiser).get(f"{API}players/{hidden.pk}/stats/").status_code == 200
    assert client_for(None).get(f"{API}players/99999999/stats/").status_code == 404


def test_the_statistics_cost_the_same_queries_for_one_game_or_many(django_assert_max_num_queries: Any):
    event = EventFactory.create(slug="many")
    players = registered(event, "Ann", "Bo", "Cy", "Di")
    hand = {"result": "tsumo", "winner": players[0].pk, "han": 1, "fu": 30}
    played(event, players, [hand], end=True)
    with django_assert_max_num_queries(3) as few:
        stats(None, players[0])
    for _ in range(6):
        played(event, players, [hand], end=True)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert stats(None, players[0])["games"] == 7


def test_leaderboards_rank_counts_and_rates_past_the_minimum(organiser: User):
    """Six players: A, B, C, D play two games (8 hands each), E and F one (4 hands): the median player has 8
    hands, so a rate needs 4."""
    event = EventFactory.create(slug="boards", organisers=[organiser])
    a, b, c, d, e, f = registered(event, "A", "B", "C", "D", "E", "F")

    def ron(winner: Player, loser: Player) -> dict[str, Any]:
        return {"result": "ron", "winner": winner.pk, "loser": loser.pk, "han": 1, "fu": 30}

    played(event, [a, b, c, d], [ron(a, b), ron(a, c), ron(b, c), ron(d, c)], end=True)
    played(event, [a, b, c, d], [ron(a, d), ron(c, d), ron(c, b), ron(a, b)], end=True)
    played(event, [e, f, a, b], [ron(e, f), ron(e, a), ron(e, b), ron(f, b)], end=True)
    body = client_for(None).get(f"{API}events/boards/leaderboards/").json()
    assert (body["players"], body["median_hands"], body["min_hands"]) == (6, 8, 4)
    assert [(x["rank"], x["player"]["name"], x["wins"]) for x in body["most_wins"]] == [
        (1, "A", 4),
        (2, "E", 3),
        (3, "C", 2),
        (4, "B", 1),
        (4, "D", 1),
        (4, "F", 1),
    ]
    deal_ins = [(x["rank"], x["player"]["name"], x["deal_ins"], x["hands"]) for x in body["fewest_deal_ins"]]
    # D and F share third: 2 in 8 hands and 1 in 4 are the same rate.
    assert deal_ins == [
        (1, "E", 0, 4),
        (2, "A", 1, 12),
        (3, "D", 2, 8),
        (3, "F", 1, 4),
        (5, "C", 3, 8),
        (6, "B", 5, 12),
    ]
    assert len(body["best_average_place"]) == 6
    stricter = client_for(None).get(f"{API}events/boards/leaderboards/?min_hands=5&limit=3").json()
    assert [x["player"]["name"] for x in stricter["fewest_deal_ins"]] == ["A", "D", "C"]
    assert {x["player"]["name"] for x in stricter["best_average_place"]} <= {"A", "B", "C", "D"}
    assert [x["player"]["name"] for x in stricter["most_wins"]] == ["A", "E", "C"]  # a count ranks everyone
    Registration.objects.filter(event__slug="boards", player=e).update(substitute=True)
    without = client_for(None).get(f"{API}events/boards/leaderboards/").json()
    assert [x["player"]["name"] for x in without["most_wins"]][:2] == ["A", "C"]  # a substitute is not ranked
    assert without["players"] == 5


def test_leaderboards_count_the_games_the_standings_count():
    """An event that counts confirmed games only: nobody confirmed the one game, so the boards (and their CSV)
    count nothing, as the standings do; once the event counts unconfirmed games, the game's one win shows."""
    event = EventFactory.create(slug="strict", count_unconfirmed=False)
    ann, bo, cy, di = registered(event, "Ann", "Bo", "Cy", "Di")
    played(
        event, [ann, bo, cy, di], [{"result": "ron", "winner": ann.pk, "loser": bo.pk, "han": 1, "fu": 30}], end=True
    )
    strict = client_for(None).get(f"{API}events/strict/leaderboards/").json()
    assert (strict["players"], strict["most_wins"]) == (0, [])
    Event.objects.filter(pk=event.pk).update(count_unconfirmed=True)
    counted = client_for(None).get(f"{API}events/strict/leaderboards/").json()
    assert [(x["player"]["name"], x["wins"]) for x in counted["most_wins"]][:1] == [("Ann", 1)]
