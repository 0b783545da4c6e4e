"""The riichi point table, checked cell by cell against the published table.

Every expected number below is typed in from the standard riichi point table
(the one printed on every score card; docs/rules.md §2). None of them is computed
from the fu × 2^(han+2) formula: the test is an independent check of
rules.hand_value, so a wrong formula or a wrong rounding shows up as a cell
that differs from the card.

A row is one han/fu pair:

    (han, fu, non-dealer ron, non-dealer tsumo, dealer ron, dealer tsumo)

- non-dealer ron: what the discarder pays a non-dealer;
- non-dealer tsumo: (what each non-dealer pays, what the dealer pays);
- dealer ron: what the discarder pays the dealer;
- dealer tsumo: what each of the three others pays the dealer ("all").

None marks a cell the table leaves empty ("—"): no hand has that han/fu for
that kind of win, and the engine must refuse it. All payments are before
honba, at a four-player table with the standard tsumo split.
"""

from __future__ import annotations

import pytest

from rules.errors import Refusal
from rules.hand_value import check_han_fu, hand_value, ron_value, tsumo_shares
from rules.ruleset import Ruleset

PLAYERS = 4
DEALER = 0  # seat 0 deals; seat 1 is the non-dealer who wins in the non-dealer columns
NON_DEALER = 1

NO_KIRIAGE = Ruleset.build(overrides={"kiriage_mangan": False})
KIRIAGE = Ruleset.build(overrides={"kiriage_mangan": True})
KAZOE = Ruleset.build(overrides={"kazoe_yakuman": True})
NO_KAZOE = Ruleset.build(overrides={"kazoe_yakuman": False})
MULTIPLE_YAKUMAN = Ruleset.build(overrides={"multiple_yakuman": True})
SINGLE_YAKUMAN = Ruleset.build(overrides={"multiple_yakuman": False})


# --- the engine, read the way the table is laid out --------------------------


def ron_cell(ruleset: Ruleset, *, han: int, fu: int | None, dealer: bool) -> int | None:
    """The ron cell for han/fu, or None if the engine refuses the pair as a ron."""
    try:
        check_han_fu(han=han, fu=fu, tsumo=False)
    except Refusal:
        return None
    value = hand_value(ruleset=ruleset, han=han, fu=fu)
    return ron_value(ruleset=ruleset, base=value.base, dealer=dealer)


def tsumo_cell(ruleset: Ruleset, *, han: int, fu: int | None, dealer: bool) -> object:
    """The tsumo cell for han/fu, or None if the engine refuses the pair as a tsumo.

    Non-dealer: (each non-dealer pays, dealer pays). Dealer: what each pays.
    If the payers who should pay alike do not, the raw shares come back so the
    failure shows them.
    """
    try:
        check_han_fu(han=han, fu=fu, tsumo=True)
    except Refusal:
        return None
    value = hand_value(ruleset=ruleset, han=han, fu=fu)
    return shares_cell(ruleset, base=value.base, dealer=dealer)


def shares_cell(ruleset: Ruleset, *, base: int, dealer: bool) -> object:
    winner = DEALER if dealer else NON_DEALER
    shares = tsumo_shares(ruleset=ruleset, base=base, winner=winner, dealer=DEALER, players=PLAYERS)
    if dealer:
        if sorted(shares) == [1, 2, 3] and len(set(shares.values())) == 1:
            return shares[1]
        return shares
    if sorted(shares) == [0, 2, 3] and shares[2] == shares[3]:
        return (shares[2], shares[DEALER])
    return shares


def table_row(ruleset: Ruleset, han: int, fu: int | None) -> dict[str, object]:
    return {
        "non-dealer ron": ron_cell(ruleset, han=han, fu=fu, dealer=False),
        "non-dealer tsumo": tsumo_cell(ruleset, han=han, fu=fu, dealer=False),
        "dealer ron": ron_cell(ruleset, han=han, fu=fu, dealer=True),
        "dealer tsumo": tsumo_cell(ruleset, han=han, fu=fu, dealer=True),
    }


def expected_row(nd_ron, nd_tsumo, d_ron, d_tsumo) -> dict[str, object]:
    return {
        "non-dealer ron": nd_ron,
        "non-dealer tsumo": nd_tsumo,
        "dealer ron": d_ron,
        "dealer tsumo": d_tsumo,
    }


# --- 1 to 4 han ----------------------------------------------------------------

# Source: standard riichi point table (docs/rules.md §2), without kiriage mangan.
# 20 fu: pinfu tsumo, 2 han and up. A 20-fu ron cannot occur in play, but
# docs/score-sheet.md only refuses 1 han 20 fu, so it is priced as other systems
# price it (Pantheon: 4 han 20 fu ron = 5200 / 7700). 25 fu: chiitoitsu, a ron from
# 2 han, a tsumo from 3 han. 3 han 70 fu and up, 4 han 40 fu and up: mangan.
# fmt: off
POINT_TABLE = [
    # han  fu   non-dealer ron  non-dealer tsumo  dealer ron  dealer tsumo (all)
    (1,   30,  1000,  (300, 500),     1500,  500),
    (1,   40,  1300,  (400, 700),     2000,  700),
    (1,   50,  1600,  (400, 800),     2400,  800),
    (1,   60,  2000,  (500, 1000),    2900,  1000),
    (1,   70,  2300,  (600, 1200),    3400,  1200),
    (1,   80,  2600,  (700, 1300),    3900,  1300),
    (1,   90,  2900,  (800, 1500),    4400,  1500),
    (1,  100,  3200,  (800, 1600),    4800,  1600),
    (1,  110,  3600,  (900, 1800),    5300,  1800),

    (2,   20,  1300,  (400, 700),     2000,  700),
    (2,   25,  1600,  None,           2400,  None),
    (2,   30,  2000,  (500, 1000),    2900,  1000),
    (2,   40,  2600,  (700, 1300),    3900,  1300),
    (2,   50,  3200,  (800, 1600),    4800,  1600),
    (2,   60,  3900,  (1000, 2000),   5800,  2000),
    (2,   70,  4500,  (1200, 2300),   6800,  2300),
    (2,   80,  5200,  (1300, 2600),   7700,  2600),
    (2,   90,  5800,  (1500, 2900),   8700,  2900),
    (2,  100,  6400,  (1600, 3200),   9600,  3200),
    (2,  110,  7100,  (1800, 3600),  10600,  3600),

    (3,   20,  2600,  (700, 1300),    3900,  1300),
    (3,   25,  3200,  (800, 1600),    4800,  1600),
    (3,   30,  3900,  (1000, 2000),   5800,  2000),
    (3,   40,  5200,  (1300, 2600),   7700,  2600),
    (3,   50,  6400,  (1600, 3200),   9600,  3200),
    (3,   60,  7700,  (2000, 3900),  11600,  3900),
    (3,   70,  8000,  (2000, 4000),  12000,  4000),
    (3,   80,  8000,  (2000, 4000),  12000,  4000),
    (3,   90,  8000,  (2000, 4000),  12000,  4000),
    (3,  100,  8000,  (2000, 4000),  12000,  4000),
    (3,  110,  8000,  (2000, 4000),  12000,  4000),

    (4,   20,  5200,  (1300, 2600),   7700,  2600),
    (4,   25,  6400,  (1600, 3200),   9600,  3200),
    (4,   30,  7700,  (2000, 3900),  11600,  3900),
    (4,   40,  8000,  (2000, 4000),  12000,  4000),
    (4,   50,  8000,  (2000, 4000),  12000,  4000),
    (4,   60,  8000,  (2000, 4000),  12000,  4000),
    (4,   70,  8000,  (2000, 4000),  12000,  4000),
    (4,   80,  8000,  (2000, 4000),  12000,  4000),
    (4,   90,  8000,  (2000, 4000),  12000,  4000),
    (4,  100,  8000,  (2000, 4000),  12000,  4000),
    (4,  110,  8000,  (2000, 4000),  12000,  4000),
]

# Source: standard riichi point table (docs/rules.md §2), kiriage mangan column:
# with kiriage the only two cells that change are 4 han 30 fu and 3 han 60 fu,
# which are rounded up to mangan. Every other row is as in POINT_TABLE.
KIRIAGE_ROWS = {
    # (han, fu): (non-dealer ron, non-dealer tsumo, dealer ron, dealer tsumo)
    (4, 30): (8000, (2000, 4000), 12000, 4000),
    (3, 60): (8000, (2000, 4000), 12000, 4000),
}
# fmt: on


def row_id(han: int, fu: int) -> str:
    return f"{han}han-{fu}fu"


@pytest.mark.parametrize(
    ("han", "fu", "nd_ron", "nd_tsumo", "d_ron", "d_tsumo"),
    [pytest.param(*row, id=row_id(*row[:2])) for row in POINT_TABLE],
)
def test_point_table_without_kiriage(han, fu, nd_ron, nd_tsumo, d_ron, d_tsumo):
    assert table_row(NO_KIRIAGE, han, fu) == expected_row(nd_ron, nd_tsumo, d_ron, d_tsumo)


@pytest.mark.parametrize(
    ("han", "fu", "nd_ron", "nd_tsumo", "d_ron", "d_tsumo"),
    [pytest.param(han, fu, *KIRIAGE_ROWS.get((han, fu), cells), id=row_id(han, fu)) for han, fu, *cells in POINT_TABLE],
)
def test_point_table_with_kiriage(han, fu, nd_ron, nd_tsumo, d_ron, d_tsumo):
    assert table_row(KIRIAGE, han, fu) == expected_row(nd_ron, nd_tsumo, d_ron, d_tsumo)


def test_kiriage_rows_are_in_the_table():
    """The two kiriage cells replace rows that exist, and really differ from them."""
    plain = {(han, fu): tuple(cells) for han, fu, *cells in POINT_TABLE}
    for key, cells in KIRIAGE_ROWS.items():
        assert key in plain
        assert plain[key] != cells


# --- limit hands ---------------------------------------------------------------

# Source: standard riichi point table (docs/rules.md §2), limit hands. From 5 han the
# fu do not matter and may be left out. 13 han and up: kazoe yakuman where the
# ruleset counts it, else sanbaiman.
# fmt: off
LIMIT_TABLE = [
    # ruleset   han  limit              non-dealer ron  non-dealer tsumo  dealer ron  dealer tsumo (all)
    (KAZOE,     5,  "mangan",          8000,  (2000, 4000),    12000,   4000),
    (KAZOE,     6,  "haneman",        12000,  (3000, 6000),    18000,   6000),
    (KAZOE,     7,  "haneman",        12000,  (3000, 6000),    18000,   6000),
    (KAZOE,     8,  "baiman",         16000,  (4000, 8000),    24000,   8000),
    (KAZOE,     9,  "baiman",         16000,  (4000, 8000),    24000,   8000),
    (KAZOE,    10,  "baiman",         16000,  (4000, 8000),    24000,   8000),
    (KAZOE,    11,  "sanbaiman",      24000,  (6000, 12000),   36000,  12000),
    (KAZOE,    12,  "sanbaiman",      24000,  (6000, 12000),   36000,  12000),
    (KAZOE,    13,  "kazoe yakuman",  32000,  (8000, 16000),   48000,  16000),
    (KAZOE,    14,  "kazoe yakuman",  32000,  (8000, 16000),   48000,  16000),
    (KAZOE,    26,  "kazoe yakuman",  32000,  (8000, 16000),   48000,  16000),
    (NO_KAZOE, 11,  "sanbaiman",      24000,  (6000, 12000),   36000,  12000),
    (NO_KAZOE, 12,  "sanbaiman",      24000,  (6000, 12000),   36000,  12000),
    (NO_KAZOE, 13,  "sanbaiman",      24000,  (6000, 12000),   36000,  12000),
    (NO_KAZOE, 14,  "sanbaiman",      24000,  (6000, 12000),   36000,  12000),
    (NO_KAZOE, 26,  "sanbaiman",      24000,  (6000, 12000),   36000,  12000),
]
# fmt: on


def ruleset_id(ruleset: Ruleset) -> str:
    return {id(KAZOE): "kazoe", id(NO_KAZOE): "no-kazoe"}[id(ruleset)]


@pytest.mark.parametrize(
    ("ruleset", "han", "limit", "nd_ron", "nd_tsumo", "d_ron", "d_tsumo"),
    [pytest.param(*row, id=f"{ruleset_id(row[0])}-{row[1]}han") for row in LIMIT_TABLE],
)
@pytest.mark.parametrize("fu", [None, 30], ids=["no-fu", "30fu"])
def test_limit_hands(ruleset, han, fu, limit, nd_ron, nd_tsumo, d_ron, d_tsumo):
    assert hand_value(ruleset=ruleset, han=han, fu=fu).limit == limit
    assert table_row(ruleset, han, fu) == expected_row(nd_ron, nd_tsumo, d_ron, d_tsumo)


# Source: standard riichi point table (docs/rules.md §2), yakuman: 8000 base per
# yakuman; a double yakuman counts twice where multiple yakuman are allowed
# and is capped at one yakuman where they are not.
# fmt: off
YAKUMAN_TABLE = [
    # ruleset           yakuman  non-dealer ron  non-dealer tsumo  dealer ron  dealer tsumo (all)
    (MULTIPLE_YAKUMAN,  1,  32000,  (8000, 16000),    48000,  16000),
    (MULTIPLE_YAKUMAN,  2,  64000,  (16000, 32000),   96000,  32000),
    (SINGLE_YAKUMAN,    1,  32000,  (8000, 16000),    48000,  16000),
    (SINGLE_YAKUMAN,    2,  32000,  (8000, 16000),    48000,  16000),
]
# fmt: on


def yakuman_id(ruleset: Ruleset, count: int) -> str:
    rule = "multiple" if ruleset is MULTIPLE_YAKUMAN else "capped"
    return f"{rule}-{count}x"


@pytest.mark.parametrize(
    ("ruleset", "yakuman", "nd_ron", "nd_tsumo", "d_ron", "d_tsumo"),
    [pytest.param(*row, id=yakuman_id(*row[:2])) for row in YAKUMAN_TABLE],
)
def test_yakuman(ruleset, yakuman, nd_ron, nd_tsumo, d_ron, d_tsumo):
    value = hand_value(ruleset=ruleset, yakuman=yakuman)
    actual = {
        "non-dealer ron": ron_value(ruleset=ruleset, base=value.base, dealer=False),
        "non-dealer tsumo": shares_cell(ruleset, base=value.base, dealer=False),
        "dealer ron": ron_value(ruleset=ruleset, base=value.base, dealer=True),
        "dealer tsumo": shares_cell(ruleset, base=value.base, dealer=True),
    }
    assert actual == expected_row(nd_ron, nd_tsumo, d_ron, d_tsumo)


# --- pairs no hand can have ----------------------------------------------------

# Source: standard riichi point table (docs/rules.md §2): the empty cells and the fu
# that are not on the table at all (fu are 20, 25 and 30 to 110 in steps of 10).
IMPOSSIBLE = [
    pytest.param(1, 20, True, id="1han-20fu-tsumo"),
    pytest.param(1, 20, False, id="1han-20fu-ron"),
    pytest.param(1, 25, False, id="1han-25fu-ron"),
    pytest.param(1, 25, True, id="1han-25fu-tsumo"),
    pytest.param(2, 25, True, id="2han-25fu-tsumo"),
    pytest.param(2, 35, False, id="35fu-ron"),
    pytest.param(2, 35, True, id="35fu-tsumo"),
    pytest.param(1, 120, False, id="120fu-ron"),
    pytest.param(1, 120, True, id="120fu-tsumo"),
    pytest.param(1, 10, False, id="10fu"),
    pytest.param(0, 30, False, id="0han-ron"),
    pytest.param(0, 30, True, id="0han-tsumo"),
    pytest.param(4, None, False, id="4han-no-fu-ron"),
    pytest.param(4, None, True, id="4han-no-fu-tsumo"),
    pytest.param(1, None, False, id="1han-no-fu"),
]


@pytest.mark.parametrize(("han", "fu", "tsumo"), IMPOSSIBLE)
def test_impossible_han_fu_is_refused(han, fu, tsumo):
    with pytest.raises(Refusal):
        check_han_fu(han=han, fu=fu, tsumo=tsumo)
