"""Tables of 2 to 8 players: presets, seat winds, game length, tsumo, honba and noten payments.

docs/rules.md §7, §8.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import Refusal
from rules.game import play_game, play_hand
from rules.hand_value import tsumo_shares
from rules.hands import Draw, Ron, Tsumo, Win
from rules.presets import build_ruleset, get_preset, preset_doc
from rules.state import parse_round, start_state

N_PLAYER_PRESETS = (
    "sanma",
    "two-player",
    "two-player-mangan",
    "two-player-yakuman",
    "five-player-1",
    "five-player-2",
    "six-player",
    "seven-player",
    "eight-player",
)


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        # docs/rules.md §8, row by row.
        (
            "sanma",
            {
                "players": 3,
                "start_points": 35000,
                "return_points": 40000,
                "uma": [20, 0, -20],
                "chombo_payment": "reverse_mangan",
                "tsumo_payment": "equal_shares",
                "noten_payment_total": 3000,
                "honba_points": 300,
                "round_winds": 2,
            },
        ),
        ("two-player", {"players": 2, "start_points": 25000, "return_points": 25000, "uma": [], "round_winds": 2}),
        ("two-player-mangan", {"players": 2, "min_han": 5, "yakuman_only": False}),
        ("two-player-yakuman", {"players": 2, "yakuman_only": True, "kazoe_yakuman": True}),
        (
            "five-player-1",
            {
                "players": 5,
                "start_points": 27000,
                "return_points": 30000,
                "uma": [10, 5, 0, -5, -10],
                "chombo_payment": "reverse_mangan",
                "dealer_bonus": False,
                "tsumo_payment": "equal_shares",
                "renchan": "none",
                "noten_payment_total": 2400,
                "honba_points": 400,
                "round_winds": 2,
            },
        ),
        (
            "five-player-2",
            {
                "players": 5,
                "start_points": 27000,
                "return_points": 30000,
                "uma": [10, 5, -3, -5, -7],
                "chombo_payment": "reverse_mangan",
                "tsumo_payment": "five_player_rule_2",
                "renchan": "win",
                "noten_payment_total": 3600,
                "honba_points": 400,
                "round_winds": 2,
                "last_dealer_may_stop": True,
            },
        ),
        (
            "six-player",
            {
                "players": 6,
                "start_points": 25000,
                "return_points": 30000,
                "uma": [],
                "dealer_bonus": False,
                "tsumo_payment": "equal_shares",
            },
        ),
        ("seven-player", {"players": 7, "uma": [], "dealer_bonus": False, "tsumo_payment": "equal_shares"}),
        ("eight-player", {"players": 8, "uma": [], "dealer_bonus": False, "tsumo_payment": "equal_shares"}),
    ],
)
def test_preset_values(key, expected):
    params = get_preset(key).as_dict()
    assert {name: params[name] for name in expected} == expected


@pytest.mark.parametrize("key", N_PLAYER_PRESETS)
def test_docstring_names_the_seed_and_flags_open_questions(key):
    doc = preset_doc(key)
    assert "seed 00" in doc
    if key in ("sanma", "two-player", "five-player-1", "six-player", "seven-player", "eight-player"):
        assert "(?)" in doc


@pytest.mark.parametrize(
    ("players", "winds"),
    [
        (2, ("East", "South")),
        (3, ("East", "South", "West")),
        (5, ("East", "South", "West", "North", "Flower")),
        (6, ("East", "South", "West", "North", "White", "Green")),
        (7, ("East", "South", "West", "North", "White", "Green", "Red")),
        (8, ("East", "East", "South", "South", "West", "West", "North", "North")),
    ],
)
def test_seat_winds(players, winds):
    ruleset = get_preset(
        {2: "two-player", 3: "sanma", 5: "five-player-1", 6: "six-player", 7: "seven-player", 8: "eight-player"}[
            players
        ]
    )
    state = start_state(ruleset=ruleset)
    assert tuple(state.seat_wind_name(ruleset, p) for p in range(players)) == winds


def test_seat_winds_move_with_the_dealer():
    ruleset = get_preset("eight-player")
    state = start_state(ruleset=ruleset, round_label="E2")
    assert [state.seat_wind_name(ruleset, p) for p in range(8)] == [
        "North",
        "East",
        "East",
        "South",
        "South",
        "West",
        "West",
        "North",
    ]


def test_each_round_has_one_hand_per_player():
    # Every hand a noten draw: the dealer passes each time, so the game is players x 2 hands.
    for key, labels in [
        ("two-player", ["E1", "E2", "S1", "S2"]),
        ("sanma", ["E1", "E2", "E3", "S1", "S2", "S3"]),
        ("five-player-1", [f"{w}{h}" for w in "ES" for h in range(1, 6)]),
        ("six-player", [f"{w}{h}" for w in "ES" for h in range(1, 7)]),
        ("eight-player", [f"{w}{h}" for w in "ES" for h in range(1, 9)]),
    ]:
        ruleset = get_preset(key)
        state = start_state(ruleset=ruleset)
        seen = []
        while not state.finished:
            seen.append(state.label(ruleset))
            state = play_hand(ruleset=ruleset, state=state, result=Draw()).after
        assert seen == labels, key


@pytest.mark.parametrize(
    ("key", "overrides", "label", "parsed"),
    [
        ("five-player-1", {"round_winds": 5}, "F3", (4, 3)),
        ("six-player", {"round_winds": 6}, "B6", (4, 6)),
        ("six-player", {"round_winds": 6}, "G1", (5, 1)),
        ("seven-player", {"round_winds": 7}, "R7", (6, 7)),
        ("eight-player", {"round_winds": 4}, "N8", (3, 8)),
    ],
)
def test_round_letters(key, overrides, label, parsed):
    assert parse_round(ruleset=build_ruleset(key=key, overrides=overrides), label=label) == parsed


@pytest.mark.parametrize(
    ("key", "label", "message"),
    [
        ("two-player", "E3", "hands 1 to 2"),
        ("two-player", "W1", r"a wind letter \(E, S\)"),
        ("eight-player", "E9", "hands 1 to 8"),
        ("six-player", "B1", "past the end"),
    ],
)
def test_round_refused(key, label, message):
    with pytest.raises(Refusal, match=message):
        parse_round(ruleset=get_preset(key), label=label)


@pytest.mark.parametrize(
    ("key", "base", "winner", "shares"),
    [
        # Two players: the one opponent pays the ron value. Non-dealer 2 han 30 fu (base 480): 1920 -> 2000.
        ("two-player", 480, 1, {0: 2000}),
        # Dealer 2 han 30 fu: 2880 -> 2900.
        ("two-player", 480, 0, {1: 2900}),
        # Six players: a mangan tsumo (8000 for everyone, no dealer bonus) in fifths: 1600 each.
        ("six-player", 2000, 0, dict.fromkeys(range(1, 6), 1600)),
        # Seven players: 8000 / 6 = 1333.3 -> 1400 each (rounded up to 100 once, seed 001).
        ("seven-player", 2000, 3, {p: 1400 for p in range(7) if p != 3}),
        # Eight players: 8000 / 7 = 1142.9 -> 1200 each.
        ("eight-player", 2000, 7, dict.fromkeys(range(7), 1200)),
        # Eight players, 1 han 30 fu: 1000 / 7 = 142.9 -> 200 each.
        ("eight-player", 240, 2, {p: 200 for p in range(8) if p != 2}),
        # Five players rule 1: a dealer wins as a non-dealer, 3 han 30 fu 3900 / 4 = 975 -> 1000 all.
        ("five-player-1", 960, 0, dict.fromkeys(range(1, 5), 1000)),
    ],
)
def test_tsumo_shares(key, base, winner, shares):
    ruleset = get_preset(key)
    assert tsumo_shares(ruleset=ruleset, base=base, winner=winner, dealer=0, players=ruleset.players) == shares


def _noten(key: str, tenpai: set[int]) -> tuple[int, ...]:
    ruleset = get_preset(key)
    record = play_hand(ruleset=ruleset, state=start_state(ruleset=ruleset), result=Draw(tenpai=frozenset(tenpai)))
    return record.settlement.deltas


def _split(players: int, tenpai: int, gain: int, loss: int) -> tuple[int, ...]:
    return (gain,) * tenpai + (-loss,) * (players - tenpai)


@pytest.mark.parametrize(
    ("key", "tenpai", "deltas"),
    [
        ("two-player", 1, (3000, -3000)),
        ("sanma", 1, _split(3, 1, 3000, 1500)),
        ("sanma", 2, _split(3, 2, 1500, 3000)),
        # Six players, 3000 in all: the noten players share it, the tenpai players share it.
        ("six-player", 1, _split(6, 1, 3000, 600)),
        ("six-player", 2, _split(6, 2, 1500, 750)),
        ("six-player", 3, _split(6, 3, 1000, 1000)),
        ("six-player", 4, _split(6, 4, 750, 1500)),
        ("six-player", 5, _split(6, 5, 600, 3000)),
        ("seven-player", 1, _split(7, 1, 3000, 500)),
        ("seven-player", 3, _split(7, 3, 1000, 750)),
        ("seven-player", 6, _split(7, 6, 500, 3000)),
        # Eight players: 3000 / 7 is not whole, so each pair's share (428.6) is rounded up to 100: 500.
        ("eight-player", 1, _split(8, 1, 3500, 500)),
        ("eight-player", 2, _split(8, 2, 1500, 500)),
        ("eight-player", 3, _split(8, 3, 1000, 600)),
        ("eight-player", 4, _split(8, 4, 750, 750)),
        ("eight-player", 5, _split(8, 5, 600, 1000)),
        ("eight-player", 6, _split(8, 6, 500, 1500)),
        ("eight-player", 7, _split(8, 7, 500, 3500)),
    ],
)
def test_noten_payments(key, tenpai, deltas):
    result = _noten(key, set(range(tenpai)))
    assert result == deltas
    assert sum(result) == 0


@pytest.mark.parametrize(
    ("key", "honba", "each", "winner_gain"),
    [
        # Honba on a tsumo: honba_points shared by the payers (five players 400: 100 each).
        ("five-player-1", 2, 200, 8000 + 800),
        ("six-player", 1, 60, 8000 + 300),
        ("seven-player", 1, 50, 8400 + 300),  # 1400 x 6 = 8400
        # 300 / 7 is rounded up to a whole point: 43 each.
        ("eight-player", 1, 43, 8400 + 301),  # 1200 x 7 = 8400
    ],
)
def test_tsumo_honba_per_payer(key, honba, each, winner_gain):
    ruleset = get_preset(key)
    state = start_state(ruleset=ruleset, honba=honba)
    record = play_hand(ruleset=ruleset, state=state, result=Tsumo(win=Win(winner=1, han=5)))
    honba_paid = {p.payer: p.amount for p in record.settlement.payments if p.reason == "honba"}
    assert set(honba_paid.values()) == {each}
    assert record.settlement.deltas[1] == winner_gain


def test_ron_honba_is_paid_whole_by_the_discarder():
    ruleset = get_preset("five-player-2")
    record = play_hand(
        ruleset=ruleset,
        state=start_state(ruleset=ruleset, honba=1),
        result=Ron(loser=3, wins=(Win(winner=1, han=3, fu=40),)),
    )
    assert record.settlement.deltas == (0, 5200 + 400, 0, -5600, 0)


def test_five_player_rule_1_never_keeps_the_dealer():
    ruleset = get_preset("five-player-1")
    state = start_state(ruleset=ruleset)
    after_win = play_hand(ruleset=ruleset, state=state, result=Tsumo(win=Win(winner=0, han=5))).after
    after_tenpai = play_hand(ruleset=ruleset, state=state, result=Draw(tenpai=frozenset({0}))).after
    assert (after_win.label(ruleset), after_win.honba) == ("E2", 0)
    assert (after_tenpai.label(ruleset), after_tenpai.honba) == ("E2", 1)


def test_five_player_rule_2_tenpai_dealer_is_paid_and_passes():
    ruleset = get_preset("five-player-2")
    record = play_hand(ruleset=ruleset, state=start_state(ruleset=ruleset), result=Draw(tenpai=frozenset({0})))
    assert record.settlement.deltas == (3600, -900, -900, -900, -900)
    assert record.after.label(ruleset) == "E2"


def _from_s5(hands: list[Any]):
    ruleset = get_preset("five-player-2")
    return play_game(ruleset=ruleset, start=start_state(ruleset=ruleset, round_label="S5"), hands=hands)


def test_last_dealer_may_stop_after_a_win():
    stopped = _from_s5([Ron(loser=0, wins=(Win(winner=4, han=2, fu=30),))])
    assert (stopped.state.finished, stopped.state.end_reason) == (True, "the last dealer stopped")


def test_last_dealer_may_play_on():
    went_on = _from_s5([Ron(loser=0, wins=(Win(winner=4, han=2, fu=30),)), Draw()])
    assert [h.before.label(get_preset("five-player-2")) for h in went_on.hands] == ["S5", "S5"]
    assert went_on.hands[1].before.honba == 1
    assert (went_on.state.finished, went_on.state.end_reason) == (True, "end of the game")


def test_last_dealer_losing_ends_the_game():
    lost = _from_s5([Ron(loser=4, wins=(Win(winner=2, han=2, fu=30),))])
    assert (lost.state.finished, lost.state.end_reason) == (True, "end of the game")
