"""The API's refusals in the request's language: each message of the engine in Korean with Accept-Language: ko,
the same words as the command line in English, and its code and field the same in both."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.conftest import client_for
from tests.factories import EventFactory, played, registered
from tests.rules.refusals import NAMES, Refusal, cases, cli_messages
from tournament.models import Game

pytestmark = pytest.mark.django_db


def by_id(value: Any, ids: dict[str, int]) -> Any:
    if isinstance(value, list):
        return [ids[name] for name in value]
    return ids.get(value, value) if isinstance(value, str) else value


def with_ids(hand: dict[str, Any], ids: dict[str, int]) -> dict[str, Any]:
    return {
        key: by_id(value, ids) if key in ("winner", "loser", "pao", "riichi", "tenpai", "nagashi") else value
        for key, value in hand.items()
    }


def game_for(refusal: Refusal, referee: User) -> tuple[Game, dict[str, int]]:
    event = EventFactory.create(ruleset_key=refusal.ruleset, referees=[referee])
    players = registered(event, *NAMES)
    ids = {p.name: p.pk for p in players}
    return played(event, players, [with_ids(h, ids) for h in refusal.before]), ids


def refuse(refusal: Refusal, referee: User, language: str) -> dict[str, dict[str, str]]:
    game, ids = game_for(refusal, referee)
    response = client_for(referee).post(
        f"/api/v1/games/{game.pk}/hands/",
        with_ids(refusal.hand, ids),
        format="json",
        headers={"Accept-Language": language},
    )
    assert response.status_code == 400, response.content[:400]
    body = response.json()
    assert response.headers["Content-Language"] == language
    return {e["field"]: {"message": e["message"], "code": e["code"]} for e in body["errors"]}


@pytest.mark.parametrize("refusal", cases())
def test_a_refusal_in_korean_names_the_field_and_code(refusal: Refusal, referee: User):
    errors = refuse(refusal, referee, "ko")
    assert {field: e["code"] for field, e in errors.items()} == refusal.codes
    for field, korean in refusal.korean.items():
        assert errors[field]["message"] == korean
    for field, e in errors.items():
        assert not e["message"].isascii(), f"{field}: {e['message']} is not in Korean"


@pytest.mark.parametrize("refusal", cases())
def test_a_refusal_in_english_is_the_command_lines(
    refusal: Refusal, referee: User, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    errors = refuse(refusal, referee, "en")
    assert {field: e["message"] for field, e in errors.items()} == cli_messages(refusal, tmp_path, capsys)
    assert {field: e["code"] for field, e in errors.items()} == refusal.codes


def test_han_out_of_range_is_refused_in_korean_by_its_bound(referee: User):
    """The schema's bound (any han from 13 up is 13 or more, to 99) speaks the reader's language too."""
    refusal = Refusal(
        "han 100", {"result": "ron", "winner": "Bo", "loser": "Cy", "han": 100, "fu": 40}, {"han": "at_most"}
    )
    assert refuse(refusal, referee, "ko") == {"han": {"message": "99 이하여야 합니다", "code": "at_most"}}
    assert refuse(refusal, referee, "en") == {"han": {"message": "must be at most 99", "code": "at_most"}}


def test_a_hand_after_the_end_says_why_the_game_ended_in_korean(referee: User):
    """Tenhou rules: Ann (dealer) rons Bo a yakuman (48000 > Bo's 25000): Bo busts and the game ends."""
    refusal = Refusal(
        "after the end",
        {"result": "draw"},
        {"": "game_over"},
        ruleset="tenhou",
        before=({"result": "ron", "winner": "Ann", "loser": "Bo", "yakuman": 1},),
    )
    game, _ = game_for(refusal, referee)
    response = client_for(referee).post(
        f"/api/v1/games/{game.pk}/hands/", {"result": "draw"}, format="json", headers={"Accept-Language": "ko"}
    )
    assert response.status_code in (400, 409), response.content[:300]
    errors = response.json()["errors"]
    assert [(e["code"], e["message"]) for e in errors] == [
        ("game_over", "대국이 이미 끝났습니다 (토비). 더 이상 국을 추가할 수 없습니다")
    ]


def test_drf_messages_keep_their_own_translation_and_code(referee: User):
    """A field DRF refuses (a hand that is not an object) is in DRF's Korean, with DRF's code."""
    game, _ = game_for(Refusal("x", {}, {}), referee)
    response = client_for(referee).post(
        "/api/v1/games/", {"players": [1, "x"]}, format="json", headers={"Accept-Language": "ko"}
    )
    assert response.status_code == 400
    errors = {e["field"]: (e["code"], e["message"]) for e in response.json()["errors"]}
    assert (errors["event"][0], errors["players[1]"][0]) == ("required", "invalid")
    assert not errors["event"][1].isascii()
    assert not errors["players[1]"][1].isascii()
    assert game.hands.count() == 0
