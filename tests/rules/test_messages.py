"""The engine's message catalogue (rules.messages): every refusal by code, each code in English and Korean.

A new code cannot be added without its Korean: the catalogue test reads the compiled Korean catalogue (``make
messages``), where an entry missing or left fuzzy is not translated.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.utils import translation

from rules import messages
from rules.errors import Problem, Refusal
from rules.messages import MESSAGES, MULTIPLE_YAKUMAN, WORDS, render, word
from scoring.messages import message as translated

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted({*MESSAGES.values(), *WORDS.values(), MULTIPLE_YAKUMAN})
_PLACEHOLDER = re.compile(r"%\((\w+)\)[sr]")


@pytest.mark.parametrize("template", TEMPLATES)
def test_every_template_has_a_korean_translation_with_the_same_placeholders(template: str):
    with translation.override("ko"):
        korean = translation.gettext(template)
    assert korean != template, f"no Korean for {template!r} (run make messages; a fuzzy entry does not count)"
    assert not korean.isascii()
    assert sorted(_PLACEHOLDER.findall(korean)) == sorted(_PLACEHOLDER.findall(template))


def test_every_code_the_engine_raises_is_in_the_catalogue():
    """Problem.of / Refusal.of with a literal code, in rules/ and the score sheet's reader."""
    sources = [*ROOT.joinpath("rules").rglob("*.py"), *ROOT.joinpath("scoring", "sheet").glob("*.py")]
    used = {code for path in sources for code in _codes(ast.parse(path.read_text(encoding="utf-8")))}
    assert used, "the pattern finds the codes"
    assert used - set(MESSAGES) == set()
    assert {"fu_20_needs_2_han", "riichi_cannot_pay", "below_min_han", "unknown_player"} <= used


def _codes(tree: ast.AST) -> Iterator[str]:
    """The literal codes of ``X.of(field, "code", ...)`` calls."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Attribute) and node.func.attr == "of" and len(node.args) > 1:
            code = node.args[1]
        else:
            continue
        if isinstance(code, ast.Constant) and isinstance(code.value, str):
            yield code.value
        elif isinstance(code, ast.IfExp):  # "fu_25_tsumo" if tsumo else "fu_25_ron"
            yield from (str(branch.value) for branch in (code.body, code.orelse) if isinstance(branch, ast.Constant))


def test_the_hand_checks_speak_only_by_code():
    """No message of a hand's rules is written out where it is raised (the seating package keeps its own)."""
    for path in ROOT.joinpath("rules").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "Refusal.one(" not in source, path.name
        assert not re.search(r"\bProblem\([^()]*, f?[\"']", source), path.name  # a message written out


def test_a_problem_renders_its_english_from_the_code():
    problem = Problem.of("riichi", "riichi_cannot_pay", player="Bo", points=900, stick=1000)
    assert str(problem) == "riichi: Bo has 900 points and cannot pay the 1000-point riichi stick"
    assert problem.at("hands[2]") == Problem(
        "hands[2].riichi", problem.message, "riichi_cannot_pay", {"player": "Bo", "points": 900, "stick": 1000}
    )
    assert str(Refusal.of("fu", "no_such_fu", fu=35)) == (
        "fu: 35 fu does not exist: fu are 20, 25 or a multiple of 10 up to 110"
    )
    assert render("yakuman_only_kazoe", {"han": 13}) == (
        "only yakuman may win under this ruleset (13 han or more counts)"
    )


def test_the_pages_translate_a_coded_problem_and_leave_any_other_as_written():
    problem = Problem.of("fu", "han_needs_fu", han=3)
    with translation.override("ko"):
        assert translated(problem) == "3판에는 부가 필요합니다 (5판부터는 부를 생략할 수 있습니다)"
        assert translated(Problem("index", "this game has hands 0 to 2")) == "this game has hands 0 to 2"
        # Another system's code with its own message (DRF's "required"): its words, not the engine's.
        assert translated(Problem("event", "This field is required.", "required")) == "This field is required."
        assert translated(Problem.of("", "game_over", end_reason="bust")) == (
            "대국이 이미 끝났습니다 (토비). 더 이상 국을 추가할 수 없습니다"
        )
    with translation.override("en"):
        assert translated(problem) == problem.message == "3 han needs fu (fu may be left out from 5 han up)"


@pytest.mark.parametrize(
    ("stored", "english", "korean"),
    [
        ("mangan", "mangan", "만관"),
        ("kazoe yakuman", "kazoe yakuman", "헤아림 역만"),
        ("2x yakuman", "2x yakuman", "2배 역만"),
        ("end of the game", "end of the game", "규정 국수 완료"),
        ("bust", "bust", "토비"),
        ("four_winds", "four_winds", "사풍연타"),
        ("a player's name", "a player's name", "a player's name"),
    ],
)
def test_the_engines_words_are_stored_in_english_and_shown_in_the_readers_language(
    stored: str, english: str, korean: str
):
    assert word(stored) == english
    with translation.override("ko"):
        assert word(stored, translation.gettext) == korean
    assert messages.multiple_yakuman(3) == "3x yakuman"
