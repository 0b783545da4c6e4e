"""Tables of nine to twelve players: seed 001's general rule 0 (docs/rules.md §7; docs/nine-or-more-players.md).

Seed 001 plays N-player mahjong with 34 × N tiles ("N인이 34×N의 패를 써서 하는
마작", from one player to "9인 마작, 또는 그 이상": nine "or more") under one
general rule 0. What it fixes, these presets take as it is; what it leaves
open, they take from the six- to eight-player presets, marked (?). Each
preset registers itself with rules.presets when this module is imported.
"""

from __future__ import annotations

from typing import Any

from rules.presets import preset


def _rule_0_table(players: int) -> dict[str, Any]:
    # As eight-player (no dealer bonus, a tsumo in equal shares, 25000 / 30000, no uma, noten 3000, honba 300),
    # with rule 0's abortive draws and one round wind.
    return {
        "based_on": "eight-player",
        "players": players,
        "round_winds": 1,
        "abortive_draws": True,
        "abortive_draw_rules": "rule_0",
    }


@preset("nine-player")
def _nine_player() -> dict[str, Any]:
    """Nine players, rule 0 (seed 001 "N인 마작", its table's "9인마작" row; docs/rules.md §7, §8).

    From the seed: 306 tiles (34 × 9); chi from the three players on the
    left; the dealer is always East; a dead wall of 2 tiles, the last tile
    of the wall showing the dora; abortive draws, and only these: the first
    9 discards all of one wind (four_winds), all 9 players in riichi once
    the last declaration passes (four_riichi; a draw written with all 9 in
    riichi is taken as it), 8 rons on one discard (all_others_ron, written
    as a ron with its 8 wins or as that abortive draw). One ron on a
    discard: the first in turn after the discarder wins (head bump, the
    seed's "상가우선"). No dealer bonus, as the seed's five-player rule 0
    has it: every win is a non-dealer's (3 han 30 fu is 3900 from the
    discarder, the dealer's too).
    Extended (?): a tsumo is the ron value in equal eighths, each rounded
    up to 100 (3 han 30 fu: 500 from each, 4000), as the seed's
    three-player rule 0 shares it in halves. Noten total 3000, shared as
    at six to eight players (one tenpai: 375 from each of 8); where a share
    is not a whole point, each pair's share is rounded up to 100 (two
    tenpai: 600 from each of 7, 2100 to each, 4200 in all; override
    noten_payment_total 2520 for a total that every split divides). Honba
    300, 38 from each payer on a tsumo (300 / 8 rounded up). 25000 / 30000
    and no uma; chombo −20 deducted. Seats E E E S S W W N N (the seed
    seats eight players two to each wind; the ninth seat goes to East). A
    game of one round wind, E1–E9, each player dealing once (the seed's
    five-player games are about ten hands; round_winds 2 plays E and S);
    renchan when the dealer is tenpai, as at six to eight players.
    """
    return _rule_0_table(9)


@preset("ten-player")
def _ten_player() -> dict[str, Any]:
    """Ten players, rule 0 (seed 001 "N인 마작": nine "or more"; docs/rules.md §7, §8).

    As nine-player, with 340 tiles (34 × 10); abortive draws on the first
    10 discards of one wind, all 10 in riichi, 9 rons on one discard.
    Extended (?): as nine-player; chi from the three players on the left
    (the seed's table gives one up to four players, two from five to eight,
    three at nine); a tsumo in ninths (3 han 30 fu: 500 each); seats
    E E E S S S W W N N; a game of E1–E10; honba 34 from each payer on a
    tsumo (300 / 9 rounded up).
    """
    return _rule_0_table(10)


@preset("eleven-player")
def _eleven_player() -> dict[str, Any]:
    """Eleven players, rule 0 (seed 001 "N인 마작": nine "or more"; docs/rules.md §7, §8).

    As nine-player, with 374 tiles (34 × 11); abortive draws on the first
    11 discards of one wind, all 11 in riichi, 10 rons on one discard.
    Extended (?): as ten-player; a tsumo in tenths (3 han 30 fu: 400
    each); seats E E E S S S W W W N N; a game of E1–E11; honba 30 from
    each payer on a tsumo.
    """
    return _rule_0_table(11)


@preset("twelve-player")
def _twelve_player() -> dict[str, Any]:
    """Twelve players, rule 0 (seed 001 "N인 마작": nine "or more"; docs/rules.md §7, §8).

    As nine-player, with 408 tiles (34 × 12); abortive draws on the first
    12 discards of one wind, all 12 in riichi, 11 rons on one discard.
    Extended (?): as ten-player; a tsumo in elevenths (3 han 30 fu: 400
    each); seats E E E S S S W W W N N N, three to each wind; a game of
    E1–E12; honba 28 from each payer on a tsumo (300 / 11 rounded up).
    """
    return _rule_0_table(12)
