"""Wrong codes limit the guesser, never the code's owner: counted in the database (every process sees them, no
cache needed), the guesser told how long to wait, the right code accepted from anyone, old tries pruned."""

from __future__ import annotations

import html
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from scoring.models import CodeFailure, Confirmation
from scoring.services.confirmations import player_code
from scoring.services.table_codes import table_code, table_code_revoke
from tournament.models import Game, Player, Table

pytestmark = pytest.mark.django_db
VENUE = "203.0.113.7"  # the venue's NAT (or the proxy): every phone in the room has this address


@pytest.fixture(autouse=True)
def _table_code(table: Table) -> None:
    """The table of ``game`` (round 1, table 1) has a code: what the guessers try."""
    table_code_revoke(table=table, renew=True)


def page(response: Any) -> str:
    return html.unescape(response.content.decode())


def open_table(client: Client, game: Game, code: str) -> Any:
    return client.post(f"/games/{game.pk}/code/", {"code": code})


def confirm(client: Client, game: Game, player: Player, code: str) -> Any:
    return client.post(f"/games/{game.pk}/confirm/", {"player": str(player.pk), "code": code, "confirm": ""})


def test_the_right_table_code_works_from_an_address_that_sent_many_wrong_ones(game: Game):
    assert game.table is not None
    venue = Client(REMOTE_ADDR=VENUE)
    for _ in range(settings.CODE_FAILURE_LIMIT + 2):
        open_table(venue, game, "AAAAA-AAAAA")
    assert open_table(venue, game, table_code(game.table)).status_code == 302
    assert venue.get(f"/games/{game.pk}/entry/").status_code == 200


def test_wrong_table_codes_are_counted_by_every_process_without_a_cache(game: Game):
    # Two clients at the venue's address (two phones, or two workers each with its own memory): the cache is
    # emptied before every try, and the count still holds.
    phones = [Client(REMOTE_ADDR=VENUE), Client(REMOTE_ADDR=VENUE)]
    for n in range(settings.CODE_FAILURE_LIMIT):
        cache.clear()
        assert open_table(phones[n % 2], game, "AAAAA-AAAAA").status_code == 400
    cache.clear()
    refused = open_table(phones[0], game, "AAAAA-AAAAA")
    assert refused.status_code == 429
    assert "too many wrong codes for this table" in refused.content.decode()
    wait = int(refused["Retry-After"])
    assert 0 < wait <= settings.CODE_FAILURE_WINDOW.total_seconds()
    assert CodeFailure.objects.count() == settings.CODE_FAILURE_LIMIT  # the refused try adds nothing


def test_a_guesser_with_a_session_is_counted_apart_from_the_address(game: Game):
    stranger, player = Client(REMOTE_ADDR=VENUE), Client(REMOTE_ADDR=VENUE)
    for c in (stranger, player):  # a session of its own, as a browser that opened the site has
        session = c.session
        session["seen"] = True
        session.save()
    for _ in range(settings.CODE_FAILURE_LIMIT):
        open_table(stranger, game, "AAAAA-AAAAA")
    assert open_table(stranger, game, "AAAAA-AAAAB").status_code == 429
    assert open_table(player, game, "AAAAA-AAAAB").status_code == 400  # a typo is only a typo


def test_wrong_confirmation_codes_slow_the_guesser_and_not_the_player(game: Game, players: list[Player]):
    bo = players[1]
    venue = Client(REMOTE_ADDR=VENUE)
    for _ in range(settings.CODE_FAILURE_LIMIT):
        cache.clear()
        assert "this is not the player's code" in page(confirm(venue, game, bo, "AAAA-AAAA"))
    cache.clear()
    refused = confirm(venue, game, bo, "AAAA-AAAA")
    assert refused.status_code == 429
    assert "too many wrong codes for this player" in page(refused)
    assert int(refused["Retry-After"]) > 0
    assert confirm(venue, game, bo, player_code(game.event, bo)).status_code == 302
    assert Confirmation.objects.filter(game=game, player=bo).exists()


def test_a_code_tried_from_many_places_slows_everyone_but_its_owner(game: Game, settings: Any):
    settings.CODE_FAILURE_CEILING = 3
    assert game.table is not None
    for n in range(3):
        assert open_table(Client(REMOTE_ADDR=f"198.51.100.{n}"), game, "AAAAA-AAAAA").status_code == 400
    assert open_table(Client(REMOTE_ADDR="198.51.100.9"), game, "AAAAA-AAAAA").status_code == 429
    assert open_table(Client(REMOTE_ADDR="198.51.100.10"), game, table_code(game.table)).status_code == 302


def test_old_wrong_tries_are_pruned_and_the_wait_ends(game: Game):
    long_ago = timezone.now() - settings.CODE_FAILURE_WINDOW - timedelta(hours=1)
    CodeFailure.objects.bulk_create([CodeFailure(scope="table:0", guesser="x", at=long_ago)] * 50)
    assert game.table is not None
    CodeFailure.objects.bulk_create(
        [CodeFailure(scope=f"table:{game.table.pk}", guesser="y", at=long_ago)] * settings.CODE_FAILURE_LIMIT
    )
    assert open_table(Client(REMOTE_ADDR=VENUE), game, "AAAAA-AAAAA").status_code == 400
    assert CodeFailure.objects.count() == 1


def test_a_made_up_session_cookie_on_every_try_does_not_make_a_new_guesser(game: Game):
    """A session the server does not hold counts as none: the guesser is the address."""
    import secrets

    for _ in range(settings.CODE_FAILURE_LIMIT):
        liar = Client(REMOTE_ADDR="203.0.113.9")
        liar.cookies[settings.SESSION_COOKIE_NAME] = secrets.token_hex(16)
        assert open_table(liar, game, "AAAAA-AAAAA").status_code == 400
    liar = Client(REMOTE_ADDR="203.0.113.9")
    liar.cookies[settings.SESSION_COOKIE_NAME] = secrets.token_hex(16)
    assert open_table(liar, game, "AAAAA-AAAAA").status_code == 429


def test_a_game_number_past_a_bigint_is_a_refusal_on_the_confirm_page():
    answer = Client().post("/confirm/", {"game": "9" * 58, "code": "AAAAA-AAAAA"})
    assert answer.status_code == 200  # the form again, with the field's error (PostgreSQL gave a 500)
    assert "less than or equal to" in page(answer)
    assert not CodeFailure.objects.exists()
