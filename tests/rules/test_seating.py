"""Seating the next round: random and swiss tables, repeats, seat winds, byes, CSV schedules (rules/seating/)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import pytest

from rules.errors import Refusal
from rules.seating import (
    Seating,
    Table,
    count_repeats,
    random_seating,
    schedule_from_csv,
    swiss_seating,
    wind_counts,
)

GENEROUS = 30.0  # seconds: the searches below end on their own long before
Round = Sequence[Sequence[int]]


def seats_of(seating: Seating) -> list[tuple[int, ...]]:
    return [table.seats for table in seating.tables]


def play_random(players: int, rounds: int, *, table_size: int = 4, seed: int = 1) -> tuple[list[Seating], list[Round]]:
    ids = list(range(1, players + 1))
    history: list[Round] = []
    seatings = []
    for round_no in range(rounds):
        seating = random_seating(
            players=ids, table_size=table_size, history=history, seed=seed * 100 + round_no, time_limit=GENEROUS
        )
        seatings.append(seating)
        history.append(seats_of(seating))
    return seatings, history


def check_round(seating: Seating, players: list[int], table_size: int) -> None:
    seated = [p for table in seating.tables for p in table.seats]
    assert Counter(seated + list(seating.byes)) == Counter(players)  # everyone exactly once, seated or out
    assert len(seating.byes) == len(players) % table_size
    assert [table.number for table in seating.tables] == list(range(1, len(players) // table_size + 1))
    assert all(len(table.seats) == table_size for table in seating.tables)


# --- every player once --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("table_size", range(2, 13))
@pytest.mark.parametrize("extra", [0, 1])
@pytest.mark.parametrize("swiss", [False, True])
def test_every_player_seated_once_per_round(table_size, extra, swiss):
    players = [100 + 7 * i for i in range(3 * table_size + extra * (table_size - 1))]
    history: list[list[tuple[int, ...]]] = []
    for round_no in range(3):
        if swiss:
            seating = swiss_seating(
                standings=players[round_no:] + players[:round_no],
                table_size=table_size,
                history=history,
                seed=round_no,
                time_limit=0.3,
            )
        else:
            seating = random_seating(
                players=players, table_size=table_size, history=history, seed=round_no, time_limit=0.3
            )
        check_round(seating, players, table_size)
        assert seating.repeats == count_repeats(history=[*history, seats_of(seating)]) - count_repeats(history=history)
        history.append(seats_of(seating))


# --- repeats ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_16_players_meet_everyone_once_in_5_rounds(seed):
    # The affine plane of order 4: 5 rounds in which every pair meets exactly once.
    seatings, history = play_random(16, 5, seed=seed)
    assert [s.repeats for s in seatings] == [0] * 5
    assert count_repeats(history=history) == 0
    met = {pair for round_ in history for table in round_ for pair in itertools.combinations(sorted(table), 2)}
    assert len(met) == 16 * 15 // 2


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8])
def test_q_squared_players_at_tables_of_q_are_repeat_free_for_q_plus_1_rounds(q):
    _, history = play_random(q * q, q + 1, table_size=q)
    assert count_repeats(history=history) == 0
    # One round more cannot avoid repeats: everyone has met everyone.
    extra = random_seating(players=list(range(1, q * q + 1)), table_size=q, history=history, seed=5, time_limit=0.2)
    assert extra.repeats == q * q * (q - 1) // 2


def test_a_plane_history_not_seated_by_this_module_still_completes():
    # Rows then columns of a 4×4 grid, seats in an arbitrary order: rounds 3 to 5 must still be repeat-free, which
    # a round 3 shaped like the cyclic Latin square would make impossible.
    grid = [[4 * i + j + 1 for j in range(4)] for i in range(4)]
    history: list[Round] = [[row[::-1] for row in grid], [[grid[(i + j) % 4][j] for i in range(4)] for j in range(4)]]
    for round_no in range(3):
        seating = random_seating(
            players=range(1, 17), table_size=4, history=history, seed=round_no, time_limit=GENEROUS
        )
        assert seating.repeats == 0
        history.append(seats_of(seating))
    assert count_repeats(history=history) == 0


def test_cyclic_latin_square_round_leaves_repeats_but_still_seats():
    grid = [[4 * i + j + 1 for j in range(4)] for i in range(4)]
    history = [
        grid,
        [list(col) for col in zip(*grid, strict=True)],
        [[grid[i][(i + k) % 4] for i in range(4)] for k in range(4)],
    ]
    seating = random_seating(players=range(1, 17), table_size=4, history=history, seed=3, time_limit=GENEROUS)
    check_round(seating, list(range(1, 17)), 4)
    assert 0 < seating.repeats <= 4


@pytest.mark.parametrize("seed", range(3))
def test_36_players_no_repeat_in_round_2(seed):
    seatings, _ = play_random(36, 2, seed=seed)
    assert seatings[1].repeats == 0


def test_64_players_repeat_free_for_8_rounds():
    _, history = play_random(64, 8)
    assert count_repeats(history=history) == 0


def test_a_pair_that_met_twice_is_avoided_before_pairs_that_met_once():
    # 4 players at tables of 2: one of the three pairings must repeat; {1,2}/{3,4} met twice, the others once.
    history = [[(1, 2), (3, 4)], [(1, 2), (3, 4)], [(1, 3), (2, 4)], [(1, 4), (2, 3)]]
    for seed in range(5):
        seating = random_seating(players=[1, 2, 3, 4], table_size=2, history=history, seed=seed, time_limit=GENEROUS)
        assert seating.repeats == 2
        assert {frozenset(t.seats) for t in seating.tables} != {frozenset((1, 2)), frozenset((3, 4))}


def test_history_may_name_players_who_left():
    history = [[(1, 2, 3, 4), (5, 6, 7, 99)]]
    seating = random_seating(players=range(1, 9), table_size=4, history=history, seed=1, time_limit=GENEROUS)
    check_round(seating, list(range(1, 9)), 4)
    # Player 8 met nobody yet; at best {1,2,3,4} splits two and two and {5,6,7} two and one.
    assert seating.repeats == 3


# --- swiss --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("table_size", [3, 4, 5])
def test_swiss_without_history_seats_by_rank(table_size):
    standings = [40, 3, 17, 8, 25, 11, 2, 30, 19, 5, 6, 7, 50, 51, 52]
    seating = swiss_seating(standings=standings, table_size=table_size, seed=4)
    for number, table in enumerate(seating.tables):
        assert set(table.seats) == set(standings[number * table_size : (number + 1) * table_size])
    assert seating.repeats == 0


def test_swiss_moves_players_one_table_at_most_to_avoid_repeats():
    ids = list(range(1, 17))
    history = [[tuple(ids[i : i + 4]) for i in range(0, 16, 4)]]
    for seed in range(4):
        seating = swiss_seating(standings=ids, table_size=4, history=history, seed=seed, time_limit=GENEROUS)
        check_round(seating, ids, 4)
        for table in seating.tables:
            for player in table.seats:
                assert abs(table.number - (1 + (player - 1) // 4)) <= 1
        # Table 1 can only draw on ranks 1-8 and table 4 on ranks 9-16: 2 + 1 + 1 + 2 repeats at least.
        assert seating.repeats == 6


def test_swiss_keeps_players_at_their_rank_table_when_nothing_repeats():
    ids = list(range(1, 17))
    history = [[(1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15), (4, 8, 12, 16)]]
    seating = swiss_seating(standings=ids, table_size=4, history=history, seed=2)
    assert [set(t.seats) for t in seating.tables] == [set(ids[i : i + 4]) for i in range(0, 16, 4)]


# --- seat winds ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_16_players_sit_every_wind_once_in_4_rounds(seed):
    seatings, history = play_random(16, 4, seed=seed)
    assert wind_counts(history=history, players=range(1, 17)) == {p: [1, 1, 1, 1] for p in range(1, 17)}
    assert seatings[-1].wind_imbalance == 0


def test_64_players_winds_stay_even():
    seatings, history = play_random(64, 4)
    assert seatings[0].wind_imbalance == 64  # after one round everyone has sat one wind once
    assert seatings[-1].wind_imbalance <= 8
    counts = wind_counts(history=history, players=range(1, 65))
    assert all(max(row) <= 2 for row in counts.values())


def test_seat_order_follows_the_winds_each_player_lacks():
    # Each of the four sat one wind in every earlier round but lacks a different one: the seat order is forced.
    history = [[(1, 2, 3, 4)], [(4, 1, 2, 3)], [(3, 4, 1, 2)]]
    for seed in range(4):
        seating = random_seating(players=[1, 2, 3, 4], table_size=4, history=history, seed=seed)
        assert seats_of(seating) == [(2, 3, 4, 1)]
        assert seating.wind_imbalance == 0


@pytest.mark.parametrize("table_size", [6, 7, 8])
def test_large_tables_balance_winds(table_size):
    players = list(range(1, table_size + 1))
    history: list[list[tuple[int, ...]]] = []
    for round_no in range(table_size):
        seating = random_seating(players=players, table_size=table_size, history=history, seed=round_no)
        history.append(seats_of(seating))
    assert seating.wind_imbalance == 0  # one table: a Latin square of seats over table_size rounds


def test_wind_imbalance_counts_players_on_a_bye():
    seating = random_seating(players=range(1, 6), table_size=4, history=[[(1, 2, 3, 4)]], seed=1)
    (out,) = seating.byes
    assert seating.wind_imbalance == 5  # every seated player has one wind twice or two winds once; the bye too
    assert wind_counts(history=[[(1, 2, 3, 4)], seats_of(seating)], players=[out], table_size=4)[out] in (
        [1, 0, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 1, 0],
        [0, 0, 0, 1],
        [0, 0, 0, 0],
    )


def test_wind_counts_and_count_repeats():
    history = [[(1, 2, 3, 4), (5, 6, 7, 8)], [(2, 1, 5, 6), (4, 3, 8, 7)], [(1, 2, 5, 6), (3, 4, 7, 8)]]
    assert count_repeats(history=history[:2]) == 4  # {1,2}, {5,6}, {3,4} and {7,8} meet again
    assert count_repeats(history=history) == 4 + 12  # then all twelve pairs of round 2 meet once more
    counts = wind_counts(history=history, players=[1, 8, 42])
    assert counts == {1: [2, 1, 0, 0], 8: [0, 0, 1, 2], 42: [0, 0, 0, 0]}
    assert wind_counts(history=(), players=[1]) == {1: []}
    assert wind_counts(history=(), players=[1], table_size=3) == {1: [0, 0, 0]}


# --- byes ---------------------------------------------------------------------------------------------------------


def test_byes_go_to_the_fewest_byes_so_far():
    players = list(range(1, 19))
    bye_counts = dict.fromkeys(players, 1) | {5: 0, 9: 0}
    for seed in range(5):
        seating = random_seating(players=players, table_size=4, seed=seed, bye_counts=bye_counts)
        assert seating.byes == (5, 9)
        check_round(seating, players, 4)


def test_bye_ties_are_drawn_at_random_and_reproducible():
    players = list(range(1, 19))
    bye_counts = dict.fromkeys(players, 2) | {3: 1, 11: 1, 17: 1}
    drawn = {random_seating(players=players, table_size=4, seed=seed, bye_counts=bye_counts).byes for seed in range(12)}
    assert all(len(byes) == 2 and set(byes) <= {3, 11, 17} for byes in drawn)
    assert len(drawn) > 1
    first = random_seating(players=players, table_size=4, seed=7, bye_counts=bye_counts)
    assert random_seating(players=players, table_size=4, seed=7, bye_counts=bye_counts) == first


def test_swiss_byes_go_to_the_lowest_standing_among_equals():
    standings = [10, 20, 30, 40, 50, 60, 70]
    assert swiss_seating(standings=standings, table_size=4, seed=1).byes == (50, 60, 70)
    seating = swiss_seating(standings=standings, table_size=4, seed=1, bye_counts={70: 1, 60: 1})
    assert seating.byes == (30, 40, 50)
    assert set(seating.tables[0].seats) == {10, 20, 60, 70}


# --- errors -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        (
            {"players": range(1, 39), "table_size": 4, "byes": False},
            "players",
            "38 players do not fill tables of 4: add 2 substitutes or allow byes",
        ),
        (
            {"players": range(1, 36), "table_size": 4, "byes": False},
            "players",
            "35 players do not fill tables of 4: add 1 substitute or allow byes",
        ),
        ({"players": range(1, 4), "table_size": 4}, "players", "3 players cannot fill a table of 4"),
        ({"players": [1, 2, 3, 2, 5, 1, 7, 8], "table_size": 4}, "players", "players 1, 2 listed more than once"),
        ({"players": [1, 2, 3, 3], "table_size": 4}, "players", "player 3 listed more than once"),
        ({"players": range(1, 9), "table_size": 0}, "table_size", "must be 1 to 12, not 0"),
        ({"players": range(1, 27), "table_size": 13}, "table_size", "must be 1 to 12, not 13"),
    ],
)
@pytest.mark.parametrize("swiss", [False, True])
def test_rule_errors(kwargs, field, message, swiss):
    kwargs = dict(kwargs)
    if swiss:
        kwargs["standings"] = list(kwargs.pop("players"))
    seat = swiss_seating if swiss else random_seating
    with pytest.raises(Refusal) as caught:
        seat(**kwargs)
    assert [(p.field, p.message) for p in caught.value.problems] == [(field, message)]


def test_players_that_fill_the_tables_need_no_byes():
    seating = random_seating(players=range(1, 37), table_size=4, byes=False, seed=1)
    assert seating.byes == ()
    check_round(seating, list(range(1, 37)), 4)


# --- time and determinism ----------------------------------------------------------------------------------------


def test_a_tight_time_limit_still_returns_a_valid_seating():
    players = list(range(1, 257))
    history = [[tuple(players[i : i + 4]) for i in range(0, 256, 4)], [tuple(players[i::64]) for i in range(64)]]
    for time_limit in (0.05, 0.0):
        for seating in (
            random_seating(players=players, table_size=4, history=history, seed=1, time_limit=time_limit),
            swiss_seating(standings=players, table_size=4, history=history, seed=1, time_limit=time_limit),
        ):
            check_round(seating, players, 4)


@pytest.mark.parametrize("players", [16, 20, 36])
def test_same_seed_same_seating(players):
    _, history = play_random(players, 3, seed=9)
    ids = list(range(1, players + 1))
    first = random_seating(players=ids, table_size=4, history=history, seed=5, time_limit=GENEROUS)
    assert random_seating(players=ids, table_size=4, history=history, seed=5, time_limit=GENEROUS) == first
    swiss = swiss_seating(standings=ids[::-1], table_size=4, history=history, seed=5, time_limit=GENEROUS)
    assert swiss_seating(standings=ids[::-1], table_size=4, history=history, seed=5, time_limit=GENEROUS) == swiss


# --- CSV schedules ------------------------------------------------------------------------------------------------


def test_csv_schedule_by_seat_names():
    text = "\n".join(
        [
            "Round,Table,East,South,West,North",
            "1,2,5,6,7,8",
            "1,1,1,2,3,4",
            "",
            "2,1,1,5,3,7",
            "2,2,2,6,4,8",
        ]
    )
    assert schedule_from_csv(text=text, players=range(1, 9), table_size=4) == [
        [Table(1, (1, 2, 3, 4)), Table(2, (5, 6, 7, 8))],
        [Table(1, (1, 5, 3, 7)), Table(2, (2, 6, 4, 8))],
    ]


def test_csv_seat_columns_by_name_in_any_order_or_by_position():
    named = "table,round,north,west,south,east\n1,1,4,3,2,1\n"
    positional = "round,table,a,b,c,d\n1,1,1,2,3,4\n"
    expected = [[Table(1, (1, 2, 3, 4))]]
    assert schedule_from_csv(text=named, table_size=4) == expected
    assert schedule_from_csv(text=positional, table_size=4) == expected
    eight = "round,table," + ",".join(f"seat{i}" for i in range(8, 0, -1)) + "\n1,1,8,7,6,5,4,3,2,1\n"
    assert schedule_from_csv(text=eight, table_size=8) == [[Table(1, tuple(range(1, 9)))]]
    twelve = (
        "round,table,"
        + ",".join(f"seat{i}" for i in range(12, 0, -1))
        + "\n1,1,"
        + ",".join(str(p) for p in range(12, 0, -1))
        + "\n"
    )
    assert schedule_from_csv(text=twelve, table_size=12) == [[Table(1, tuple(range(1, 13)))]]
    three = "round,table,east,south,west\r\n1,1,9,8,7\r\n"
    assert schedule_from_csv(text=three, table_size=3) == [[Table(1, (9, 8, 7))]]


def test_csv_problems_are_reported_by_line():
    text = "\n".join(
        [
            "round,table,east,south,west,north",  # line 1
            "1,1,1,2,3,4",
            "1,1,5,6,7,8",  # table 1 again
            "1,2,1,9,10,11",  # player 1 again in round 1
            "x,1,1,2,3,4",  # bad round
            "2,0,1,2,3,4",  # bad table
            "2,1,1,2,3,99",  # not a player
            "2,2,5,6,6,eight",  # 6 twice, a name
            "2,3,1,2",  # too short
            "4,1,1,2,3,4",  # round 3 missing
            "4,3,5,6,7,8",  # table 2 missing
        ]
    )
    with pytest.raises(Refusal) as caught:
        schedule_from_csv(text=text, players=range(1, 12), table_size=4)
    assert [(p.field, p.message) for p in caught.value.problems] == [
        ("line 3", "round 1 already has a table 1"),
        ("line 4", "player 1 already sits in round 1 (line 2)"),
        ("line 5", "round must be a number from 1 to 100, not 'x'"),
        ("line 6", "table must be a number from 1 to 500, not '0'"),
        ("line 7", "north: player 99 is not in this tournament"),
        ("line 8", "north must be a player id (an integer), not 'eight'"),
        ("line 8", "player 6 sits twice at this table"),
        ("line 9", "has 4 values, the header has 6"),
        ("line 10", "round 4 follows round 2: round 3 is missing"),
        ("line 10", "round 4 has no table 2"),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the schedule is empty: expected the header round,table,east,south,west,north"),
        (
            "round,east,south,west,north\n",
            "expected the header round,table,east,south,west,north (seat columns by name or position)",
        ),
        (
            "round,table,east,south,west\n1,1,1,2,3\n",
            "expected the header round,table,east,south,west,north (seat columns by name or position)",
        ),
    ],
)
def test_csv_bad_header(text, message):
    with pytest.raises(Refusal) as caught:
        schedule_from_csv(text=text, table_size=4)
    assert [(p.field, p.message) for p in caught.value.problems] == [("line 1", message)]


def test_csv_without_tables():
    with pytest.raises(Refusal) as caught:
        schedule_from_csv(text="round,table,east,south,west,north\n", table_size=4)
    assert [(p.field, p.message) for p in caught.value.problems] == [("line 2", "the schedule has no tables")]
