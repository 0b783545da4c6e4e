"""Pantheon's numeric test cases replayed through our engine.

Source: MahjongPantheon/pantheon, Mimir/tests/helpers/PointsCalcTest.php and
Mimir/tests/helpers/SessionStateTest.php. Pantheon numbers players 1..4; here
they are 0..3 (Pantheon's player 1 = our 0 = the first dealer). Every
expectation is copied from Pantheon, never adjusted to the engine.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.game import play_game, play_hand
from rules.hands import Abort, Chombo, Draw, Ron, Tsumo, Win
from rules.presets import build_ruleset
from rules.ruleset import Ruleset
from rules.state import start_state

R = frozenset  # riichi / tenpai sets, 0-based players

KIRIAGE = {"kiriage_mangan": True}
NO_KAZOE = {"kazoe_yakuman": False}
NAGASHI = {"nagashi_mangan": True}
ABORTIVE = {"abortive_draws": True}
REVERSE_MANGAN = {"chombo_payment": "reverse_mangan"}


def ron(winner: int, loser: int, han: int = 0, fu: int | None = None, **win: Any) -> Ron:
    return Ron(loser=loser, wins=(Win(winner=winner, han=han, fu=fu, **win),))


def tsumo(winner: int, han: int = 0, fu: int | None = None, **win: Any) -> Tsumo:
    return Tsumo(win=Win(winner=winner, han=han, fu=fu, **win))


# --- Pantheon PointsCalcTest.php ---------------------------------------------
# Scores start at 0. The round sets the dealer: E1 = Pantheon's player 1 (our
# 0), E2 = player 2 (our 1). Pantheon's "not dealer" rons are played in E2.
# Columns: overrides, round, honba, riichi sticks on the table, result, deltas.
POINTS_CALC_CASES = [
    # testRonBasic / testRonBasicDealer: winner 1, loser 3, 2 han 50 fu
    pytest.param({}, "E2", 0, 0, ron(0, 2, 2, 50), (3200, 0, -3200, 0), id="ron-2h50f"),
    pytest.param({}, "E1", 0, 0, ron(0, 2, 2, 50), (4800, 0, -4800, 0), id="ron-dealer-2h50f"),
    # testRonLimit
    pytest.param({}, "E2", 0, 0, ron(0, 2, 4, 20), (5200, 0, -5200, 0), id="ron-4h20f"),
    pytest.param({}, "E2", 0, 0, ron(0, 2, 4, 30), (7700, 0, -7700, 0), id="ron-4h30f"),
    pytest.param({}, "E2", 0, 0, ron(0, 2, 4, 40), (8000, 0, -8000, 0), id="ron-4h40f"),
    pytest.param({}, "E2", 0, 0, ron(0, 2, 6, 40), (12000, 0, -12000, 0), id="ron-6h40f"),
    # testRonLimitDealer
    pytest.param({}, "E1", 0, 0, ron(0, 2, 4, 20), (7700, 0, -7700, 0), id="ron-dealer-4h20f"),
    pytest.param({}, "E1", 0, 0, ron(0, 2, 4, 30), (11600, 0, -11600, 0), id="ron-dealer-4h30f"),
    pytest.param({}, "E1", 0, 0, ron(0, 2, 4, 40), (12000, 0, -12000, 0), id="ron-dealer-4h40f"),
    pytest.param({}, "E1", 0, 0, ron(0, 2, 6, 40), (18000, 0, -18000, 0), id="ron-dealer-6h40f"),
    # testRonKiriage
    pytest.param(KIRIAGE, "E2", 0, 0, ron(0, 2, 4, 30), (8000, 0, -8000, 0), id="ron-kiriage-4h30f"),
    pytest.param(KIRIAGE, "E2", 0, 0, ron(0, 2, 3, 60), (8000, 0, -8000, 0), id="ron-kiriage-3h60f"),
    pytest.param(KIRIAGE, "E1", 0, 0, ron(0, 2, 4, 30), (12000, 0, -12000, 0), id="ron-kiriage-dealer-4h30f"),
    pytest.param(KIRIAGE, "E1", 0, 0, ron(0, 2, 3, 60), (12000, 0, -12000, 0), id="ron-kiriage-dealer-3h60f"),
    # testKazoe: 14 han 40 fu
    pytest.param({}, "E2", 0, 0, ron(0, 2, 14, 40), (32000, 0, -32000, 0), id="ron-kazoe-on"),
    pytest.param(NO_KAZOE, "E2", 0, 0, ron(0, 2, 14, 40), (24000, 0, -24000, 0), id="ron-kazoe-off"),
    # testTsumoBasic / testTsumoDealer: dealer 1, 2 han 50 fu
    pytest.param({}, "E1", 0, 0, tsumo(1, 2, 50), (-1600, 3200, -800, -800), id="tsumo-2h50f"),
    pytest.param({}, "E1", 0, 0, tsumo(0, 2, 50), (4800, -1600, -1600, -1600), id="tsumo-dealer-2h50f"),
    # testTsumoLimit: dealer 2, winner 1
    pytest.param({}, "E2", 0, 0, tsumo(0, 4, 20), (5200, -2600, -1300, -1300), id="tsumo-4h20f"),
    pytest.param({}, "E2", 0, 0, tsumo(0, 4, 30), (7900, -3900, -2000, -2000), id="tsumo-4h30f"),
    pytest.param({}, "E2", 0, 0, tsumo(0, 4, 40), (8000, -4000, -2000, -2000), id="tsumo-4h40f"),
    pytest.param({}, "E2", 0, 0, tsumo(0, 6, 40), (12000, -6000, -3000, -3000), id="tsumo-6h40f"),
    # testTsumoKiriage
    pytest.param(KIRIAGE, "E2", 0, 0, tsumo(0, 4, 30), (8000, -4000, -2000, -2000), id="tsumo-kiriage-4h30f"),
    pytest.param(KIRIAGE, "E2", 0, 0, tsumo(0, 3, 60), (8000, -4000, -2000, -2000), id="tsumo-kiriage-3h60f"),
    pytest.param(KIRIAGE, "E1", 0, 0, tsumo(0, 4, 30), (12000, -4000, -4000, -4000), id="tsumo-kiriage-dealer-4h30f"),
    pytest.param(KIRIAGE, "E1", 0, 0, tsumo(0, 3, 60), (12000, -4000, -4000, -4000), id="tsumo-kiriage-dealer-3h60f"),
    # testDraw (tenpai list, riichi list)
    pytest.param({}, "E1", 0, 0, Draw(), (0, 0, 0, 0), id="draw-all-noten"),
    pytest.param({}, "E1", 0, 0, Draw(tenpai=R({0})), (3000, -1000, -1000, -1000), id="draw-tenpai-1"),
    pytest.param({}, "E1", 0, 0, Draw(tenpai=R({0, 2})), (1500, -1500, 1500, -1500), id="draw-tenpai-1-3"),
    pytest.param({}, "E1", 0, 0, Draw(tenpai=R({0, 2, 3})), (1000, -3000, 1000, 1000), id="draw-tenpai-1-3-4"),
    pytest.param(
        {},
        "E1",
        0,
        0,
        Draw(tenpai=R({0, 1, 2, 3}), riichi=R({0, 1, 3})),
        (-1000, -1000, 0, -1000),
        id="draw-all-tenpai-riichi-1-2-4",
    ),
    # testAbort
    pytest.param(ABORTIVE, "E1", 0, 0, Abort(riichi=R({0, 1, 3})), (-1000, -1000, 0, -1000), id="abort-riichi-1-2-4"),
    # testChombo: dealer 1
    pytest.param({}, "E1", 0, 0, Chombo(player=1), (0, 0, 0, 0), id="chombo-no-payment"),
    pytest.param({}, "E1", 0, 0, Chombo(player=0), (0, 0, 0, 0), id="chombo-dealer-no-payment"),
    pytest.param(REVERSE_MANGAN, "E1", 0, 0, Chombo(player=1), (4000, -8000, 2000, 2000), id="chombo-reverse-mangan"),
    pytest.param(
        REVERSE_MANGAN, "E1", 0, 0, Chombo(player=0), (-12000, 4000, 4000, 4000), id="chombo-dealer-reverse-mangan"
    ),
    # testHonba
    pytest.param({}, "E1", 3, 0, ron(0, 2, 6, 40), (18900, 0, -18900, 0), id="honba-dealer-ron"),
    pytest.param({}, "E1", 4, 0, tsumo(0, 5, 30), (13200, -4400, -4400, -4400), id="honba-dealer-tsumo"),
    # testRiichiBets
    pytest.param({}, "E1", 0, 3, ron(0, 2, 6, 40), (21000, 0, -18000, 0), id="sticks-dealer-ron"),
    pytest.param({}, "E1", 0, 4, tsumo(0, 5, 30), (16000, -4000, -4000, -4000), id="sticks-dealer-tsumo"),
    # testYakuman / testPaoTsumo (dealer 2) / testPaoRon
    pytest.param({}, "E2", 0, 0, ron(0, 2, yakuman=1), (32000, 0, -32000, 0), id="yakuman-ron"),
    pytest.param({}, "E2", 0, 0, tsumo(0, yakuman=1, pao=2), (32000, 0, -32000, 0), id="pao-tsumo"),
    pytest.param({}, "E2", 0, 0, ron(0, 1, yakuman=1, pao=2), (32000, -16000, -16000, 0), id="pao-ron"),
    # testNagashi / testNagashiMultiple: dealer 1, nobody tenpai (holders, riichi)
    pytest.param(NAGASHI, "E1", 0, 0, Draw(nagashi=(0,)), (12000, -4000, -4000, -4000), id="nagashi-1"),
    pytest.param(
        NAGASHI,
        "E1",
        0,
        0,
        Draw(nagashi=(0,), riichi=R({2, 3})),
        (12000, -4000, -5000, -5000),
        id="nagashi-1-riichi-3-4",
    ),
    pytest.param(NAGASHI, "E1", 0, 0, Draw(nagashi=(1,)), (-4000, 8000, -2000, -2000), id="nagashi-2"),
    pytest.param(
        NAGASHI, "E1", 0, 0, Draw(nagashi=(1,), riichi=R({3})), (-4000, 8000, -2000, -3000), id="nagashi-2-riichi-4"
    ),
    pytest.param(NAGASHI, "E1", 0, 0, Draw(nagashi=(0, 1)), (8000, 4000, -6000, -6000), id="nagashi-1-2"),
    pytest.param(
        NAGASHI,
        "E1",
        0,
        0,
        Draw(nagashi=(0, 1), riichi=R({1, 3})),
        (8000, 3000, -6000, -7000),
        id="nagashi-1-2-riichi-2-4",
    ),
    pytest.param(NAGASHI, "E1", 0, 0, Draw(nagashi=(1, 2)), (-8000, 6000, 6000, -4000), id="nagashi-2-3"),
    pytest.param(
        NAGASHI,
        "E1",
        0,
        0,
        Draw(nagashi=(1, 2), riichi=R({0, 3})),
        (-9000, 6000, 6000, -5000),
        id="nagashi-2-3-riichi-1-4",
    ),
    pytest.param(NAGASHI, "E1", 0, 0, Draw(nagashi=(0, 1, 2)), (4000, 2000, 2000, -8000), id="nagashi-1-2-3"),
    pytest.param(NAGASHI, "E1", 0, 0, Draw(nagashi=(1, 2, 3)), (-12000, 4000, 4000, 4000), id="nagashi-2-3-4"),
]


@pytest.mark.parametrize(("overrides", "round_label", "honba", "deposits", "result", "deltas"), POINTS_CALC_CASES)
def test_pantheon_points_calc(overrides, round_label, honba, deposits, result, deltas):
    ruleset = Ruleset.build(overrides=overrides)
    state = start_state(ruleset=ruleset, round_label=round_label, honba=honba, deposits=deposits, scores=[0, 0, 0, 0])
    record = play_hand(ruleset=ruleset, state=state, result=result)
    assert record.settlement.deltas == deltas


# --- Pantheon SessionStateTest.php -------------------------------------------
# Scores start at 30000, player 1 (our 0) deals first. Pantheon's MockRuleset
# plays every ron of a multiple ron, honba to each winner, own stick back and
# the rest to the first winner after the discarder: our "ema-2016".
# Columns: preset, overrides, hands from the start of the game, then the state
# after them: scores, round, dealer, honba, riichi sticks on the table.
SESSION_STATE_CASES = [
    # testRon / testRonDealer
    pytest.param(
        "ema-2016",
        {},
        [Ron(loser=0, wins=(Win(1, 3, 30),), riichi=R({2}))],
        (26100, 34900, 29000, 30000),
        "E2",
        1,
        0,
        0,
        id="ron",
    ),
    pytest.param(
        "ema-2016",
        {},
        [Ron(loser=1, wins=(Win(0, 3, 30),), riichi=R({2}))],
        (36800, 24200, 29000, 30000),
        "E1",
        0,
        1,
        0,
        id="ron-dealer",
    ),
    # testPaoRon / testPaoRonDealer
    pytest.param(
        "ema-2016",
        {},
        [Ron(loser=0, wins=(Win(1, yakuman=1, pao=2),), riichi=R({2}))],
        (14000, 63000, 13000, 30000),
        "E2",
        1,
        0,
        0,
        id="pao-ron",
    ),
    pytest.param(
        "ema-2016",
        {},
        [Ron(loser=1, wins=(Win(0, yakuman=1, pao=2),), riichi=R({2}))],
        (79000, 6000, 5000, 30000),
        "E1",
        0,
        1,
        0,
        id="pao-ron-dealer",
    ),
    # testMultiRon / testMultiRonWithPao
    pytest.param(
        "ema-2016",
        {},
        [Ron(loser=0, wins=(Win(1, 3, 30), Win(3, 2, 30)), riichi=R({1, 2}))],
        (24100, 34900, 29000, 32000),
        "E2",
        1,
        0,
        0,
        id="multi-ron",
    ),
    pytest.param(
        "ema-2016",
        {},
        [Ron(loser=0, wins=(Win(1, yakuman=1, pao=3), Win(3, 2, 30)), riichi=R({1, 2}))],
        (12000, 63000, 29000, 16000),
        "E2",
        1,
        0,
        0,
        id="multi-ron-pao",
    ),
    # testMultiRonWithRiichi: the draw first, then the double ron on player 2
    pytest.param(
        "ema-2016", {}, [Draw(riichi=R({1}))], (30000, 29000, 30000, 30000), "E2", 1, 1, 1, id="multi-ron-riichi-draw"
    ),
    pytest.param(
        "ema-2016",
        {},
        [Draw(riichi=R({1})), Ron(loser=1, wins=(Win(0, 3, 30), Win(3, 2, 30)), riichi=R({0, 2}))],
        (34200, 22500, 29000, 34300),
        "E3",
        2,
        0,
        0,
        id="multi-ron-riichi",
    ),
    # testTsumo / testTsumoDealer / testPaoTsumo / testPaoTsumoDealer
    pytest.param(
        "ema-2016", {}, [Tsumo(Win(1, 3, 30), riichi=R({2}))], (28000, 35000, 28000, 29000), "E2", 1, 0, 0, id="tsumo"
    ),
    pytest.param(
        "ema-2016",
        {},
        [Tsumo(Win(0, 3, 30), riichi=R({2}))],
        (37000, 28000, 27000, 28000),
        "E1",
        0,
        1,
        0,
        id="tsumo-dealer",
    ),
    pytest.param(
        "ema-2016",
        {},
        [Tsumo(Win(1, yakuman=1, pao=0), riichi=R({2}))],
        (-2000, 63000, 29000, 30000),
        "E2",
        1,
        0,
        0,
        id="pao-tsumo",
    ),
    pytest.param(
        "ema-2016",
        {},
        [Tsumo(Win(0, yakuman=1, pao=1), riichi=R({2}))],
        (79000, -18000, 29000, 30000),
        "E1",
        0,
        1,
        0,
        id="pao-tsumo-dealer",
    ),
    # testDrawDealerNoten / testDrawDealerTempai / testDrawEverybodyNoten
    pytest.param(
        "ema-2016",
        {},
        [Draw(tenpai=R({1}), riichi=R({2}))],
        (29000, 33000, 28000, 29000),
        "E2",
        1,
        1,
        1,
        id="draw-dealer-noten",
    ),
    pytest.param(
        "ema-2016",
        {},
        [Draw(tenpai=R({0, 1}), riichi=R({2}))],
        (31500, 31500, 27500, 28500),
        "E1",
        0,
        1,
        1,
        id="draw-dealer-tenpai",
    ),
    pytest.param("ema-2016", {}, [Draw()], (30000, 30000, 30000, 30000), "E2", 1, 1, 0, id="draw-everybody-noten"),
    # testAbort (withAbortives on)
    pytest.param("ema-2016", ABORTIVE, [Abort(riichi=R({2}))], (30000, 30000, 29000, 30000), "E1", 0, 1, 1, id="abort"),
    # testChombo: first without table payments, then with them (riichi from player 3)
    pytest.param(
        "ema-2016", {}, [Chombo(player=1, riichi=R({2}))], (30000, 30000, 30000, 30000), "E1", 0, 0, 0, id="chombo"
    ),
    pytest.param(
        "ema-2016",
        REVERSE_MANGAN,
        [Chombo(player=1, riichi=R({2}))],
        (34000, 22000, 32000, 32000),
        "E1",
        0,
        0,
        0,
        id="chombo-reverse-mangan",
    ),
    # testGainRiichiBetsAfterDraw
    pytest.param(
        "ema-2016",
        {},
        [Draw(tenpai=R({3}), riichi=R({3}))],
        (29000, 29000, 29000, 32000),
        "E2",
        1,
        1,
        1,
        id="riichi-after-draw-draw",
    ),
    pytest.param(
        "ema-2016",
        {},
        [Draw(tenpai=R({3}), riichi=R({3})), Ron(loser=1, wins=(Win(0, 3, 30),), riichi=R({0}))],
        (34200, 24800, 29000, 32000),
        "E3",
        2,
        0,
        0,
        id="riichi-after-draw",
    ),
    # testSerialDraw: after 7 all-noten draws the 8th hand is S4
    pytest.param("ema-2016", {}, [Draw()] * 7, (30000, 30000, 30000, 30000), "S4", 3, 7, 0, id="serial-draw"),
    # jpml-a: draw with riichi and tenpai from players 1 and 3, then player 2's tsumo 2/30 at 1 honba, 2 sticks
    pytest.param(
        "jpml-a",
        {},
        [Draw(tenpai=R({0, 2}), riichi=R({0, 2})), Tsumo(Win(1, 2, 30))],
        (29400, 32800, 29900, 27900),
        "E2",
        1,
        0,
        0,
        id="jpml-a-draw-then-tsumo",
    ),
]


@pytest.mark.parametrize(
    ("key", "overrides", "hands", "scores", "round_label", "dealer", "honba", "deposits"), SESSION_STATE_CASES
)
def test_pantheon_session_state(key, overrides, hands, scores, round_label, dealer, honba, deposits):
    ruleset = build_ruleset(key=key, overrides=overrides)
    game = play_game(ruleset=ruleset, start=start_state(ruleset=ruleset), hands=hands)
    after = game.state
    assert (after.scores, after.label(ruleset), after.dealer, after.honba, after.deposits) == (
        scores,
        round_label,
        dealer,
        honba,
        deposits,
    )
