"""The solo race to tenpai on the pages (seed 001 "1인 마작"): the referee enters attempts (draws, then the value),
and the game, standings, round and player pages show draws and value, not points.

Values are the dealer's, 6 × base rounded up to 100: 1 han 30 fu 1500, 2 han 30 fu 2900, 3 han 40 fu 7700.
"""

from __future__ import annotations

import re
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.services.games import game_create
from scoring.services.hands import game_record_hand
from scoring.services.standings import standings_recompute
from scoring.sheet.record import HandRecord
from tests.factories import registered
from tests.web.test_entry import missing, text
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db


def solo_game(name: str = "Ann", *, event: Event | None = None, **overrides: Any) -> Game:
    if event is None:
        event = Event.objects.create(
            name="Solo Cup",
            slug="solo-cup",
            ruleset_key="solo",
            public=True,
            status=Event.Status.RUNNING,
            ruleset_overrides=overrides,
        )
    [player] = registered(event, name)
    return game_create(event=event, player_ids=[player.pk])


def referee_of(game: Game) -> Client:
    user, _ = User.objects.get_or_create(username="ref")
    game.event.referees.add(user)
    client = Client()
    client.force_login(user)
    return client


def attempt(game: Game, **fields: Any) -> dict[str, Any]:
    game.refresh_from_db()
    return {"action": "save", "version": game.version, "result": "tenpai", **fields}


def test_the_form_is_a_draw_counter_and_the_value():
    game = solo_game()
    html = referee_of(game).get(f"/games/{game.pk}/entry/").content.decode()
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert (
        missing(
            page,
            "Enter attempts",
            "Next: attempt 1",
            "Tenpai",
            "Noten (the wall ran out)",
            "Draws to tenpai",
            "Or type the tenpai tiles",
            "Save attempt",
            "No attempts yet.",
        )
        == []
    )
    # The counter: a box to type in, and − and + buttons (shown by the script) around it.
    assert re.search(
        r'<span class="counter" data-counter><button type="button" class="secondary step" '
        r'data-step="-1" aria-label="one fewer" hidden>−</button><input type="number" name="draws"',
        html,
    )
    assert 'data-step="1" aria-label="one more" hidden>+</button>' in html
    assert re.search(r'<input type="radio" name="result" value="tenpai"[^>]*checked', html)  # the form starts there
    # No winner, discarder or riichi: one player, no calls, no riichi.
    assert all(f'name="{name}"' not in html for name in ("winner", "loser", "riichi", "pao"))


def test_saving_attempts_ranks_them():
    game = solo_game()
    client = referee_of(game)
    response = client.post(f"/games/{game.pk}/entry/", attempt(game, draws=7, han=2, fu=30))
    assert response.status_code == 302
    client.post(f"/games/{game.pk}/entry/", attempt(game, draws=5, han=3, fu=40))
    assert [h.record for h in game.hands.order_by("index")] == [
        {"result": "tenpai", "draws": 7, "han": 2, "fu": 30},
        {"result": "tenpai", "draws": 5, "han": 3, "fu": 40},
    ]
    page = text(client.get(f"/games/{game.pk}/entry/"))
    # Best: 5 draws, 7700, the second attempt; the game, of any number of attempts, takes a third.
    assert (
        missing(
            page,
            "Ann : best 5 draws, 7700 · 2 attempts",
            "2. rank 1 · counts",
            "Tenpai after 5 draws: 3 han 40 fu, 7700",
            "1. rank 2",
            "Next: attempt 3",
        )
        == []
    )
    client.post(f"/games/{game.pk}/entry/", attempt(game, result="noten"))
    assert game.hands.count() == 3


def test_a_noten_and_tiles_and_the_preview():
    game = solo_game()
    client = referee_of(game)
    # 123m 456m 789p 234s and the White dragon waiting on its pair: menzen tsumo, 30 fu, the dealer's 1500.
    preview = text(
        client.post(
            f"/games/{game.pk}/entry/",
            attempt(game, action="preview", draws=4, tiles_concealed="123m456m789p234s5z", tiles_win="5z"),
        )
    )
    assert (
        missing(
            preview,
            "Preview of attempt 1",
            "Tenpai after 4 draws: 1 han 30 fu, 1500",
            "Menzen Tsumo 1",
            "Rank 1 of 1 attempt.",
            "It counts for the result.",
        )
        == []
    )
    assert not game.hands.exists()


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        (
            {"draws": 19, "han": 1, "fu": 30},
            "draws",
            "must be 0 to 18: the 34 tiles less the 14 dealt and the dead wall of 2",
        ),
        ({"draws": 4}, "han", "a tenpai needs the hand's value: han and fu, yakuman, or its tiles"),
        ({"han": 1, "fu": 30}, "draws", "is required for a tenpai"),
        (
            {"draws": 4, "tiles_concealed": "123m456m789p233s5z", "tiles_win": "5z"},
            "tiles_concealed",
            "3s is written twice: the solo game's 34 tiles hold one of each",
        ),
    ],
)
def test_a_refused_attempt_says_why_next_to_its_field(fields: dict[str, Any], field: str, message: str):
    game = solo_game()
    response = referee_of(game).post(f"/games/{game.pk}/entry/", attempt(game, **fields))
    assert response.status_code == 400
    assert message in response.context["form"].errors[field]
    assert not game.hands.exists()


def test_the_draws_in_korean():
    game = solo_game()
    client = referee_of(game)
    client.cookies["django_language"] = "ko"
    client.post(f"/games/{game.pk}/entry/", attempt(game, draws=19, han=1, fu=30))
    response = client.post(f"/games/{game.pk}/entry/", attempt(game, draws=19, han=1, fu=30))
    assert "0에서 18 사이여야 합니다: 34매에서 배패 14매와 왕패 2매를 뺀 수입니다" in text(response)
    client.post(f"/games/{game.pk}/entry/", attempt(game, draws=6, han=2, fu=30))
    assert (
        missing(
            text(client.get(f"/games/{game.pk}/entry/")),
            "도전 입력",
            "텐파이까지 순 수",
            "6순 만에 텐파이: 2판 30부, 2900점",
            "최고 6순, 2900점",
        )
        == []
    )


def test_a_sum_of_fixed_attempts_finishes_the_game():
    game = solo_game(solo_ranking="sum_of_attempts", solo_attempts=2)
    client = referee_of(game)
    client.post(f"/games/{game.pk}/entry/", attempt(game, draws=5, han=1, fu=30))
    assert "Ann : 5 draws, 1500 so far · 1 of 2 attempts" in text(client.get(f"/games/{game.pk}/entry/"))
    client.post(f"/games/{game.pk}/entry/", attempt(game, result="noten"))
    page = text(client.get(f"/games/{game.pk}/entry/"))
    assert (
        missing(
            page,
            "Finished (end of the game)",
            "24 draws, 1500 so far · 2 of 2 attempts",
            "Every attempt of this game is made: no more can be added.",
        )
        == []
    )
    assert 'name="draws"' not in client.get(f"/games/{game.pk}/entry/").content.decode()  # no form: finished


def test_the_public_pages_show_draws_and_value():
    game = solo_game()
    event = game.event
    other = solo_game("Bo", event=event)
    game_record_hand(
        game_id=game.pk, record={"result": "tenpai", "draws": 6, "han": 2, "fu": 30}, user=None, version=None
    )
    # A solo attempt may leave its result out: it reached tenpai (docs/solo.md).
    game_record_hand(
        game_id=other.pk, record=cast(HandRecord, {"draws": 6, "han": 3, "fu": 40}), user=None, version=None
    )
    standings_recompute(event)
    standings = text(Client().get("/events/solo-cup/standings/"))
    # Equal draws: Bo's 7700 ranks above Ann's 2900 (seed 001 line 614).
    assert re.search(r"Rank Player Draws Value Games .*1 Bo 6 7700 1 .*2 Ann 6 2900 1", standings)
    assert "Points" not in standings
    game_page = text(Client().get(f"/games/{game.pk}/"))
    assert (
        missing(
            game_page,
            "# Rank Draws Value Hand 1 1 6 2900 2 han 30 fu · counts",
            "Ann : 6 draws, value 2900 (the best of 1 attempt)",
        )
        == []
    )
    assert "Rank Player Draws Value Word 1 Ann 6 2900" in text(Client().get(f"/games/{game.pk}/confirm/"))
    player = text(Client().get(f"/events/solo-cup/players/{game.seats.get().player_id}/"))
    assert "Rank 2 · 6 draws, value 2900 in 1 game" in player
    event_page = text(Client().get("/events/solo-cup/"))
    assert (
        missing(
            event_page,
            "the race to tenpai alone: 34 tiles, no calls, at most 18 draws",
            "best attempt: the fewest draws to tenpai, then the higher value",
        )
        == []
    )


def test_the_rules_form_sets_how_attempts_count():
    game = solo_game()
    organiser = User.objects.create_user("org")
    game.event.organisers.add(organiser)
    client = Client()
    client.force_login(organiser)
    form = client.get("/events/solo-cup/manage/settings/").context["rules"]
    assert sorted(form.fields) == ["solo_attempts", "solo_ranking"]
    assert dict(form.fields["solo_ranking"].choices) == {
        "best_attempt": "each player's best attempt",
        "sum_of_attempts": "the sum of all attempts",
    }
