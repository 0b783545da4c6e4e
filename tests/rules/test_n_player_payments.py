"""Tsumo and noten payments at tables other than four (seed 001, docs/rules.md §7)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.game import play_hand
from rules.hand_value import tsumo_shares
from rules.hands import Draw
from rules.ruleset import Ruleset
from rules.state import start_state

FIVE_RULE_1: dict[str, Any] = {
    "players": 5,
    "uma": [10, 5, 0, -5, -10],
    "dealer_bonus": False,
    "tsumo_payment": "equal_shares",
    "noten_payment_total": 2400,
}
FIVE_RULE_2: dict[str, Any] = {
    "players": 5,
    "uma": [10, 5, -3, -5, -7],
    "tsumo_payment": "five_player_rule_2",
    "noten_payment_total": 3600,
}
SANMA_0: dict[str, Any] = {"players": 3, "uma": [20, 0, -20], "tsumo_payment": "equal_shares"}


@pytest.mark.parametrize(
    ("overrides", "base", "winner", "shares"),
    [
        # Rule 1: no dealer bonus, a non-dealer mangan tsumo is 2000 all (seed 001, 5-player rule 1).
        (FIVE_RULE_1, 2000, 0, {1: 2000, 2: 2000, 3: 2000, 4: 2000}),
        (FIVE_RULE_1, 2000, 2, {0: 2000, 1: 2000, 3: 2000, 4: 2000}),
        # Rule 2: dealer 1 han 30 fu (1500): 1440 -> 720 -> 360, rounded up: 400 all.
        (FIVE_RULE_2, 240, 0, {1: 400, 2: 400, 3: 400, 4: 400}),
        # Rule 2: dealer mangan 12000: 3000 all.
        (FIVE_RULE_2, 2000, 0, {1: 3000, 2: 3000, 3: 3000, 4: 3000}),
        # Rule 2: non-dealer 5200 (3 han 40 fu): 2600 / 1300 / 1300 / 1300 = 6500.
        (FIVE_RULE_2, 1280, 1, {0: 2600, 2: 1300, 3: 1300, 4: 1300}),
        # Rule 2: non-dealer mangan: 10000.
        (FIVE_RULE_2, 2000, 1, {0: 4000, 2: 2000, 3: 2000, 4: 2000}),
        # Three players, rule 0: the two others split the winner's ron value in halves; the dealer pays no extra.
        (SANMA_0, 2000, 1, {0: 4000, 2: 4000}),
        (SANMA_0, 2000, 0, {1: 6000, 2: 6000}),
    ],
)
def test_tsumo_shares(overrides, base, winner, shares):
    ruleset = Ruleset.build(overrides=overrides)
    assert tsumo_shares(ruleset=ruleset, base=base, winner=winner, dealer=0, players=ruleset.players) == shares


@pytest.mark.parametrize(
    ("total", "tenpai", "deltas"),
    [
        # Seed 001, 5-player rule 1 (2400): 1 tenpai 600 x 4; 2 tenpai 800 x 3 -> 1200 each; ...
        (2400, {0}, (2400, -600, -600, -600, -600)),
        (2400, {0, 1}, (1200, 1200, -800, -800, -800)),
        (2400, {0, 1, 2}, (800, 800, 800, -1200, -1200)),
        (2400, {0, 1, 2, 3}, (600, 600, 600, 600, -2400)),
        # Rule 2 (3600): 900 x 4, 1200 x 3 -> 1800 each, 1800 x 2 -> 1200 each, 3600 x 1 -> 900 each.
        (3600, {4}, (-900, -900, -900, -900, 3600)),
        (3600, {0, 4}, (1800, -1200, -1200, -1200, 1800)),
        (3600, {0, 1, 4}, (1200, 1200, -1800, -1800, 1200)),
        (3600, {0, 1, 2, 4}, (900, 900, 900, -3600, 900)),
    ],
)
def test_five_player_noten_payments(total, tenpai, deltas):
    ruleset = Ruleset.build(overrides={**FIVE_RULE_1, "noten_payment_total": total})
    record = play_hand(ruleset=ruleset, state=start_state(ruleset=ruleset), result=Draw(tenpai=frozenset(tenpai)))
    assert record.settlement.deltas == deltas
