"""Scoring a win from its tiles (docs/score-sheet.md "Tiles"): the notation, and adapters over two packages.

Django-free (an import-linter contract keeps it so). ``notation`` reads the
score sheet's tile strings into plain values; ``riichi`` values them through
the ``mahjong`` package, ``mcr`` through ``pymahjonggb``, which is optional at
import time: without it MCR wins are entered by fan.
"""
