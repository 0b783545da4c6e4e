"""Issue 21: each player's counts in a game (``GameStats``), on games whose numbers are counted here by hand.

The first game is docs/score-sheet.md's example, played under Tenhou's rules (double ron, pao, abortive draws and
nagashi mangan; busting off, so that all seven hands are played), the second the same hands under WRC's head
bump, the third examples/mcr-demo.json. Every expected number below is read off the hands as written, with the
definitions of ``scoring.sheet.seat_counts``.
"""

from __future__ import annotations

import importlib
import json
from decimal import Decimal
from typing import Any

import pytest
from django.apps import apps

from scoring.models import GameResult, GameStats
from scoring.services.game_stats import stats_rebuild
from scoring.services.hands import game_delete_hand, game_record_hand
from scoring.services.rounds import game_end_by_time, game_reopen
from scoring.sheet.output import Result, result_json
from scoring.sheet.reader import score_sheet
from scoring.sheet.record import HandRecord
from scoring.sheet.seat_counts import places, seat_counts
from tests.factories import EventFactory, played, registered

HANDS: list[HandRecord] = [
    {"result": "ron", "winner": "Ann", "loser": "Cy", "han": 3, "fu": 40, "riichi": ["Ann"]},  # dealer: 7700
    {"result": "tsumo", "winner": "Bo", "han": 1, "fu": 30},  # 500 + 300 + 300 (honba apart)
    {"result": "draw", "tenpai": ["Ann", "Di"], "riichi": ["Di"]},
    # Cy deals (E3): Di's yakuman, Cy liable (16000 + 16000), and Ann's 2 han 30 fu (2000), both on Bo.
    {
        "result": "ron",
        "loser": "Bo",
        "wins": [{"winner": "Ann", "han": 2, "fu": 30}, {"winner": "Di", "yakuman": 1, "pao": "Cy"}],
    },
    {"result": "abort", "riichi": ["Ann"]},
    {"result": "chombo", "player": "Cy"},  # not a hand: it is played again
    {"result": "draw", "tenpai": [], "nagashi": ["Bo"]},  # an exhaustive draw nobody was tenpai at
]
FIELDS = (
    "hands",
    "wins",
    "tsumo_wins",
    "deal_ins",
    "riichi",
    "riichi_wins",
    "draws",
    "tenpai",
    "chombo",
    "win_points",
    "han",
    "han_wins",
    "deal_in_points",
    "yakuman_hands",
)
TENHOU = {
    #      hands wins tsumo deal-ins riichi r.wins draws tenpai chombo win pts han h.wins deal-in pts yakuman
    "Ann": (6, 2, 0, 0, 2, 1, 2, 1, 0, 9700, 5, 2, 0, []),
    "Bo": (6, 1, 1, 1, 0, 0, 2, 0, 0, 1100, 1, 1, 18000, []),
    "Cy": (6, 0, 0, 1, 0, 0, 2, 0, 1, 0, 0, 0, 7700, []),
    "Di": (6, 1, 0, 0, 1, 0, 2, 1, 0, 32000, 0, 0, 0, [3]),
}
# WRC: head bump, so only Di (first after Bo) wins hand 3; no abortive draws and no nagashi, so those two hands
# are left out (the chombo is then hand 4).
WRC = {
    "Ann": (4, 1, 0, 0, 1, 1, 1, 1, 0, 7700, 3, 1, 0, []),
    "Bo": (4, 1, 1, 1, 0, 0, 1, 0, 0, 1100, 1, 1, 16000, []),
    "Cy": (4, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 7700, []),
    "Di": (4, 1, 0, 0, 1, 0, 1, 1, 0, 32000, 0, 0, 0, [3]),
}
NAMES = ("Ann", "Bo", "Cy", "Di")


def result_of(sheet: dict[str, Any]) -> Result:
    stored: Result = json.loads(json.dumps(result_json(score_sheet(sheet))))
    return stored


def counted(result: Result) -> dict[str, tuple[Any, ...]]:
    return {NAMES[c.seat]: tuple(c.as_dict()[f] for f in FIELDS) for c in seat_counts(result)}


@pytest.mark.parametrize(
    ("ruleset", "hands", "expected"),
    [
        ("tenhou", HANDS, TENHOU),
        ("wrc-2025", [h for h in HANDS if h["result"] != "abort" and "nagashi" not in h], WRC),
    ],
)
def test_each_seat_is_counted_as_its_hands_say(
    ruleset: str, hands: list[HandRecord], expected: dict[str, tuple[Any, ...]]
):
    result = result_of({"ruleset": ruleset, "overrides": {"busting": False}, "players": list(NAMES), "hands": hands})
    assert counted(result) == expected


def test_places_are_the_final_ranks_by_seat():
    result = result_of({"ruleset": "tenhou", "overrides": {"busting": False}, "players": list(NAMES), "hands": HANDS})
    # Di 58400, Ann 34600, Bo 16900, Cy -10900 (the chombo's 8000 and Di's pao took Cy below zero).
    assert places(result) == {3: 1, 0: 2, 1: 3, 2: 4}


def test_an_mcr_game_counts_wins_self_draws_deal_ins_fan_and_false_wins():
    with open("examples/mcr-demo.json", encoding="utf-8") as sheet:
        result = result_of(json.load(sheet))
    numbers = {
        ["An", "Bai", "Chen", "Dong"][c.seat]: (
            c.hands,
            c.wins,
            c.tsumo_wins,
            c.deal_ins,
            c.fan,
            c.false_wins,
            c.deal_in_points,
        )
        for c in seat_counts(result)
    }
    assert numbers == {
        "An": (5, 1, 0, 1, 10, 0, 32),  # won 10 fan on Bai; paid 8 + 24 to Dong
        "Bai": (5, 1, 1, 1, 13, 0, 18),  # 12 fan and a flower by self-draw; paid 8 + 10 to An
        "Chen": (5, 1, 1, 0, 10, 0, 0),  # 8 fan and two flowers by self-draw
        "Dong": (5, 1, 0, 0, 24, 1, 0),  # a false win at the draw, then 24 fan on An
    }


def test_a_game_without_hands_counts_no_hands():
    result = result_of(
        {
            "ruleset": "wrc-2025",
            "players": list(NAMES),
            "hands": [],
            "end": "time",
            "start": {"scores": [40000, 30000, 20000, 10000]},
        }
    )
    assert [c.hands for c in seat_counts(result)] == [0, 0, 0, 0]
    assert places(result) == {0: 1, 1: 2, 2: 3, 3: 4}


# --- the rows, written with the result --------------------------------------------------------------------------


def by_id(hands: list[HandRecord], ids: dict[str, int]) -> list[HandRecord]:
    from scoring.sheet.record import map_players

    return [map_players(h, lambda name: ids[name]) for h in hands]


@pytest.mark.django_db
def test_the_rows_are_written_with_the_result_and_follow_every_correction():
    event = EventFactory.create(ruleset_key="tenhou", ruleset_overrides={"busting": False})
    players = registered(event, *NAMES)
    ids = {p.name: p.pk for p in players}
    game = played(event, players, by_id(HANDS, ids))
    assert not GameStats.objects.filter(game=game).exists()  # a game still being played is in no statistic
    game = game_end_by_time(game=game, user=None)
    rows = {s.player.name: s for s in GameStats.objects.filter(game=game).select_related("player")}
    assert {name: tuple(getattr(rows[name], f) for f in FIELDS) for name in NAMES} == TENHOU
    results = {r.player_id: r for r in GameResult.objects.filter(game=game)}
    for row in rows.values():  # the result row's numbers, beside the counts
        result = results[row.player_id]
        assert (row.rank, row.score, row.points, row.finished) == (
            result.rank,
            result.score,
            result.points,
            result.finished,
        )
    assert (rows["Di"].place, rows["Di"].yakuman, rows["Cy"].busted, rows["Ann"].busted) == (1, 1, True, False)
    assert rows["Ann"].ruleset == "tenhou"
    assert not rows["Ann"].mcr

    game = game_reopen(game=game, user=None)
    assert not GameStats.objects.filter(game=game).exists()  # reopened: out of the statistics until it ends again
    game_delete_hand(game_id=game.pk, index=3, user=None, version=None)  # the double ron taken back
    game = game_record_hand(
        game_id=game.pk, record={"result": "tsumo", "winner": ids["Cy"], "han": 2, "fu": 30}, user=None, version=None
    )
    game_end_by_time(game=game, user=None)
    after = {s.player.name: s for s in GameStats.objects.filter(game=game).select_related("player")}
    assert (after["Di"].wins, after["Di"].yakuman_hands, after["Bo"].deal_ins, after["Ann"].hands) == (0, [], 0, 6)
    assert (after["Cy"].tsumo_wins, after["Cy"].finished) == (1, True)
    assert GameStats.objects.filter(game=game).count() == 4


@pytest.mark.django_db
def test_the_migration_and_the_rebuild_count_what_the_writes_counted():
    event = EventFactory.create(ruleset_key="tenhou", ruleset_overrides={"busting": False})
    players = registered(event, *NAMES)
    game = played(event, players, by_id(HANDS, {p.name: p.pk for p in players}), end=True)
    written = list(GameStats.objects.filter(game=game).order_by("player_id").values())
    migration = importlib.import_module("scoring.migrations.0019_game_stats")
    for rebuild in (lambda: migration.fill_stats(apps, None), stats_rebuild):
        GameStats.objects.all().delete()
        rebuild()
        again = list(GameStats.objects.filter(game=game).order_by("player_id").values())
        assert [{k: v for k, v in row.items() if k != "id"} for row in again] == [
            {k: v for k, v in row.items() if k != "id"} for row in written
        ]
    assert written[0]["points"] == GameResult.objects.get(game=game, player=written[0]["player_id"]).points
    assert isinstance(written[0]["points"], Decimal)
