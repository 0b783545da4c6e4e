"""Lists of games never read a game's stored result (6-9 KB of JSON each) when they do not show it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tournament.models import Game, Player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("game")]
RESULT_COLUMN = '"tournament_game"."result"'


def reads_of_results(client: Client, path: str) -> tuple[str, list[str]]:
    """The page's text, and the queries that read a game's stored result on the way."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, path
    assert any('"tournament_game"' in q["sql"] for q in queries.captured_queries), "the page read no game at all"
    return response.content.decode(), [q["sql"] for q in queries.captured_queries if RESULT_COLUMN in q["sql"]]


def test_the_consoles_round_page_lists_its_tables_without_their_results(org: Client):
    page, reads = reads_of_results(org, "/events/spring/manage/rounds/1/")
    assert reads == []
    assert "Ann" in page  # the table's players, read with the game


def test_my_games_are_listed_without_their_results(organiser: User, players: list[Player]):
    Player.objects.filter(pk=players[0].pk).update(user=organiser)
    client = Client()
    client.force_login(organiser)
    page, reads = reads_of_results(client, "/me/")
    assert reads == []
    game = Game.objects.get()
    assert f'href="/games/{game.pk}/"' in page
