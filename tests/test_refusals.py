"""One refusal type through every layer: whatever refuses (the engine, the JSON reader, the score sheet's reader, a
game log, a line of CSV, a service, a conflict), the API answers the same body and a page puts each message
beside the field it names (docs/architecture.md "Refused input")."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import pytest
from django import forms
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils import translation

from api.errors import exception_handler
from rules.csv_line import csv_values
from rules.errors import Problem, Refusal
from rules.hand_value import check_han_fu
from scoring.logs.model import log_int
from scoring.services.games import game_correct_totals
from scoring.services.hands import VersionConflict
from scoring.services.leaderboards import read_board_options
from scoring.sheet.document import read_json
from scoring.sheet.reader import score_sheet
from tests.factories import EventFactory, played, registered
from tournament.errors import Conflict, GameConflict, TooManyTries
from web import refusals

BAD_SHEET = {
    "ruleset": "wrc-2025",
    "players": ["A", "B", "C", "D"],
    "hands": [
        {"result": "ron", "winner": "A", "loser": "B", "han": 1, "fu": 20},
        {"result": "tsumo", "winner": "E", "han": 2, "fu": 30},
    ],
}
FU_20 = "20 fu is only possible with 2 han or more (pinfu and menzen tsumo)"


def _conflict() -> None:
    event = EventFactory.create(slug="refusals")
    game = played(event, registered(event, "Ann", "Bo", "Cy", "Di"))
    game_correct_totals(game=game, scores=[25000] * 4, deposits_left=0, user=None)


# (layer, what refuses, status, detail, (field, code, message) of each problem)
CASES: list[tuple[str, Callable[[], Any], int, str, list[tuple[str, str, str]]]] = [
    (
        "engine rule",
        lambda: check_han_fu(han=1, fu=20, tsumo=False),
        400,
        "invalid input; nothing was saved",
        [("fu", "fu_20_needs_2_han", FU_20)],
    ),
    (
        "JSON document",
        lambda: read_json('{"a": [1, NaN]}'),
        400,
        "invalid input; nothing was saved",
        [("a[1]", "", "NaN is not a number JSON allows")],
    ),
    (
        "score sheet",
        lambda: score_sheet(BAD_SHEET),
        400,
        "invalid input; nothing was saved",
        [
            ("hands[0].fu", "fu_20_needs_2_han", FU_20),
            ("hands[1].winner", "unknown_player", "unknown player 'E' (the players are A, B, C, D)"),
        ],
    ),
    (
        "game log",
        lambda: log_int("1.5", "log[2].sc"),
        400,
        "invalid input; nothing was saved",
        [("log[2].sc", "", "'1.5' is not a whole number")],
    ),
    (
        "line of CSV",
        lambda: csv_values('"a'),
        400,
        "invalid input; nothing was saved",
        [("", "csv_quote_open", 'a quote (") is left open: quotes go in pairs, around a whole value')],
    ),
    (
        "service",
        lambda: read_board_options({"limit": "x", "min_hands": "-1"}),
        400,
        "invalid input; nothing was saved",
        [
            ("min_hands", "", "must be a whole number from 0 to 1000000"),
            ("limit", "", "must be a whole number from 0 to 1000"),
        ],
    ),
    (
        "conflict",
        _conflict,
        409,
        "the game's state does not allow this change",
        [("scores", "", "only a game recorded by its end scores is corrected by them: correct its hands instead")],
    ),
]


def _refusal(refuse: Callable[[], Any]) -> Refusal:
    with translation.override("en"), pytest.raises(Refusal) as refused:
        refuse()
    return refused.value


@pytest.mark.django_db
@pytest.mark.parametrize(("layer", "refuse", "status", "detail", "problems"), CASES, ids=[c[0] for c in CASES])
def test_the_api_answers_every_layer_in_one_shape(
    layer: str, refuse: Callable[[], Any], status: int, detail: str, problems: list[tuple[str, str, str]]
):
    refusal = _refusal(refuse)
    with translation.override("en"):
        response = exception_handler(refusal, {})
    assert response is not None
    assert response.status_code == status
    assert set(response.data) == ({"detail", "errors", "version"} if status == 409 else {"detail", "errors"})
    assert response.data["detail"] == detail
    assert [(e["field"], e["code"], e["message"]) for e in response.data["errors"]] == problems


class _Form(forms.Form):
    """A page's form with a field for each path the cases name (a list's or an object's by its first part)."""

    fu = forms.CharField(required=False)
    a = forms.CharField(required=False)
    hands = forms.CharField(required=False)
    log = forms.CharField(required=False)
    min_hands = forms.CharField(required=False)
    limit = forms.CharField(required=False)
    scores = forms.CharField(required=False)


@pytest.mark.django_db
@pytest.mark.parametrize(("layer", "refuse", "status", "detail", "problems"), CASES, ids=[c[0] for c in CASES])
def test_a_page_puts_every_layers_messages_beside_their_fields(
    layer: str, refuse: Callable[[], Any], status: int, detail: str, problems: list[tuple[str, str, str]]
):
    refusal = _refusal(refuse)
    form = _Form({})
    assert form.is_valid()
    with translation.override("en"):
        refusals.on_form(form, refusal)
    beside: dict[str, list[str]] = {}
    for field, _code, message in problems:
        beside.setdefault(refusals.path_field(field) or "__all__", []).append(message)
    assert dict(form.errors) == beside


def test_a_field_the_form_does_not_show_goes_on_top_with_its_path_in_the_readers_language():
    class Hidden(forms.Form):
        fu = forms.CharField(required=False, widget=forms.HiddenInput)

    form = Hidden({})
    assert form.is_valid()
    with translation.override("ko"):
        refusals.on_form(form, Refusal([Problem.of("fu", "fu_20_needs_2_han"), Problem("start.round", "bad")]))
        translated = refusals.texts(Refusal.of("", "fu_20_needs_2_han"))[0]
    assert translated != FU_20
    assert form.non_field_errors() == [f"fu: {translated}", "start.round: bad"]


def test_problems_a_form_has_no_field_for_go_to_the_second_form():
    class Settings(forms.Form):
        name = forms.CharField(required=False)

    class Rules(forms.Form):
        uma = forms.CharField(required=False)

    first, second = Settings({}), Rules({})
    assert first.is_valid()
    assert second.is_valid()
    refusals.on_form(
        first, Refusal([Problem("name", "taken"), Problem("uma", "too big"), Problem("x", "?")]), rest=second
    )
    assert dict(first.errors) == {"name": ["taken"]}
    assert dict(second.errors) == {"uma": ["too big"], "__all__": ["x: ?"]}


def test_a_page_without_a_form_shows_every_problem_not_only_the_first():
    request = RequestFactory().post("/")
    request.session = SessionStore()
    request._messages = FallbackStorage(request)  # type: ignore[attr-defined]
    refusals.as_messages(request, Refusal([Problem("a", "one"), Problem("b", "two")]), extra_tags="table-3")
    assert [(m.message, m.extra_tags) for m in get_messages(request)] == [("one", "table-3"), ("two", "table-3")]


def test_too_many_tries_is_a_429_with_the_wait():
    page = refusals.answer(HttpResponse(status=400), TooManyTries(Problem("code", "wait"), retry_after=90))
    assert (page.status_code, page["Retry-After"]) == (429, "90")
    assert refusals.answer(HttpResponse(status=400), Conflict(Problem("x", "no"))).status_code == 400


def test_a_stale_version_names_no_field_and_gives_the_current_version():
    response = exception_handler(VersionConflict(7), {})
    assert response is not None
    assert (response.status_code, response.data["errors"], response.data["version"]) == (409, [], 7)
    assert response.data["detail"].startswith("the game has changed (now version 7)")


def test_a_prefix_keeps_the_class_and_what_it_carries():
    conflict = GameConflict([Problem("fu", "no", "code")], version=4)
    moved = conflict.at("hands[2]")
    assert (type(moved), moved.version, moved.problems) == (GameConflict, 4, [Problem("hands[2].fu", "no", "code")])
    assert str(moved) == "hands[2].fu: no"
    assert conflict.problems == [Problem("fu", "no", "code")]  # the original is left as it was
    again = pickle.loads(pickle.dumps(TooManyTries([Problem("code", "wait")], retry_after=60)))
    assert (type(again), again.retry_after, again.problems) == (TooManyTries, 60, [Problem("code", "wait")])
