"""Tables of two players (seed 003) and of five to eight (seed 001): docs/rules.md §7, §8.

Each preset registers itself with rules.presets when this module is imported; rules.presets imports it after
sanma, so the order of the presets an organiser picks from stays two, five, six, seven, eight, then nine to twelve
(rules.large_tables).
"""

from __future__ import annotations

from typing import Any

from rules.presets import preset


@preset("two-player")
def _two_player() -> dict[str, Any]:
    """Two players, the common 80-tile game (seed 003 §1; docs/rules.md §7, §8).

    Characters and dots 2–8 taken out; East and South seats only; a hanchan is
    E1, E2, S1, S2; chi allowed. A tsumo is paid by the one opponent as the
    ron value (the four-player split would leave half of it unpaid).
    Uncertain (?): 25000 / 25000 and no uma (a heads-up game is won or lost
    on the score); honba 300 and noten total 3000 by default (seed 001's
    68-tile rule 0 uses 200 and 2000: override honba_points and
    noten_payment_total for it); chombo −20 deducted.
    """
    return {"players": 2, "start_points": 25000, "return_points": 25000, "uma": [], "tsumo_payment": "equal_shares"}


@preset("two-player-mangan")
def _two_player_mangan() -> dict[str, Any]:
    """Two players, mangan play (seed 003 §2): characters and honors only, a
    win needs 5 han (mangan), half flush included. Otherwise as two-player."""
    return {"based_on": "two-player", "min_han": 5}


@preset("two-player-yakuman")
def _two_player_yakuman() -> dict[str, Any]:
    """Two players, yakuman play (seed 003 §3): 80 tiles, only yakuman win,
    counted (kazoe) yakuman included. Otherwise as two-player."""
    return {"based_on": "two-player", "yakuman_only": True, "kazoe_yakuman": True}


@preset("five-player-1")
def _five_player_1() -> dict[str, Any]:
    """Five players, rule 1 (seed 001 "5인 마작 제1룰"; docs/rules.md §7, §8).

    140 tiles: the four seasons added as one Flower wind; seats E S W N F.
    No dealer bonus: everyone scores as a non-dealer and a tsumo is paid in
    equal shares by the four others (a mangan tsumo is 2000 all); no renchan,
    the dealer passes after every hand. Noten total 2400 (600 × 4 for one
    tenpai … 2400 × 1 for four). A "2/5" game of E and S rounds (10 hands);
    round_winds 5 plays all 25. Uma +10/+5/0/−5/−10. Chombo: reverse mangan
    at the table (2000 to each), no deduction.
    Uncertain (?): 27000 / 30000 (the seed gives them for rule 2 only);
    honba 400, 100 from each payer on a tsumo.
    """
    return {
        "players": 5,
        "start_points": 27000,
        "return_points": 30000,
        "uma": [10, 5, 0, -5, -10],
        "dealer_bonus": False,
        "tsumo_payment": "equal_shares",
        "renchan": "none",
        "noten_payment_total": 2400,
        "honba_points": 400,
        "round_winds": 2,
        "chombo_payment": "reverse_mangan",
        "chombo_penalty": 0,
    }


@preset("five-player-2")
def _five_player_2() -> dict[str, Any]:
    """Five players, rule 2 (seed 001 "5인 마작 제2룰"; docs/rules.md §7, §8).

    The dealer wins 1.5× again. A dealer's tsumo: the four others pay the
    dealer's ron value / 4 each, rounded up to 100 (1500 → 400 all). A
    non-dealer's tsumo: a part is the non-dealer ron value / 4, the dealer
    pays two parts and the others one (5200 → 2600/1300/1300/1300). The
    dealer keeps the seat only on a win; a tenpai dealer still gets noten
    payments. Noten total 3600; honba 400; 27000 / 30000 (oka 15000); an
    East–South game; the last dealer may stop after a win (a sheet that ends
    on that win is finished; further hands go on as renchan). Uma
    +10/+5/−3/−5/−7 (the seed's second suggestion: third place loses).
    Chombo: reverse mangan at the table, no deduction (docs/rules.md §8).
    """
    return {
        "players": 5,
        "start_points": 27000,
        "return_points": 30000,
        "uma": [10, 5, -3, -5, -7],
        "tsumo_payment": "five_player_rule_2",
        "renchan": "win",
        "noten_payment_total": 3600,
        "honba_points": 400,
        "round_winds": 2,
        "last_dealer_may_stop": True,
        "chombo_payment": "reverse_mangan",
        "chombo_penalty": 0,
    }


def _large_table(players: int) -> dict[str, Any]:
    return {
        "players": players,
        "start_points": 25000,
        "return_points": 30000,
        "uma": [],
        "dealer_bonus": False,
        "tsumo_payment": "equal_shares",
    }


@preset("six-player")
def _six_player() -> dict[str, Any]:
    """Six players (seed 001 "6인 마작"; docs/rules.md §7, §8).

    204 tiles (two more of each); seats E S W N White Green; chi from the two
    players on the left. No dealer bonus; a tsumo is paid in equal shares by
    the five others (one fifth each, rounded up to 100). Round letters E S W
    N B G (B: the white dragon, blank).
    Uncertain (?): 25000 / 30000, no uma, chombo −20 deducted, noten total
    3000 and honba 300 (60 from each payer on a tsumo) — the seed gives none.
    """
    return _large_table(6)


@preset("seven-player")
def _seven_player() -> dict[str, Any]:
    """Seven players (seed 001 "7인 마작"): as six-player with the Red seat
    added (E S W N White Green Red; 238 tiles); a tsumo is paid in sixths.
    Uncertain (?): as six-player (honba 300 is 50 from each payer)."""
    return _large_table(7)


@preset("eight-player")
def _eight_player() -> dict[str, Any]:
    """Eight players (seed 001 "8인 마작"): two of each wind, seated E E S S
    W W N N (272 tiles); a tsumo is paid in sevenths, rounded up to 100.
    Uncertain (?): as six-player. 3000 does not split into sevenths: with one
    tenpai (or one noten) player each pair's share is rounded up to 100, so
    the noten total becomes 3500; a tsumo's honba share is 300/7 rounded up
    (43 from each payer).
    """
    return _large_table(8)
