"""The round a hand was played in, as each language says it: the pages show 東1局, 동1국, 东1局 or "East 1" where
the stored result, the API and the score sheets keep "E1"; a hand's summary joins its parts with each language's
punctuation."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import cast

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.sheet.describe import describe, value_text
from scoring.sheet.output import ResultHand
from tests.factories import EventFactory
from web.round_words import round_label
from web.rules_words import ruleset_summary

LABELS = {
    "en": {
        "E1": "East 1",
        "S4": "South 4",
        "W2": "West 2",
        "N3": "North 3",
        "F5": "Flower 5",
        "B1": "White 1",
        "G6": "Green 6",
        "R7": "Red 7",
        "E10": "East 10",
    },
    "ja": {
        "E1": "東1局",
        "S4": "南4局",
        "W2": "西2局",
        "N3": "北3局",
        "F5": "花5局",
        "B1": "白1局",
        "G6": "發6局",
        "R7": "中7局",
        "E10": "東10局",
    },
    "ko": {
        "E1": "동1국",
        "S4": "남4국",
        "W2": "서2국",
        "N3": "북3국",
        "F5": "꽃5국",
        "B1": "백1국",
        "G6": "발6국",
        "R7": "중7국",
        "E10": "동10국",
    },
    "zh-hans": {
        "E1": "东1局",
        "S4": "南4局",
        "W2": "西2局",
        "N3": "北3局",
        "F5": "花5局",
        "B1": "白1局",
        "G6": "发6局",
        "R7": "中7局",
        "E10": "东10局",
    },
}


def chinese_winds_missing(language: str) -> bool:
    """The Chinese catalogue gets its seat winds on its own branch: until then its round labels cannot be checked."""
    with translation.override(language):
        return language == "zh-hans" and pgettext("seat wind", "East") == "East"


@pytest.mark.parametrize("language", list(LABELS))
def test_round_label_in_each_language(language: str) -> None:
    if chinese_winds_missing(language):
        pytest.skip("the Chinese catalogue has no seat winds yet")
    with translation.override(language):
        assert {label: round_label(label) for label in LABELS[language]} == LABELS[language]


@pytest.mark.parametrize("label", ["", "X1", "E", "E1a", "e1", None])
def test_a_label_of_no_known_round_is_shown_as_it_is(label: str | None) -> None:
    with translation.override("ja"):
        assert round_label(label) == ("" if label is None else label)


HAND = {
    "result": "ron",
    "loser": 2,
    "riichi": [0, 1],
    "wins": [{"winner": 0, "han": 5, "fu": None, "limit": "mangan"}, {"winner": 1, "han": 1, "fu": 30}],
}
NAMES = ["Ann", "Bo", "Cy", "Di"]


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Ron on Cy: Ann 5 han (mangan), Bo 1 han 30 fu; riichi: Ann, Bo"),
        ("ko", "Cy 방총: Ann 5판 (만관), Bo 1판 30부; 리치: Ann, Bo"),
        ("ja", "Cyからロン: Ann 5飜（満貫）、Bo 1飜 30符。リーチ: Ann、Bo"),
    ],
)
def test_a_hand_summary_uses_the_languages_punctuation(language: str, text: str) -> None:
    with translation.override(language):
        assert describe(cast(ResultHand, HAND), NAMES, translation) == text  # only what describe reads


def test_a_value_with_its_limit_in_chinese_has_full_width_brackets() -> None:
    with translation.override("zh-hans"):
        assert value_text({"han": 5, "limit": "mangan"}, translation).endswith("）")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "overrides", "length", "ruleset"),
    [
        ("en", {}, "East and South (hanchan)", "wrc-2025"),
        ("ja", {}, "半荘戦（東南戦）", "wrc-2025"),
        ("ko", {"round_winds": 1}, "동풍전", "wrc-2025 (변경 있음)"),
        ("ja", {"round_winds": 4}, "一荘戦（東南西北）", "wrc-2025（変更あり）"),
    ],
)
def test_an_events_length_is_said_as_players_name_it(
    language: str, overrides: dict[str, int], length: str, ruleset: str
) -> None:
    event = EventFactory.create(ruleset_overrides=overrides)
    with translation.override(language):
        rows = dict(ruleset_summary(event))
        assert (rows[_("Length")], rows[_("Ruleset")]) == (length, ruleset)


@pytest.mark.parametrize(
    ("language", "late"), [("en", "time is up (+%s)"), ("ja", "時間切れ（+%s）"), ("ko", "시간 종료 (+%s)")]
)
def test_the_clocks_overtime_is_worded_in_the_readers_language(language: str, late: str) -> None:
    clock = SimpleNamespace(
        clock_started=True,
        starts_at=datetime(2026, 5, 1, 9, tzinfo=UTC),
        ends_at=datetime(2026, 5, 1, 10, 30, tzinfo=UTC),
        time_limit_minutes=90,
    )
    with translation.override(language):
        html = render_to_string("pages/_clock.html", {"round": clock})
    assert f'data-over-format="{late}"' in html
