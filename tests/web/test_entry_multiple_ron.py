"""Several rons on one discard on the referee's page: "more winners" is offered only where the game's rules
(its preset and the event's overrides) may pay them; under a head bump the page says so, and a hand that
declares more rons than are paid says, wherever it is shown, who is paid and why (seed 000 §3.5)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from tests.web.test_entry import ids, make_game, missing, text, url
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db

HINT = "only the first in turn after the discarder wins (head bump): enter that player's win."
HEAD_BUMP = "head bump: Cy, first after the discarder; not paid: Ann 2 han 30 fu"


def referee_of(game: Game) -> Client:
    user = User.objects.create_user(f"ref{game.pk}", password="x")
    game.event.referees.add(user)
    client = Client()
    client.force_login(user)
    return client


def game_under(ruleset: str, overrides: dict[str, Any] | None = None) -> Game:
    game = make_game(ruleset, slug=ruleset)
    if overrides:
        Event.objects.filter(pk=game.event_id).update(ruleset_overrides=overrides)
        game.refresh_from_db()
    return game


def double_ron(game: Game, action: str = "save", **extra: Any) -> dict[str, Any]:
    """Bo deals in to Ann (2 han 30 fu) and Cy (3 han 40 fu); Cy is first in turn after Bo."""
    p = ids(game)
    return {
        "action": action,
        "version": game.version,
        "result": "ron",
        "loser": p["Bo"],
        "winner": p["Ann"],
        "han": 2,
        "fu": 30,
        "win2_winner": p["Cy"],
        "win2_han": 3,
        "win2_fu": 40,
        **extra,
    }


@pytest.mark.parametrize(
    ("ruleset", "overrides", "offered"),
    [
        ("wrc-2025", {}, False),
        ("m-league", {}, False),
        ("jpml-a", {}, False),
        ("ema-2016", {}, True),
        ("tenhou", {}, True),  # a double ron is paid, a triple ron aborts
        ("mahjong-soul", {}, True),
        # The event's overrides decide, not the preset's name.
        ("wrc-2025", {"multiple_ron": "all"}, True),
        ("wrc-2025", {"multiple_ron": "head_bump_yakuman_exception"}, True),
        ("wrc-2025", {"multiple_ron": "double_head_bump_triple_abort"}, False),
        ("ema-2016", {"multiple_ron": "head_bump"}, False),
    ],
)
def test_more_winners_are_offered_only_where_the_rules_pay_them(ruleset: str, overrides: dict[str, Any], offered: bool):
    game = game_under(ruleset, overrides)
    html = referee_of(game).get(url(game)).content.decode()
    assert ('name="win2_winner"' in html) is offered
    assert ("Multiple ron: more winners" in html) is offered
    # Where it is not offered, the page says why and what to enter, naming the rules.
    assert (f"Under {ruleset} {HINT}" in text_of(html)) is not offered


def text_of(html: str) -> str:
    class Page:
        content = html.encode()

    return text(Page())


def test_mcr_says_the_head_bump_too():
    game = make_game("mcr", slug="mcr")
    page = text(referee_of(game).get(url(game)))
    assert f"Under mcr {HINT}" in page
    assert "Multiple ron: more winners" not in page


def test_a_double_ron_where_both_are_paid(client: Client):
    game = game_under("ema-2016")
    response = referee_of(game).post(url(game), double_ron(game), follow=True)
    assert missing(text(response), "Hand 1 added: Ron on Bo: Cy 3 han 40 fu, Ann 2 han 30 fu") == []
    assert "head bump" not in text(response)


def test_declared_rons_under_a_head_bump_say_who_is_paid_wherever_the_hand_is_shown(client: Client):
    game = game_under("wrc-2025")
    referee = referee_of(game)
    preview = text(referee.post(url(game), double_ron(game, action="preview")))
    assert (
        missing(
            preview,
            f"Ron on Bo: Cy 3 han 40 fu; {HEAD_BUMP}",
            "South Bo -5200 24800",
            "West Cy +5200 35200",
            "East Ann 0 30000",
        )
        == []
    )
    saved = text(referee.post(url(game), double_ron(game), follow=True))
    assert missing(saved, f"Hand 1 added: Ron on Bo: Cy 3 han 40 fu; {HEAD_BUMP}") == []
    game.refresh_from_db()
    assert [w["winner"] for w in game.hands.get().record["wins"]] == [ids(game)["Ann"], ids(game)["Cy"]]
    # The game page's hand list, and the public one.
    assert HEAD_BUMP in text(referee.get(url(game)))
    assert HEAD_BUMP in text(client.get(f"/games/{game.pk}/"))
    with translation.override("ko"):
        korean = text(client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="ko"))
    assert "머리치기: 방총자 다음 순서인 Cy; 지급하지 않음: Ann 2판 30부" in korean


def test_editing_a_hand_keeps_its_declared_rons_and_can_drop_them():
    game = game_under("wrc-2025")
    referee = referee_of(game)
    referee.post(url(game), double_ron(game))
    game.refresh_from_db()
    html = referee.get(url(game) + "?edit=0").content.decode()
    # Not dropped on the way through the form: the second declaration is there, the head bump said.
    assert 'name="win2_winner"' in html
    assert "More rons declared (head bump decides)" in html
    assert "Under wrc-2025 only the first player in turn after the discarder wins (head bump)" in text_of(html)
    # Ann's declaration taken out: the hand is Cy's alone.
    p = ids(game)
    referee.post(
        url(game),
        {
            "action": "save",
            "version": game.version,
            "index": 0,
            "result": "ron",
            "loser": p["Bo"],
            "winner": p["Cy"],
            "han": 3,
            "fu": 40,
            "win2_winner": "",
        },
    )
    game.refresh_from_db()
    assert game.hands.get().record == {"result": "ron", "loser": p["Bo"], "winner": p["Cy"], "han": 3, "fu": 40}
