"""The public pages: what a player reads on a phone, from the stored results (no scoring in the views)."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.services.standings import standings_recompute
from tests.factories import RoundFactory, TableFactory, played
from tests.markup import has
from tournament.models import Event, Game, Player, Table
from web.presenters import cumulative_chart

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("round_one")]


def ron(winner: int, loser: int, han: int = 3, fu: int = 40, **extra: Any) -> dict[str, Any]:
    return {"result": "ron", "winner": winner, "loser": loser, "han": han, "fu": fu, **extra}


@pytest.fixture
def round_one(event: Event, players: list[Player], table: Table) -> Game:
    """Round 1 of the shared event played at its one table: Ann (riichi) wins 7700 from Cy, then a draw with nobody
    tenpai, and the clock; Bo and Di tie at 30000. The standings are stored."""
    ids = [p.pk for p in players]
    game = played(
        event, players, [ron(ids[0], ids[2], riichi=[ids[0]]), {"result": "draw", "tenpai": []}], table=table, end=True
    )
    standings_recompute(event)
    return game


def text(response: Any) -> str:
    assert response.status_code == 200
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_home_lists_public_events_only(event: Event):
    Event.objects.create(name="Club night", slug="club", public=False)
    page = text(Client().get("/"))
    assert "Spring Open" in page
    assert "Club night" not in page
    assert Client().get("/events/club/").status_code == 404
    assert Client().get("/events/club/standings/").status_code == 404


def test_event_page_summarises_the_rules(event: Event):
    page = text(Client().get("/events/spring/"))
    # wrc-2025 (docs/rules.md §8): 30000 / 30000, uma 15/5/−5/−15, chombo −30 points.
    assert "Start / return points 30000 / 30000" in page
    assert "Uma +15 / +5 / -5 / -15" in page
    assert "Chombo -30 points" in page
    assert "Round 1" in page


def test_standings_show_shared_ranks_and_sort(event: Event):
    page = text(Client().get("/events/spring/standings/"))
    # Ann: 7700, her riichi stick comes back: 37700 -> +7.7 + 15; Bo and Di share 2nd/3rd: 0 each, shown "=2".
    # Each total opens on its rounds' points ("R1 …"); one round played: no movement yet.
    assert (
        "1 Ann +22.7 R1 +22.7 1 1.00 =2 Bo 0.0 R1 0.0 1 2.50 =2 Di 0.0 R1 0.0 1 2.50 4 Cy -22.7 R1 -22.7 1 4.00"
    ) in page
    assert "▲" not in page
    assert "Federation ID" not in page
    assert "Teams" not in page
    by_name = text(Client().get("/events/spring/standings/?sort=player&part=table"))
    assert list(re.findall(r"\b(Ann|Bo|Cy|Di)\b", by_name)) == ["Ann", "Bo", "Cy", "Di"]
    assert "<html" not in Client().get("/events/spring/standings/?part=table").content.decode()
    polled = Client().get("/events/spring/standings/").content.decode()
    assert 'data-poll="/events/spring/standings/?part=table' in polled  # updates while the round is played


def test_round_page_finds_where_a_player_sits(event: Event):
    page = Client().get("/events/spring/rounds/1/?q=cy").content.decode()
    assert 'class="table-card found"' in page
    assert re.search(r'<tr class="match">\s*<th>West</th>\s*<td>\s*<a [^>]*>Cy</a>', page)
    assert "22300" in page  # Cy's score after the game
    cards = text(Client().get("/events/spring/rounds/1/print/"))
    assert "Table 1" in cards
    assert "East Ann" in cards
    assert "North Di" in cards


def test_player_page_lists_games_and_draws_the_chart(event: Event):
    ann = Player.objects.get(name="Ann")
    response = Client().get(f"/events/spring/players/{ann.pk}/")
    page = text(response)
    assert "Rank 1" in page
    assert "22.7 points in 1 game" in page
    # One game: one segment from 0 (at 3 % of the width, 160 px down: the bottom band) up to +22.7 (at the top).
    assert has(response.content.decode(), '<line class="line" x1="3.0%" y1="160.0" x2="97.0%" y2="20.0"/>')
    assert "Round 1, table 1 1 37700 +22.7 +22.7" in page
    stranger = Player.objects.create(name="Zed")
    assert Client().get(f"/events/spring/players/{stranger.pk}/").status_code == 404


def test_cumulative_chart_scales_into_the_box():
    chart = cumulative_chart([Decimal("10"), Decimal("-10"), Decimal("5")], height=140)
    assert chart is not None
    # From 0 before the first game: 0, 10, -10, 5 across 3 %..97 % (a step of 31.33 %); down, 20 px bands above
    # and below for the labels: +10 at y 20, -10 at y 120, 0 at 70, 5 at 45.
    assert chart.segments == [(3.0, 70.0, 34.33, 20.0), (34.33, 20.0, 65.67, 120.0), (65.67, 120.0, 97.0, 45.0)]
    assert chart.dots == [(34.33, 20.0, "+10.0"), (65.67, 120.0, "-10.0"), (97.0, 45.0, "+5.0")]
    assert (chart.zero_y, chart.top_label, chart.bottom_label) == (70.0, "+10.0", "-10.0")
    assert cumulative_chart([]) is None


def test_game_page_shows_each_hand_and_the_final_result(event: Event):
    game = Game.objects.get(event=event)
    page = text(Client().get(f"/games/{game.pk}/"))
    assert "East 1 0 Ann 0 Ron on Cy: Ann 3 han 40 fu; riichi: Ann +7700 0 -7700 0" in page
    assert "East 1 1 Ann 0 Draw, nobody tenpai 0 0 0 0" in page  # the dealer won: renchan, one honba
    japanese = Client()  # the round and the hand's parts as a Japanese player reads them; the stored E1 stays
    japanese.cookies["django_language"] = "ja"
    assert "東1局 0 Ann 0 Cyからロン: Ann 3飜 40符。リーチ: Ann" in text(japanese.get(f"/games/{game.pk}/"))
    assert game.result["hands"][0]["round"] == "E1"
    assert "Final result" in page
    assert "37700" in page


def test_csv_downloads(event: Event):
    response = Client().get("/events/spring/standings.csv")
    assert response["Content-Type"].startswith("text/csv")
    assert response.content.decode().splitlines()[1].startswith("1,")
    assert len(Client().get("/events/spring/results.csv").getvalue().decode().splitlines()) == 5


def test_pages_speak_korean(event: Event):
    page = text(Client().get("/events/spring/standings/", HTTP_ACCEPT_LANGUAGE="ko"))
    assert "순위" in page  # "Standings"/"Rank" in the Korean catalogue


def test_the_language_is_switched_by_a_get_form_and_stays(event: Event):
    client = Client()
    switched = client.get("/language/", {"language": "ko", "next": "/events/spring/standings/"})
    assert (switched.status_code, switched["Location"]) == (302, "/events/spring/standings/")
    assert "순위표" in text(client.get("/events/spring/standings/"))  # "Standings", from the cookie
    outside = client.get("/language/", {"language": "ko", "next": "https://evil.example/"})
    assert outside["Location"] == "/"  # never a redirect off the site
    assert Client().get("/language/", {"language": "xx", "next": "/"}).cookies.get("django_language") is None


def test_anonymous_readers_share_one_rendering_of_the_standings_page(event: Event):
    first = text(Client().get("/events/spring/standings/"))
    with CaptureQueriesContext(connection) as queries:
        again = text(Client().get("/events/spring/standings/"))
    assert again == first
    assert len(queries) <= 3  # the event, the standings' version, nothing rendered again


def test_a_table_not_started_shows_no_result(event: Event):
    # Round 2 seated, nothing played: no 30000 / 0.0 as if it were a result, and it says so.
    players = list(Player.objects.filter(name__in=["Ann", "Bo", "Cy", "Di"]).order_by("name"))
    played(event, players, table=TableFactory.create(round=RoundFactory.create(event=event, number=2), number=1))
    page = text(Client().get(f"/events/{event.slug}/rounds/2/"))
    assert "not started" in page
    assert "30000" not in page
    assert "finished" in text(Client().get(f"/events/{event.slug}/rounds/1/"))


def test_a_player_checks_the_seal_they_kept_on_the_game_page(event: Event):
    """Issue 25: a seal kept from the game page is looked for in the history; one from a history rewritten since
    is not found, and a history changed outside the application is said so."""
    from scoring.services.chain import game_head
    from scoring.services.hands import game_update

    game = event.games.get()
    kept = game_head(game)[:12]
    page = text(Client().get(f"/games/{game.pk}/", {"seal": kept}))
    assert "Found: entry 1 of this game's history, its latest: nothing changed since you noted it." in page
    game_update(game_id=game.pk, user=None, version=None, ended_by_time=False)
    page = text(Client().get(f"/games/{game.pk}/", {"seal": kept.upper()}))
    assert "Found: entry 1 of this game's history, with 1 change after it (a correction or a confirmation)" in page
    assert "Not found" in text(Client().get(f"/games/{game.pk}/", {"seal": "0123456789ab"}))
    assert "Type at least 8 characters" in text(Client().get(f"/games/{game.pk}/", {"seal": kept[:5]}))
    with connection.cursor() as cursor:
        cursor.execute("UPDATE tournament_game SET start = %s WHERE id = %s", ['{"honba": 3}', game.pk])
    page = text(Client().get(f"/games/{game.pk}/", {"seal": kept}))
    assert "This game's history does not hold" in page
    korean = text(Client(headers={"accept-language": "ko"}).get(f"/games/{game.pk}/", {"seal": "0123456789ab"}))
    assert "이 대국의 기록이 맞지 않습니다" in korean
