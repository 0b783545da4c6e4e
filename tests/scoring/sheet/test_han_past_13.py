"""Issue 24 item 8: a hand of 14 or more han is "13 or more", in the sheet, the API, the entry form and the importer.

Real cases: a 2023 Tenhou ron of 15 han (riichi + dora), another scorer's kazoe test cases of 14 han, and a
sheet written by a tool that counts dora past 13. The han written stays as written; its value is kazoe yakuman
where the ruleset counts it, sanbaiman where it caps there; absurd values are still refused.
"""

from __future__ import annotations

import json
import re
import sys
from fractions import Fraction
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from scoring.logs.check import check_game
from scoring.logs.read import read_log
from scoring.services.games import game_create
from tests.conftest import client_for
from tests.factories import registered
from tournament.models import Event

NAMES = ["Ann", "Bo", "Cy", "Di"]

# ruleset, result, han, Ann's change (the winner), what the output calls it. Ann is East (dealer) in E1, so
# Bo wins as a non-dealer: a ron on Cy, or a tsumo paid by all.
CASES = [
    ("tenhou", "ron", 15, 32000, "kazoe yakuman"),  # the 2023 Tenhou ron: riichi 1 + dora 14 (issue 24)
    ("tenhou", "tsumo", 14, 32000, "kazoe yakuman"),  # a kazoe test case of 14 han by tsumo: 8000/16000
    ("m-league", "ron", 14, 32000, "kazoe yakuman"),
    ("wrc-2025", "ron", 15, 24000, "sanbaiman"),  # no kazoe: 13 han and more stay sanbaiman
    ("wrc-2025", "tsumo", 20, 24000, "sanbaiman"),  # a tool counting every dora
    ("tenhou", "ron", 99, 32000, "kazoe yakuman"),  # the bound itself
]


def sheet(ruleset: str, result: str, han: int) -> dict[str, Any]:
    hand: dict[str, Any] = {"result": result, "winner": "Bo", "han": han}
    if result == "ron":
        hand["loser"] = "Cy"
    return {"ruleset": ruleset, "players": NAMES, "hands": [hand]}


def score(data: dict[str, Any], *args: str) -> tuple[int, str, str]:
    """``manage.py score_sheet -`` on ``data``: exit status, standard output, standard error."""
    stdout, stderr = StringIO(), StringIO()
    saved, sys.stdin = sys.stdin, StringIO(json.dumps(data))
    try:
        call_command("score_sheet", "-", *args, stdout=stdout, stderr=stderr)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.stdin = saved
    return code, stdout.getvalue(), stderr.getvalue()


@pytest.mark.parametrize(("ruleset", "result", "han", "gain", "limit"), CASES)
def test_the_sheet_takes_any_han_from_13_as_13_or_more(ruleset: str, result: str, han: int, gain: int, limit: str):
    code, out, err = score(sheet(ruleset, result, han), "--format", "json")
    assert (code, err) == (0, "")
    hand = json.loads(out)["hands"][0]
    assert hand["deltas"]["Bo"] == gain
    win = hand["wins"][0] if "wins" in hand else hand
    assert (win["han"], win["limit"]) == (han, limit)  # the han written, not rewritten


@pytest.mark.parametrize("han", [100, 10**9])
def test_absurd_han_is_still_refused(han: int):
    code, out, err = score(sheet("tenhou", "ron", han), "--format", "json")
    assert (code, out) == (2, "")
    assert err.strip() == "hands[0].han: must be at most 99"


def test_the_text_table_shows_the_han_written():
    code, out, _ = score(sheet("tenhou", "ron", 15))
    assert code == 0
    assert "15 han (kazoe yakuman)" in out


# --- the importer: a Tenhou mjlog whose ron is 15 han ------------------------------------------------------

# A whole game in Tenhou's mjlog form, written for this test (no real log with 14+ han is among the fixtures):
# a hanchan lobby (GO type 0xA9), Bo (seat 1) declares riichi and rons Cy for riichi 1 + dora 14, ten="40,32000,5"
# (Tenhou marks a counted yakuman with limit 5 and no yakuman list); Cy busts at −7000 and the game ends.
FIFTEEN_HAN_LOG = (
    b'<mjloggm ver="2.3"><GO type="169" lobby="0"/>'
    b'<UN n0="Ann" n1="Bo" n2="Cy" n3="Di" dan="0,0,0,0" rate="1500,1500,1500,1500" sx="M,M,M,M"/>'
    b'<TAIKYOKU oya="0"/>'
    b'<INIT seed="0,0,0,1,2,3" ten="250,250,250,250" oya="0" hai0="0" hai1="1" hai2="2" hai3="3"/>'
    b'<REACH who="1" step="1"/><REACH who="1" ten="250,240,250,250" step="2"/>'
    b'<AGARI ba="0,1" hai="0" machi="0" ten="40,32000,5" yaku="1,1,52,14" doraHai="0" who="1" fromWho="2" '
    b'sc="250,0,240,330,250,-320,250,0" owari="250,5.0,570,67.0,-70,-57.0,250,-15.0"/>'
    b"</mjloggm>"
)


def test_a_tenhou_log_with_a_15_han_ron_reads_and_checks_hand_by_hand():
    game = read_log(FIFTEEN_HAN_LOG, name="2023010100gm-00a9-0000-00000000.xml")
    assert game.hands[0] == {"result": "ron", "winner": "Bo", "loser": "Cy", "han": 15, "riichi": ["Bo"]}
    checked = check_game(game)
    assert checked.differences == []
    assert checked.scored is not None
    rows = sorted(checked.scored.final_rows(), key=lambda r: r.player)
    assert [(r.score, r.points) for r in rows] == [
        (25000, Fraction(5)),
        (57000, Fraction(67)),
        (-7000, Fraction(-57)),
        (25000, Fraction(-15)),
    ]  # owari


# --- the API and the entry form ----------------------------------------------------------------------------


@pytest.fixture
def tenhou_game(referee: User) -> Any:
    """A game of a Tenhou-rules event that ``referee`` scores."""
    event = Event.objects.create(
        name="Online", slug="online", ruleset_key="tenhou", public=True, status=Event.Status.RUNNING
    )
    event.referees.add(referee)
    players = registered(event, *NAMES)
    return game_create(event=event, player_ids=[p.pk for p in players])


def _ids(game: Any) -> dict[str, int]:
    return {s.player.name: s.player_id for s in game.seats.select_related("player")}


@pytest.mark.django_db
def test_the_api_records_15_han_and_refuses_100(tenhou_game: Any, referee: User):
    p, api = _ids(tenhou_game), client_for(referee)
    path = f"/api/v1/games/{tenhou_game.pk}/hands/"
    refused = api.post(path, {"result": "ron", "winner": p["Bo"], "loser": p["Cy"], "han": 100}, format="json")
    assert refused.status_code == 400
    assert [e["field"] for e in refused.json()["errors"]] == ["han"]
    taken = api.post(path, {"result": "ron", "winner": p["Bo"], "loser": p["Cy"], "han": 15}, format="json")
    assert taken.status_code == 201, taken.content
    tenhou_game.refresh_from_db()
    assert tenhou_game.hands.get().record["han"] == 15
    hand = api.get(f"/api/v1/games/{tenhou_game.pk}/").json()["result"]["hands"][0]
    assert (hand["han"], hand["limit"], hand["deltas"]["Bo"]) == (15, "kazoe yakuman", 32000)


@pytest.mark.django_db
def test_the_entry_form_takes_13_or_more_and_shows_a_stored_15(tenhou_game: Any, referee: User):
    client = Client()
    client.force_login(referee)
    p, url = _ids(tenhou_game), f"/games/{tenhou_game.pk}/entry/"
    page = client.get(url).content.decode()
    assert '<input type="radio" name="han" value="13"' in page
    assert ">13+<" in re.sub(r"\s+", "", page)
    assert 'name="han" value="14"' not in page  # one chip for 13 and more, not 99 chips
    response = client.post(
        url,
        {
            "action": "save",
            "version": tenhou_game.version,
            "result": "ron",
            "winner": p["Bo"],
            "loser": p["Cy"],
            "han": 15,
        },
    )
    assert response.status_code == 302
    assert tenhou_game.hands.get().record["han"] == 15
    edit = client.get(url, {"edit": 0}).content.decode()
    assert '<input type="radio" name="han" value="15"' in edit
