"""pymahjonggb is compiled from source: a server where it is missing or broken still runs, MCR scored by fan."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

# Run in a fresh interpreter where importing MahjongGB fails, as on a machine where it did not build.
WITHOUT_PACKAGE = """
import django
django.setup()
from django.core.management import call_command
from rules.presets import get_preset
from rules.errors import Refusal
from scoring.sheet.reader import score_sheet
from scoring.tiles.mcr import score_mcr
from scoring.tiles.notation import MCR_FLAGS, WinContext, read_tile_hand

call_command("check")
sheet = {"ruleset": "mcr", "players": ["An", "Bai", "Chen", "Dong"],
         "hands": [{"result": "ron", "winner": "An", "loser": "Bai", "fan": 10}]}
print("by fan:", score_sheet(sheet).record.hands[0].settlement.deltas)
hand = read_tile_hand({"concealed": "123m456m789m123p5p", "win": "5p"}, flags=MCR_FLAGS)
try:
    score_mcr(hand, ruleset=get_preset("mcr"),
              context=WinContext(seat_wind=1, round_wind=1, dealer=True, tsumo=False, riichi=False))
except Refusal as exc:
    print("by tiles:", exc)
"""


@pytest.mark.parametrize(
    ("broken", "reason"),
    [
        ('import sys; sys.modules["MahjongGB"] = None\n', "ModuleNotFoundError: import of MahjongGB halted"),
        # A build that does not load: its shared library missing, as the loader reports it.
        (
            "import sys\nclass Finder:\n    @staticmethod\n    def find_spec(name, *args):\n"
            "        if name == 'MahjongGB':\n"
            "            raise OSError('libstdc++.so.6: cannot open shared object file')\n"
            "sys.meta_path.insert(0, Finder)\n",
            "OSError: libstdc++.so.6: cannot open shared object file",
        ),
    ],
)
def test_without_pymahjonggb_the_app_runs_and_mcr_tiles_are_refused_clearly(broken: str, reason: str):
    proc = subprocess.run(
        [sys.executable, "-c", broken + WITHOUT_PACKAGE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"DJANGO_SETTINGS_MODULE": "config.settings", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    # 8 + 10 from the discarder, 8 from each other player (seed 002: the MCR payments).
    assert "by fan: (34, -18, -8, -8)" in proc.stdout
    assert (
        f"by tiles: MCR scoring from tiles is not available on this server (pymahjonggb could not be loaded: {reason}"
    ) in proc.stdout
    assert "enter the fan and flowers instead" in proc.stdout
    assert "scoring.W001" in proc.stderr  # the system check says so at start-up
