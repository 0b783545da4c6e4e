"""Tables of nine to twelve players: seed 001's general rule 0 ("0룰 범용 룰") and what the presets extend.

The seed's lines, quoted where a row rests on them:
- rule 0.2 "N인 마작은 N x 34매의 패를 사용한다" (34 × N tiles); 0.6 "친은 항상 동가가 된다" (the dealer is always
  East); 0.8 "왕패 2매로 한다" (a dead wall of 2);
- rule 0.3 "친의 첫 버림패부터(울기 없이) N매의 바람패가 연속으로 버려지면 유국이 된다" (the first N discards one
  wind); 0.4 "N인이 리치하면, 마지막 리치한 사람이 버린 패가 통한 시점에 유국이 된다" (all N in riichi: drawn once
  the last declaration passes); 0.5 "N-1인이 동시에 론하면 유국이다" (N − 1 rons at once);
- five-player rule 0: "제1룰처럼 친의 특권을 없애는 것으로 해 둔다" (no dealer privilege, as in rule 1);
- three-player rule 0: "쯔모를 당한 경우의 지불은 두 사람이 반씩 부담한다" (a tsumo: the two others pay half each);
- eight players: "동동남남서서북북으로 앉는다" (seated E E S S W W N N).
"""

from __future__ import annotations

import pytest

from rules.errors import Refusal
from rules.game import play_game, play_hand
from rules.hand_value import tsumo_shares
from rules.hands import Abort, Draw, Ron, Tsumo, Win
from rules.presets import build_ruleset, get_preset, preset_doc
from rules.state import parse_round, start_state

PRESETS = {9: "nine-player", 10: "ten-player", 11: "eleven-player", 12: "twelve-player"}
EAST, SOUTH, WEST, NORTH = "East", "South", "West", "North"


@pytest.mark.parametrize(("players", "key"), PRESETS.items())
def test_preset_values(players, key):
    params = get_preset(key).as_dict()
    assert {
        name: params[name]
        for name in (
            "players",
            "dealer_bonus",
            "tsumo_payment",
            "abortive_draws",
            "abortive_draw_rules",
            "multiple_ron",
            "round_winds",
            "start_points",
            "return_points",
            "uma",
            "noten_payment_total",
            "honba_points",
            "renchan",
        )
    } == {
        "players": players,
        "dealer_bonus": False,  # five-player rule 0: no dealer privilege
        "tsumo_payment": "equal_shares",  # three-player rule 0: the others share a tsumo equally (?)
        "abortive_draws": True,
        "abortive_draw_rules": "rule_0",  # rule 0.3–0.5
        "multiple_ron": "head_bump",  # "상가우선": the first in turn after the discarder
        # Extended (?) as at six to eight players, one round wind for ~10 hands:
        "round_winds": 1,
        "start_points": 25000,
        "return_points": 30000,
        "uma": [],
        "noten_payment_total": 3000,
        "honba_points": 300,
        "renchan": "tenpai",
    }


@pytest.mark.parametrize(("players", "key"), PRESETS.items())
def test_docstring_names_the_seed_and_flags_each_extension(players, key):
    doc = preset_doc(key)
    assert "seed 001" in doc
    assert f"{34 * players} tiles (34 × {players})" in doc  # rule 0.2
    assert "Extended (?)" in doc


@pytest.mark.parametrize(
    ("players", "winds"),
    [
        # Eight sit two to each wind (seed); past eight the first winds take one seat more (?).
        (9, (EAST,) * 3 + (SOUTH,) * 2 + (WEST,) * 2 + (NORTH,) * 2),
        (10, (EAST,) * 3 + (SOUTH,) * 3 + (WEST,) * 2 + (NORTH,) * 2),
        (11, (EAST,) * 3 + (SOUTH,) * 3 + (WEST,) * 3 + (NORTH,) * 2),
        (12, (EAST,) * 3 + (SOUTH,) * 3 + (WEST,) * 3 + (NORTH,) * 3),
    ],
)
def test_seat_winds(players, winds):
    ruleset = get_preset(PRESETS[players])
    state = start_state(ruleset=ruleset)
    assert tuple(state.seat_wind_name(ruleset, p) for p in range(players)) == winds
    assert ruleset.round_wind_letters == "ESWN"


def test_the_dealer_is_always_east():
    # Rule 0.6: whoever deals sits East; the seats after the dealer follow.
    ruleset = get_preset("nine-player")
    for hand in range(1, 10):
        state = start_state(ruleset=ruleset, round_label=f"E{hand}")
        assert state.seat_wind_name(ruleset, state.dealer) == EAST
    e4 = start_state(ruleset=ruleset, round_label="E4")
    assert [e4.seat_wind_name(ruleset, p) for p in range(9)] == [
        WEST,
        NORTH,
        NORTH,
        EAST,
        EAST,
        EAST,
        SOUTH,
        SOUTH,
        WEST,
    ]


@pytest.mark.parametrize(("players", "key"), PRESETS.items())
def test_a_game_is_one_hand_per_dealer(players, key):
    # Every hand a noten draw: the dealer passes each time, E1 … EN, then the game ends (round_winds 1).
    ruleset = get_preset(key)
    game = play_game(ruleset=ruleset, start=start_state(ruleset=ruleset), hands=[Draw()] * players)
    assert [h.before.label(ruleset) for h in game.hands] == [f"E{n}" for n in range(1, players + 1)]
    assert (game.state.finished, game.state.end_reason) == (True, "end of the game")


@pytest.mark.parametrize(
    ("key", "overrides", "label", "parsed"),
    [
        ("nine-player", {}, "E9", (0, 9)),
        ("twelve-player", {}, "E12", (0, 12)),
        ("ten-player", {"round_winds": 2}, "S10", (1, 10)),
        ("twelve-player", {"round_winds": 4}, "N12", (3, 12)),
    ],
)
def test_round_labels(key, overrides, label, parsed):
    assert parse_round(ruleset=build_ruleset(key=key, overrides=overrides), label=label) == parsed


@pytest.mark.parametrize(
    ("key", "label", "message"),
    [
        ("nine-player", "E10", "hands 1 to 9"),
        ("twelve-player", "E13", "hands 1 to 12"),
        ("nine-player", "S1", "past the end"),
    ],
)
def test_round_refused(key, label, message):
    with pytest.raises(Refusal, match=message):
        parse_round(ruleset=get_preset(key), label=label)


def test_round_winds_stop_at_the_four_winds():
    with pytest.raises(Refusal, match="round_winds"):
        build_ruleset(key="nine-player", overrides={"round_winds": 5})


def _one(key: str, result, **state):
    ruleset = get_preset(key)
    return play_hand(ruleset=ruleset, state=start_state(ruleset=ruleset, **state), result=result)


@pytest.mark.parametrize(
    ("key", "winner", "loser", "han", "fu", "paid"),
    [
        # A non-dealer 3 han 30 fu is 3900 (the four-player table, which rule 0 keeps).
        ("nine-player", 1, 4, 3, 30, 3900),
        # No dealer privilege (five-player rule 0): the dealer's 3 han 30 fu is 3900 too, not 5800.
        ("nine-player", 0, 4, 3, 30, 3900),
        ("twelve-player", 11, 0, 3, 40, 5200),
        ("ten-player", 3, 2, 5, None, 8000),
    ],
)
def test_ron_is_the_non_dealer_value(key, winner, loser, han, fu, paid):
    record = _one(key, Ron(loser=loser, wins=(Win(winner=winner, han=han, fu=fu),)))
    deltas = record.settlement.deltas
    assert (deltas[winner], deltas[loser]) == (paid, -paid)
    assert sum(abs(d) for d in deltas) == 2 * paid


@pytest.mark.parametrize(
    ("key", "base", "each"),
    [
        # The ron value shared equally by the N − 1 others (three-player rule 0's halves, extended (?)), each share
        # rounded up to 100 once. 3 han 30 fu (base 960, 3840): 3840 / 8 = 480 -> 500; / 9 = 426.7 -> 500;
        # / 10 = 384 -> 400; / 11 = 349.1 -> 400.
        ("nine-player", 960, 500),
        ("ten-player", 960, 500),
        ("eleven-player", 960, 400),
        ("twelve-player", 960, 400),
        # Mangan (8000): / 8 = 1000; / 9 = 888.9 -> 900; / 10 = 800; / 11 = 727.3 -> 800.
        ("nine-player", 2000, 1000),
        ("ten-player", 2000, 900),
        ("eleven-player", 2000, 800),
        ("twelve-player", 2000, 800),
    ],
)
def test_tsumo_in_equal_shares(key, base, each):
    ruleset = get_preset(key)
    for winner in (0, 4):  # the dealer pays no more and wins no more
        shares = tsumo_shares(ruleset=ruleset, base=base, winner=winner, dealer=0, players=ruleset.players)
        assert shares == {p: each for p in range(ruleset.players) if p != winner}


@pytest.mark.parametrize(
    ("key", "each"),
    [
        # Honba 300 on a tsumo, shared by the payers, rounded up to a whole point (as at eight players: 43).
        ("nine-player", 38),
        ("ten-player", 34),
        ("eleven-player", 30),
        ("twelve-player", 28),
    ],
)
def test_tsumo_honba_per_payer(key, each):
    record = _one(key, Tsumo(win=Win(winner=1, han=3, fu=30)), honba=1)
    honba = {p.payer: p.amount for p in record.settlement.payments if p.reason == "honba"}
    assert set(honba.values()) == {each}
    assert len(honba) == get_preset(key).players - 1


def _split(players: int, tenpai: int, gain: int, loss: int) -> tuple[int, ...]:
    return (gain,) * tenpai + (-loss,) * (players - tenpai)


@pytest.mark.parametrize(
    ("key", "tenpai", "deltas"),
    [
        # Noten total 3000 (?), the six- to eight-player rule: the noten players share it, the tenpai players share it;
        # where a share is not a whole point, each pair's share is rounded up to 100.
        ("nine-player", 1, _split(9, 1, 3000, 375)),
        ("nine-player", 2, _split(9, 2, 2100, 600)),  # 3000 / 14 = 214.3 -> 300 a pair
        ("nine-player", 3, _split(9, 3, 1000, 500)),
        ("nine-player", 4, _split(9, 4, 750, 600)),
        ("nine-player", 5, _split(9, 5, 600, 750)),
        ("nine-player", 6, _split(9, 6, 500, 1000)),
        ("nine-player", 7, _split(9, 7, 600, 2100)),
        ("nine-player", 8, _split(9, 8, 375, 3000)),
        ("ten-player", 1, _split(10, 1, 3600, 400)),  # 3000 / 9 = 333.3 -> 400 a pair
        ("ten-player", 5, _split(10, 5, 600, 600)),
        ("eleven-player", 4, _split(11, 4, 1400, 800)),  # 3000 / 28 = 107.1 -> 200 a pair
        ("eleven-player", 10, _split(11, 10, 300, 3000)),
        ("twelve-player", 1, _split(12, 1, 3300, 300)),  # 3000 / 11 = 272.7 -> 300 a pair
        ("twelve-player", 6, _split(12, 6, 500, 500)),
    ],
)
def test_noten_payments(key, tenpai, deltas):
    record = _one(key, Draw(tenpai=frozenset(range(tenpai))))
    assert record.settlement.deltas == deltas
    assert sum(deltas) == 0


def test_a_nine_player_ruleset_with_a_total_that_divides():
    # The docstring's override: 2520 splits evenly at every count of tenpai among nine.
    ruleset = build_ruleset(key="nine-player", overrides={"noten_payment_total": 2520})
    for tenpai in range(1, 9):
        record = play_hand(
            ruleset=ruleset, state=start_state(ruleset=ruleset), result=Draw(tenpai=frozenset(range(tenpai)))
        )
        assert sum(d for d in record.settlement.deltas if d > 0) == 2520


ALL_NINE = frozenset(range(9))


def _aborted(record, reason: str, *, dealer: int = 0, honba: int = 1):
    assert (record.settlement.kind, record.settlement.abortive) == ("abort", reason)
    assert (record.after.dealer, record.after.honba) == (dealer, honba)  # the dealer stays, honba + 1


def test_all_nine_in_riichi_is_an_abortive_draw():
    # Rule 0.4: all N in riichi; the sticks stay on the table.
    record = _one("nine-player", Abort(reason="four_riichi", riichi=ALL_NINE))
    _aborted(record, "four_riichi")
    assert record.settlement.deltas == (-1000,) * 9
    assert record.after.deposits == 9


def test_a_draw_written_with_all_nine_in_riichi_is_that_abortive_draw():
    # Rule 0.4: the hand ends when the last declaration passes, so it never reaches an exhaustive draw.
    record = _one("nine-player", Draw(tenpai=ALL_NINE, riichi=ALL_NINE))
    _aborted(record, "four_riichi")
    assert record.settlement.deltas == (-1000,) * 9


def test_eight_rons_on_one_discard_are_an_abortive_draw():
    # Rule 0.5: N − 1 rons at once; nobody is paid, the dealer stays.
    wins = tuple(Win(winner=p, han=3, fu=30) for p in range(9) if p != 4)
    record = _one("nine-player", Ron(loser=4, wins=wins), round_label="E3")
    _aborted(record, "all_others_ron", dealer=2)
    assert record.settlement.deltas == (0,) * 9
    assert [w.stood for w in record.settlement.wins] == [False] * 8


def test_seven_rons_are_a_head_bump():
    # Fewer than N − 1: the first in turn after the discarder (player 5) wins alone ("상가우선").
    wins = tuple(Win(winner=p, han=3, fu=30) for p in range(9) if p not in (4, 3))
    record = _one("nine-player", Ron(loser=4, wins=wins))
    assert record.settlement.kind == "ron"
    assert (record.settlement.deltas[5], record.settlement.deltas[4]) == (3900, -3900)


@pytest.mark.parametrize(
    "result",
    [
        Abort(reason="four_winds"),  # rule 0.3: the first N discards all of one wind
        Abort(reason="all_others_ron"),  # rule 0.5, written as the abortive draw itself
        Abort(),  # no reason given
    ],
)
def test_rule_0_abortive_draws_written_as_such(result):
    record = _one("twelve-player", result)
    assert record.settlement.kind == "abort"


@pytest.mark.parametrize(
    ("result", "message"),
    [
        # Rule 0 has three abortive draws only: no nine terminals (five-player rule 1: "도패(9종9패)는 … 인정하지
        # 않는다"), no four kans ("깡은 아무리 많이 해도 유국이 안되는 것으로 하고 있다").
        (Abort(reason="nine_terminals"), "must be one of"),
        (Abort(reason="four_kans"), "must be one of"),
        (Abort(reason="triple_ron"), "record it as a ron"),
        (Abort(reason="four_riichi", riichi=frozenset(range(8))), "all 9 players"),
    ],
)
def test_other_abortive_draws_refused(result, message):
    with pytest.raises(Refusal, match=message):
        _one("nine-player", result)


@pytest.mark.parametrize(
    ("players", "reasons"),
    [
        # Rule 0 on other tables: at four players the N − 1 rons are a triple ron; at two, seed 001 lets both players
        # declare riichi and play on, and one ron is never an abortive draw.
        (4, ("four_winds", "four_riichi", "all_others_ron")),
        (3, ("four_winds", "four_riichi", "all_others_ron")),
        (2, ("four_winds",)),
    ],
)
def test_rule_0_at_other_table_sizes(players, reasons):
    ruleset = build_ruleset(
        key="wrc-2025",
        overrides={"players": players, "uma": [], "abortive_draws": True, "abortive_draw_rules": "rule_0"},
    )
    assert ruleset.abort_reasons == reasons


def test_a_triple_ron_under_rule_0_at_four_players():
    ruleset = build_ruleset(key="wrc-2025", overrides={"abortive_draws": True, "abortive_draw_rules": "rule_0"})
    record = play_hand(
        ruleset=ruleset,
        state=start_state(ruleset=ruleset),
        result=Ron(loser=1, wins=tuple(Win(winner=p, han=1, fu=30) for p in (0, 2, 3))),
    )
    assert (record.settlement.kind, record.settlement.abortive) == ("abort", "all_others_ron")


def test_without_abortive_draws_eight_rons_are_a_head_bump():
    ruleset = build_ruleset(key="nine-player", overrides={"abortive_draws": False})
    wins = tuple(Win(winner=p, han=3, fu=30) for p in range(9) if p != 4)
    record = play_hand(ruleset=ruleset, state=start_state(ruleset=ruleset), result=Ron(loser=4, wins=wins))
    assert record.settlement.deltas[5] == 3900
