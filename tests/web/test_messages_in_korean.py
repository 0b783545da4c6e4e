"""The referee's page and the game page in the reader's language: the engine's refusals next to their fields,
hand descriptions and why the game ended, in Korean; in English, the words the command line prints."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.api.test_messages_in_korean import game_for, with_ids
from tests.factories import EventFactory, played, registered
from tests.rules.refusals import NAMES, Refusal, cases, cli_messages
from tests.web.test_entry import field_errors, text
from web.forms import problem_field

pytestmark = pytest.mark.django_db


def client(user: User, language: str) -> Client:
    browser = Client()
    browser.force_login(user)
    browser.cookies["django_language"] = language
    return browser


def refuse(refusal: Refusal, language: str) -> dict[str, str]:
    """Post the refused hand on the entry page; the message printed next to each field the refusal names."""
    user = User.objects.create_user("ref")
    game, ids = game_for(refusal, user)
    response = client(user, language).post(
        f"/games/{game.pk}/entry/", {"action": "save", "version": game.version, **with_ids(refusal.hand, ids)}
    )
    assert response.status_code == 400, text(response)[:300]
    assert game.hands.count() == len(refusal.before)
    return {field: field_errors(response, problem_field(field)) for field in refusal.codes}


@pytest.mark.parametrize("refusal", cases(page=True))
def test_the_page_in_korean_shows_each_refusal_next_to_its_field(refusal: Refusal):
    shown = refuse(refusal, "ko")
    for field, message in shown.items():
        assert message, f"nothing next to {field}"
        assert not message.isascii(), f"{field}: {message} is not in Korean"
    for field, korean in refusal.korean.items():
        assert shown[field] == korean


@pytest.mark.parametrize("refusal", cases(page=True))
def test_the_page_in_english_shows_the_command_lines_words(
    refusal: Refusal, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    assert refuse(refusal, "en") == cli_messages(refusal, tmp_path, capsys)


def test_the_game_page_in_korean_describes_the_hands_and_why_the_game_ended():
    """Tenhou rules. Hand 1: four winds, an abortive draw. Hand 2 (Ann deals again, 1 honba): Ann rons Bo 6 han
    30 fu, a haneman (18000 + 300: Bo 6700). Hand 3: Ann rons Bo a yakuman (48000 + 600): Bo busts, the game ends."""
    event = EventFactory.create(ruleset_key="tenhou")
    players = registered(event, *NAMES)
    ann, bo = players[0].pk, players[1].pk
    game = played(
        event,
        players,
        [
            {"result": "abort", "reason": "four_winds"},
            {"result": "ron", "winner": ann, "loser": bo, "han": 6, "fu": 30},
            {"result": "ron", "winner": ann, "loser": bo, "yakuman": 1},
        ],
    )
    assert game.result["end_reason"] == "bust"
    korean = text(Client(headers={"Accept-Language": "ko"}).get(f"/games/{game.pk}/"))
    assert "도중유국 (사풍연타)" in korean
    assert "Bo 방총: Ann 6판 30부 (하네만)" in korean
    assert "Bo 방총: Ann 역만" in korean
    assert "종료 (토비)" in korean
    assert "(대국 종료: 토비)" in re.sub(r".*Bo 방총: Ann 역만", "", korean)  # the last hand says the game ended there
    for english in ("haneman", "four_winds", "bust", "yakuman"):
        assert english not in korean
    plain = text(Client(headers={"Accept-Language": "en"}).get(f"/games/{game.pk}/"))
    assert "Abortive draw (four_winds)" in plain
    assert "Ron on Bo: Ann 6 han 30 fu (haneman)" in plain
    assert "finished (bust)" in plain


def test_the_referees_page_in_korean_says_why_the_game_ended():
    """Tenhou rules: Ann (dealer) rons Bo a yakuman (48000 > Bo's 25000): Bo busts, the game ends."""
    event = EventFactory.create(ruleset_key="tenhou")
    players = registered(event, *NAMES)
    game = played(event, players, [{"result": "ron", "winner": players[0].pk, "loser": players[1].pk, "yakuman": 1}])
    user = User.objects.create_user("ref")
    event.referees.add(user)
    assert "종료 (토비)" in text(client(user, "ko").get(f"/games/{game.pk}/entry/"))
    assert "Finished (bust)" in text(client(user, "en").get(f"/games/{game.pk}/entry/"))
