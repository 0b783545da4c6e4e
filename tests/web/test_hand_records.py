"""The entry form <-> hand record conversion (web.hand_records) on every hand of the real games the repository
holds: the example sheets (examples/) and the online game logs (tests/fixtures/online); and the han/fu pairs the
entry page's script lets through are the rule engine's."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, get_type_hints
from urllib.parse import urlencode

import pytest
from django.http import QueryDict
from django.test import Client

from rules.errors import Refusal
from rules.hand_value import KAZOE_HAN, check_han_fu
from rules.presets import build_ruleset
from rules.ruleset import Ruleset
from scoring.logs.read import read_log
from scoring.sheet.record import FU_MAXIMUM, FU_MINIMUM, HandRecord, TilesRecord, map_players
from scoring.sheet.solo import with_result
from tests.web.test_entry import game, referee, url  # noqa: F401 (fixtures)
from tournament.models import Game
from web.forms import HandForm, SeatChoice
from web.hand_records import _TILE_PARTS, hand_record, record_initial

ROOT = Path(__file__).parents[2]
LOGS = ROOT / "tests" / "fixtures" / "online"


# Every real game: the example sheets, and the online logs the importer reads (the lobbies' special rules it refuses
# are left out: tests/scoring/logs/test_real_logs.py).
GAMES = [str(path.relative_to(ROOT)) for path in sorted((ROOT / "examples").glob("*.json"))] + [
    str((LOGS / entry["file"]).relative_to(ROOT))
    for entry in json.loads((LOGS / "index.json").read_text("utf-8"))
    if not any(feature.startswith("special_rule") for feature in entry["features"])
    or "custom_rule_attrs_2023" in entry["features"]
]


def sheet_of(name: str) -> dict[str, Any]:
    """The game's score sheet: the example as it is, the log as the importer writes it."""
    path = ROOT / name
    if path.parent.name == "examples":
        return dict(json.loads(path.read_text(encoding="utf-8")))
    return read_log(path.read_bytes(), name=path.name).sheet()


def posted(initial: dict[str, Any]) -> QueryDict:
    """The form's initial data as the browser sends it back: strings, lists as repeated keys, nothing for None."""
    return QueryDict(urlencode({k: v for k, v in initial.items() if v is not None}, doseq=True))


def round_trip(ruleset: Ruleset, seats: list[SeatChoice], record: HandRecord) -> HandRecord:
    """The record shown in the form for a correction, sent back unchanged, and read again."""
    form = HandForm(posted({**record_initial(record), "version": 1}), seats=seats, ruleset=ruleset)
    assert form.is_valid(), (record, form.errors)
    again = hand_record(form.cleaned_data, mcr=ruleset.is_mcr)
    assert record_initial(again) == record_initial(written(record))
    return again


def written(record: Mapping[str, Any]) -> dict[str, Any]:
    """The record as the form writes it: an empty list (a log's draw with "tenpai": []) is the same hand as none,
    and the form leaves empties out."""
    return {key: value for key, value in record.items() if value != []}


@pytest.mark.parametrize("name", GAMES)
def test_every_hand_of_a_real_game_goes_through_the_form_unchanged(name: str):
    sheet = sheet_of(name)
    ruleset = build_ruleset(key=sheet["ruleset"], overrides=sheet.get("overrides"))
    ids = {player: 101 + seat for seat, player in enumerate(sheet["players"])}  # stored hands name ids
    seats = [SeatChoice(player_id=pid, name=player, wind="") for player, pid in ids.items()]
    records = [map_players(with_result(hand), ids.__getitem__) for hand in sheet["hands"]]
    assert [round_trip(ruleset, seats, record) for record in records] == [written(record) for record in records]


def test_the_real_games_hold_every_kind_of_hand():
    """What the table above covers: riichi and MCR, a multiple ron, draws, chombo, pao, tiles, the solo game."""
    sheets = [sheet_of(name) for name in GAMES]
    hands = [(sheet["ruleset"], hand) for sheet in sheets for hand in sheet["hands"]]
    seen = {key for ruleset, hand in hands for key in (ruleset, hand.get("result"), *hand)}
    seen |= {"wins_pao" for _, hand in hands for win in hand.get("wins", []) if "pao" in win}
    assert {
        "tenhou",
        "wrc-2025",
        "mcr",
        "solo",
        "ron",
        "tsumo",
        "draw",
        "abort",
        "chombo",
        "noten",
        "wins",
        "wins_pao",
        "pao",
        "riichi",
        "tenpai",
        "nagashi",
        "yakuman",
        "fan",
        "flowers",
        "false_wins",
        "tiles",
        "draws",
    } <= seen
    assert len(hands) > 1000


def test_the_form_types_every_part_of_the_tiles():
    """A part added to the tiles' declaration (scoring.sheet.record.TilesRecord) needs its place in the form."""
    assert list(_TILE_PARTS) == list(get_type_hints(TilesRecord))


def test_typed_tiles_are_tidied_and_the_flowers_counted_once():
    mcr = build_ruleset(key="mcr", overrides={})
    seats = [SeatChoice(player_id=pid, name=name, wind="") for pid, name in ((1, "A"), (2, "B"), (3, "C"), (4, "D"))]
    form = HandForm(
        posted(
            {
                "version": 1,
                "result": "tsumo",
                "winner": 1,
                "flowers": 2,
                "tiles_win": " 8s ",
                "tiles_melds": "pon 777z; chi 345m,\n",
            }
        ),
        seats=seats,
        ruleset=mcr,
    )
    assert form.is_valid(), form.errors
    assert hand_record(form.cleaned_data, mcr=True) == {
        "result": "tsumo",
        "winner": 1,
        "tiles": {"concealed": "", "win": "8s", "melds": ["pon 777z", "chi 345m"], "flowers": 2},
    }
    no_tiles = HandForm(
        posted({"version": 1, "result": "tsumo", "winner": 1, "fan": 8, "flowers": 0, "tiles_melds": "pon 777z"}),
        seats=seats,
        ruleset=mcr,
    )
    assert no_tiles.is_valid(), no_tiles.errors
    # Called sets alone are no tiles (neither the concealed part nor the winning tile): the value is the fan.
    assert hand_record(no_tiles.cleaned_data, mcr=True) == {"result": "tsumo", "winner": 1, "fan": 8, "flowers": 0}


def engine_accepts(han: int, fu: int, *, tsumo: bool) -> bool:
    try:
        check_han_fu(han=han, fu=fu, tsumo=tsumo)
    except Refusal:
        return False
    return True


@pytest.mark.django_db
def test_the_page_script_knows_the_han_fu_pairs_the_engine_takes(game: Game, referee: Client):  # noqa: F811
    """offline.js refuses a pair before sending the hand from the page's JSON: it is exactly the engine's."""
    html = referee.get(url(game)).content.decode()
    match = re.search(r'<script id="accepted-fu" type="application/json">(.*?)</script>', html, flags=re.S)
    assert match, "the entry page embeds the fu the engine accepts"
    accepted = json.loads(match.group(1))
    assert set(accepted) == {"ron", "tsumo"}
    for result, fus in accepted.items():
        assert set(fus) == {str(han) for han in range(1, KAZOE_HAN + 1)}
        for han in range(1, KAZOE_HAN + 1):
            for fu in range(FU_MINIMUM, FU_MAXIMUM + 1):
                assert (fu in fus[str(han)]) == engine_accepts(han, fu, tsumo=result == "tsumo"), (result, han, fu)
    # What the script used to write by hand, and the tsumo rule it missed (chiitoitsu tsumo is 3 han).
    assert not {20, 25} & set(accepted["ron"]["1"])
    assert 25 in accepted["ron"]["2"]
    assert 25 not in accepted["tsumo"]["2"]
    assert 25 in accepted["tsumo"]["3"]


def test_no_han_fu_rule_is_written_in_the_scripts():
    scripts = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "web" / "static" / "site").glob("*.js"))
    assert not re.search(r"fu\s*===?\s*2[05]|han\s*[<>=]=*\s*\d", scripts)
