"""Benchmark: scoring wins from their tiles (scoring/riichi_tiles.py over ``mahjong``, scoring/mcr_tiles.py
over ``pymahjonggb``), and whole score sheets whose every win is typed as tiles.

Run it from the project root::

    .venv/bin/python benchmarks/tiles.py [--hands N]

For each model it reads a fixed mix of real winning hands (simple and limit
hands, open and closed, tsumo and ron, with and without flags), then times
``--hands`` calls of the adapter (reading the notation included), best of
three runs, and prints hands per second. It then replays a 16-hand MCR sheet
and a riichi sheet typed as tiles through ``score_sheet`` and prints sheets
per second, so the cost a referee's page sees is measured with the engine.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import argparse
import resource
import time
from collections.abc import Callable
from functools import partial
from itertools import cycle, islice
from typing import Any

from rules.presets import get_preset
from scoring.sheet.reader import score_sheet
from scoring.tiles.mcr import score_mcr
from scoring.tiles.notation import MCR_FLAGS, RIICHI_FLAGS, WinContext, read_tile_hand
from scoring.tiles.riichi import score_riichi

REPEATS = 3

# (tiles, tsumo, riichi) — every one a winning hand under wrc-2025 for an East-seat dealer in the East round.
RIICHI_HANDS: tuple[tuple[dict[str, Any], bool, bool], ...] = (
    ({"concealed": "234789m345p99p67s", "win": "8s"}, True, True),  # riichi pinfu tsumo
    ({"concealed": "234678m345p1355s", "win": "2s", "flags": ["ippatsu"]}, False, True),  # kanchan, ippatsu
    ({"concealed": "1133m5577p2244s6z", "win": "6z"}, False, False),  # chiitoitsu
    ({"concealed": "678p345s66s56m", "win": "7m", "melds": ["chi 234m"]}, False, False),  # open tanyao
    ({"concealed": "234m567p45s99s", "win": "3s", "melds": ["pon 111z"]}, True, False),  # double east
    ({"concealed": "234m406p789s22s56m", "win": "7m", "dora": "1s", "ura": "3m"}, False, True),  # dora, aka, ura
    ({"concealed": "2334455667788m", "win": "2m"}, True, False),  # chinitsu ryanpeikou
    ({"concealed": "111m88m333p555s99s", "win": "9s"}, True, False),  # suuankou
    ({"concealed": "19m19p19s1234567z", "win": "1m"}, False, False),  # kokushi
    ({"concealed": "123m456s99s78m", "win": "9m", "melds": ["kan 8888p"], "flags": ["rinshan"]}, True, False),
)

# (tiles, tsumo) — every one at least 8 fan, East seat in the East round.
MCR_HANDS: tuple[tuple[dict[str, Any], bool], ...] = (
    ({"concealed": "555666777p555s6s", "win": "7s"}, True),  # seed 004: 48
    ({"concealed": "1112345678999m", "win": "5m"}, False),  # Nine Gates: 91
    ({"concealed": "45s11z", "win": "3s", "melds": ["chi 234m", "chi 678p", "pon 222s"]}, False),  # chicken 8
    ({"concealed": "34s789p11z", "win": "5s", "melds": ["chi 345m", "chi 345p"]}, False),  # mixed triple chow
    ({"concealed": "1133m2277p4466s1z", "win": "1z"}, True),  # seven pairs
    ({"concealed": "19m19p19s1234567z", "win": "1m"}, False),  # thirteen orphans
    ({"concealed": "99m11z", "win": "9m", "melds": ["pon 222m", "pon 666m", "pon 777z"]}, False),  # all pungs
    ({"concealed": "555z666z77z99m", "win": "7z", "melds": ["chi 123m"]}, False),  # big three dragons
    ({"concealed": "5z", "win": "5z", "melds": ["kan 1111p", "ankan 9999s", "chi 234m", "pon 777z"]}, True),
)


def _riichi_call(raw: dict[str, Any], tsumo: bool, riichi: bool) -> Callable[[], object]:
    ruleset = get_preset("wrc-2025")
    context = WinContext(seat_wind=1, round_wind=1, dealer=True, tsumo=tsumo, riichi=riichi)
    return lambda: score_riichi(read_tile_hand(raw, flags=RIICHI_FLAGS), ruleset=ruleset, context=context)


def _mcr_call(raw: dict[str, Any], tsumo: bool) -> Callable[[], object]:
    ruleset = get_preset("mcr")
    context = WinContext(seat_wind=1, round_wind=1, dealer=True, tsumo=tsumo, riichi=False)
    return lambda: score_mcr(read_tile_hand(raw, flags=MCR_FLAGS), ruleset=ruleset, context=context)


def best_seconds(calls: list[Callable[[], object]]) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        begin = time.perf_counter()
        for call in calls:
            call()
        best = min(best, time.perf_counter() - begin)
    return best


def mcr_sheet() -> dict[str, Any]:
    """Sixteen MCR hands typed as tiles: every player wins in turn, on a discard or self-drawn."""
    players = ["Ann", "Bo", "Cy", "Di"]
    hands = []
    for i, (raw, tsumo) in enumerate(islice(cycle(MCR_HANDS), 16)):
        winner = players[i % 4]
        hand: dict[str, Any] = {"result": "tsumo" if tsumo else "ron", "winner": winner, "tiles": raw}
        if not tsumo:
            hand["loser"] = players[(i + 1) % 4]
        hands.append(hand)
    return {"ruleset": "mcr", "players": players, "hands": hands}


def riichi_sheet() -> dict[str, Any]:
    """Eight riichi wins by the dealer typed as tiles (seat and round East), ended by the clock."""
    hands = []
    for raw, tsumo, riichi in RIICHI_HANDS[:8]:
        hand: dict[str, Any] = {"result": "tsumo" if tsumo else "ron", "winner": "Ann", "tiles": raw}
        if not tsumo:
            hand["loser"] = "Cy"
        if riichi:
            hand["riichi"] = ["Ann"]
        hands.append(hand)
    return {"ruleset": "wrc-2025", "players": ["Ann", "Bo", "Cy", "Di"], "hands": hands, "end": "time"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=20000, help="adapter calls timed per model")
    parser.add_argument("--sheets", type=int, default=300, help="sheets replayed per sheet kind")
    args = parser.parse_args(argv)

    import django

    django.setup()

    print(f"Scoring wins from tiles, best of {REPEATS} runs, one process.")
    print(f"{'what':<34} {'count':>7} {'best s':>8} {'per second':>12}")
    rows: list[tuple[str, list[Callable[[], object]], str]] = [
        ("riichi hands (mahjong)", [_riichi_call(*h) for h in islice(cycle(RIICHI_HANDS), args.hands)], "hands"),
        ("MCR hands (pymahjonggb)", [_mcr_call(*h) for h in islice(cycle(MCR_HANDS), args.hands)], "hands"),
    ]
    for label, sheet in (("MCR sheets, 16 tile hands", mcr_sheet()), ("riichi sheets, 8 tile hands", riichi_sheet())):
        score_sheet(sheet)  # must be valid before it is timed
        rows.append((label, [partial(score_sheet, sheet)] * args.sheets, "sheets"))
    for label, calls, unit in rows:
        seconds = best_seconds(calls)
        print(f"{label:<34} {len(calls):>7} {seconds:>8.3f} {len(calls) / seconds:>10,.0f} {unit}/s")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"\nPeak RSS (ru_maxrss): {rss / 1024:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
