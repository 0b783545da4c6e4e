"""Real refusals of the rule engine, one table for the command line, the API and the referee's page.

Each case is a game (its ruleset and the hands before, players by name: Ann, Bo, Cy, Di in seat order, Ann the
first dealer) and the hand that is refused, with the fields the refusal names and the message code of each.
``cli_lines`` runs the score_sheet command on the same sheet: the English the pages and the API show must be
what it prints.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

NAMES = ("Ann", "Bo", "Cy", "Di")


@dataclass(frozen=True)
class Refusal:
    id: str
    hand: dict[str, Any]  # players by name
    codes: dict[str, str]  # field of the hand -> message code
    ruleset: str = "wrc-2025"
    before: tuple[dict[str, Any], ...] = field(default=())
    korean: dict[str, str] = field(default_factory=dict)  # field -> Korean message, where the test spells it out
    page: bool = True  # False: the referee's form has no such choice for this ruleset (the API only)


# Tenhou rules: a score below 0 ends the game, so a riichi needs 1000 points. Ann (dealer) rons Bo a haneman
# (18000: Bo 25000 -> 7000), then 3 han 30 fu with one honba (5800 + 300: Bo 900).
_BO_AT_900 = (
    {"result": "ron", "winner": "Ann", "loser": "Bo", "han": 6, "fu": 30},
    {"result": "ron", "winner": "Ann", "loser": "Bo", "han": 3, "fu": 30},
)

REFUSALS = (
    Refusal(
        "1 han 20 fu ron",
        {"result": "ron", "winner": "Bo", "loser": "Cy", "han": 1, "fu": 20},
        {"fu": "fu_20_needs_2_han"},
        korean={"fu": "20부는 2판 이상에서만 가능합니다 (핑후와 멘젠 쯔모)"},
    ),
    Refusal(
        "a ron without loser",
        {"result": "ron", "winner": "Bo", "han": 3, "fu": 40},
        {"loser": "required_for"},
        korean={"loser": "론에는 필수 항목입니다"},
    ),
    Refusal(
        "an empty ron",
        {"result": "ron"},
        {"winner": "winner_required_ron", "loser": "required_for", "han": "win_needs_value"},
        korean={"han": "화료에는 판과 부, 또는 역만이 필요합니다"},
    ),
    Refusal(
        "25 fu 1 han ron",
        {"result": "ron", "winner": "Bo", "loser": "Cy", "han": 1, "fu": 25},
        {"fu": "fu_25_ron"},
        korean={"fu": "25부는 론이라면 2판 이상에서만 가능합니다 (치또이츠)"},
    ),
    Refusal(
        "25 fu 2 han tsumo",
        {"result": "tsumo", "winner": "Bo", "han": 2, "fu": 25},
        {"fu": "fu_25_tsumo"},
        korean={"fu": "25부는 쯔모라면 3판 이상에서만 가능합니다 (치또이츠)"},
    ),
    Refusal(
        "1 han without fu",
        {"result": "ron", "winner": "Bo", "loser": "Cy", "han": 1},
        {"fu": "han_needs_fu"},
        korean={"fu": "1판에는 부가 필요합니다 (5판부터는 부를 생략할 수 있습니다)"},
    ),
    Refusal(
        "a win on one's own discard",
        {"result": "ron", "winner": "Bo", "loser": "Bo", "han": 3, "fu": 40},
        {"winner": "win_on_own_discard"},
        korean={"winner": "Bo 선수는 자기 버림패로 화료할 수 없습니다 (방총자와 같은 선수입니다)"},
    ),
    Refusal(
        "yakuman and han",
        {"result": "tsumo", "winner": "Bo", "yakuman": 1, "han": 3, "fu": 40},
        {"yakuman": "yakuman_and_han"},
    ),
    Refusal(
        "pao without yakuman",
        {"result": "ron", "winner": "Bo", "loser": "Cy", "han": 3, "fu": 40, "pao": "Di"},
        {"pao": "pao_only_yakuman"},
    ),
    Refusal(
        "an abortive draw where there are none",
        {"result": "abort", "reason": "four_winds"},
        {"result": "no_abortive_draws"},
        korean={"result": "이 규칙에는 도중유국이 없습니다"},
        page=False,
    ),
    Refusal(
        "nagashi mangan where there is none",
        {"result": "draw", "tenpai": ["Ann"], "nagashi": ["Ann"]},
        {"nagashi": "no_nagashi_mangan"},
        page=False,
    ),
    Refusal(
        "four riichi without four",
        {"result": "abort", "reason": "four_riichi", "riichi": ["Ann", "Bo"]},
        {"riichi": "four_riichi_needs_all"},
        ruleset="tenhou",
    ),
    Refusal(
        "a riichi with 900 points",
        {"result": "draw", "tenpai": ["Bo"], "riichi": ["Bo"]},
        {"riichi": "riichi_cannot_pay"},
        ruleset="tenhou",
        before=_BO_AT_900,
        korean={"riichi": "Bo 선수는 900점이라서 1000점짜리 리치봉을 낼 수 없습니다"},
    ),
)


def cases(*, page: bool = False) -> list[Any]:
    """The table as test parameters; ``page``: only the refusals the referee's page can make."""
    return [pytest.param(r, id=r.id) for r in REFUSALS if r.page or not page]


def sheet(refusal: Refusal) -> dict[str, Any]:
    return {"ruleset": refusal.ruleset, "players": list(NAMES), "hands": [*refusal.before, refusal.hand]}


def cli_lines(refusal: Refusal, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """What ``manage.py score_sheet`` prints for the sheet (it exits 2, one line per problem)."""
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(sheet(refusal)), encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        call_command("score_sheet", str(path))
    assert exited.value.code == 2
    return capsys.readouterr().err.splitlines()


def cli_messages(refusal: Refusal, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """The command line's message for each field of the refused hand."""
    prefix = f"hands[{len(refusal.before)}]."
    out = {}
    for line in cli_lines(refusal, tmp_path, capsys):
        where, _, message = line.partition(": ")
        assert where.startswith(prefix), line
        out[where[len(prefix) :]] = message
    return out
