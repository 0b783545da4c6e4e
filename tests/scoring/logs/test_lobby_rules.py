"""Issue 24 item 9: a Tenhou private or tournament lobby's own rules, read from its log (GO csrule).

The real log is dnovikoff/tenhou ``log/test_data/newattr2023.xml`` (tests/fixtures/online/tenhou/dnovikoff-12.xml,
origin in tests/fixtures/online/README.md): GO type 0x101 in lobby 1 declaring 30000 start, 30000 return and uma
15/5/−5/−15; its owari is 29300 −10.7, 30700 +10.7, 29300 −10.7, 30700 +10.7 (tied players share uma).
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from rules.errors import Refusal
from scoring.logs.check import check_game
from scoring.logs.lobby import lobby_overrides
from scoring.logs.read import read_log
from scoring.models import GameResult
from tests.conftest import client_for
from tests.factories import EventFactory
from tournament.models import Game

LOG = Path(__file__).parents[2] / "fixtures" / "online" / "tenhou" / "dnovikoff-12.xml"
CSRULE = re.search(r'csrule="([^"]*)"', LOG.read_text(encoding="utf-8"))[1]  # type: ignore[index]
OWARI = [(29300, Fraction("-10.7")), (30700, Fraction("10.7")), (29300, Fraction("-10.7")), (30700, Fraction("10.7"))]


def test_the_log_declares_its_lobby_rules_and_is_read_under_them():
    game = read_log(LOG.read_bytes(), name=LOG.name)
    assert (game.ruleset, game.overrides) == (
        "tenhou",
        {
            "round_winds": 1,
            "start_points": 30000,
            "return_points": 30000,
            "goal_points": 30000,
            "uma": [15, 5, -5, -15],
            "ties": "split",
            "final_rounding": "exact",
        },
    )
    checked = check_game(game)
    assert checked.differences == []  # hand by hand, as for any other log
    assert checked.scored is not None
    rows = sorted(checked.scored.final_rows(), key=lambda r: r.player)
    assert [(r.score, r.points) for r in rows] == OWARI


def fields(**changed: str) -> str:
    values = CSRULE.split(",")
    for index, value in changed.items():
        values[int(index.removeprefix("f"))] = value
    return ",".join(values)


# csrule, players, the fields named, words of the message
REFUSED = [
    (fields(f10="1"), 4, ["GO csrule[10]"], "not decoded"),
    (fields(f2="7", f37="x"), 4, ["GO csrule[2]", "GO csrule[37]"], "not decoded"),
    (fields(f24="10", f25="-10", f26="-20"), 4, ["GO csrule[21:36]"], "five sets"),
    (fields(f4="lots"), 4, ["GO csrule[4]"], "not a whole number"),
    (CSRULE, 3, ["GO csrule"], "three-player"),
    ("0FE0BF0B,0000001F,,,30000", 4, ["GO csrule"], "fewer than"),
]


@pytest.mark.parametrize(("csrule", "players", "named", "words"), REFUSED)
def test_what_a_lobby_declares_and_no_ruleset_here_expresses_is_refused_by_name(
    csrule: str, players: int, named: list[str], words: str
):
    with pytest.raises(Refusal) as caught:
        lobby_overrides(csrule, players=players)
    assert [p.field for p in caught.value.problems] == named
    assert all(words in p.message for p in caught.value.problems[:1])


def test_other_start_and_uma_are_taken_as_declared():
    declared = fields(
        f4="25000",
        f5="30000",
        f6="30000",
        **{f"f{21 + 3 * k + j}": v for k in range(5) for j, v in enumerate(("10", "-10", "-20"))},
    )
    assert lobby_overrides(declared, players=4) == {
        "start_points": 25000,
        "return_points": 30000,
        "goal_points": 30000,
        "uma": [20, 10, -10, -20],
        "ties": "split",
    }


def test_a_lobby_log_without_its_rules_is_still_refused():
    data = LOG.read_bytes().replace(b' csrule="' + CSRULE.encode() + b'"', b"")
    with pytest.raises(Refusal) as caught:
        read_log(data, name=LOG.name)
    assert caught.value.problems[0].field == "GO"
    assert "special rules" in caught.value.problems[0].message


@pytest.mark.django_db
def test_the_lobby_game_is_imported_by_the_command_and_the_api(capsys: Any):
    organiser = User.objects.create_user("org", password="x")
    EventFactory.create(slug="online", ruleset_key="wrc-2025")
    EventFactory.create(slug="online-api", ruleset_key="wrc-2025", organisers=[organiser])
    call_command("import_log", "online", str(LOG), "--create-players")
    assert "imported as game" in capsys.readouterr().out
    answer = client_for(organiser).post(
        "/api/v1/events/online-api/games/import?create_players=true", LOG.read_bytes(), content_type="application/xml"
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["results"][0]["outcome"] == "imported"
    for slug in ("online", "online-api"):
        game = Game.objects.get(event__slug=slug)
        assert (game.status, game.log_check, game.ruleset_key) == (
            Game.Status.FINISHED,
            Game.LogCheck.MATCHES,
            "tenhou",
        )
        results = sorted((r.score, r.points) for r in GameResult.objects.filter(game=game))
        assert results == sorted(
            (s, Decimal(str(p))) for s, p in ((29300, "-10.7"), (30700, "10.7"), (29300, "-10.7"), (30700, "10.7"))
        )
