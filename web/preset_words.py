"""Each rule set (rules.presets) in one sentence for the organiser choosing it: who plays it, the points and uma,
what sets it apart. The presets' own documentation is for developers; these words are what the New-event form
offers, in the reader's language."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

PRESET_WORDS: dict[str, Any] = {
    "wrc-2025": _(
        "WRC 2025, the World Riichi Championship rules: 30,000 points, uma 15/5/−5/−15, kiriage mangan, one "
        "winner per discard (head bump), chombo −30 points."
    ),
    "ema-2016": _(
        "EMA 2016, the European Mahjong Association's riichi rules: 30,000 points, uma 15/5/−5/−15, every ron"
        " on a discard wins, no kiriage mangan, chombo −20 points."
    ),
    "ema-2025": _("EMA 2025, the European Mahjong Association's riichi rules: as EMA 2016, with kiriage mangan."),
    "jpml-a": _(
        "JPML A rules, the Japan Professional Mahjong League's: 30,000 points, uma set by how many players "
        "finish at or above 30,000, head bump, abortive draws, chombo −20 points."
    ),
    "jpml-wrc": _(
        "JPML WRC rules, the Japan Professional Mahjong League's WRC variant: as JPML A, with uma "
        "15/5/−5/−15, kiriage mangan and chombo −30 points."
    ),
    "saikouisen": _(
        "Saikouisen, the Saikouisen Japan Pro Mahjong Association's rules: 30,000 points, uma 30/10/−10/−30, "
        "kiriage mangan, no abortive draws, no pao."
    ),
    "saikouisen-classic": _(
        "Saikouisen Classic: as Saikouisen, with uma 12/4/−4/−12, no noten payments, no kiriage mangan, and "
        "the dealer repeats only on a win."
    ),
    "npm": _(
        "NPM, the Japan Pro Mahjong Association's rules: 25,000 points returned at 30,000, uma 30/10/−10/−30 "
        "plus oka, kiriage mangan, no abortive draws, chombo −40 points."
    ),
    "m-league": _(
        "M.League, Japan's professional team league: 25,000 points returned at 30,000, uma 30/10/−10/−30 plus"
        " oka, kiriage mangan, pao."
    ),
    "tenhou": _(
        "Tenhou ranked games: 25,000 points returned at 30,000, uma 20/10/−10/−20 plus oka, the game ends "
        "when a score goes below zero, agari-yame, double ron (a triple ron is an abortive draw), end scores "
        "rounded to 1,000."
    ),
    "mahjong-soul": _(
        "Mahjong Soul ranked games: 25,000 points, uma 15/5/−5/−15, the game ends when a score goes below "
        "zero, agari-yame, every ron on a discard wins, the game goes on until someone has 30,000."
    ),
    "mcr": _(
        "MCR, the Chinese Official rules: a game of 16 hands, a win needs 8 fan, each win pays 8 plus its "
        "fan, table points 4/2/1/0."
    ),
    "sanma": _(
        "Three-player mahjong (sanma): 102 tiles, 35,000 points returned at 40,000, uma 20/0/−20, a tsumo "
        "split between the two others."
    ),
    "two-player": _("Two-player mahjong: 80 tiles, East and South seats only, 25,000 points, no uma."),
    "two-player-mangan": _("Two-player mangan play: characters and honours only, a win needs 5 han (mangan)."),
    "two-player-yakuman": _("Two-player yakuman play: only yakuman win, counted yakuman included."),
    "five-player-1": _(
        "Five players, rule 1: the seasons added as a fifth wind, no dealer bonus, the dealer passes after "
        "every hand, uma 10/5/0/−5/−10."
    ),
    "five-player-2": _(
        "Five players, rule 2: the dealer scores 1.5 times and repeats only on a win, uma 10/5/−3/−5/−7."
    ),
    "six-player": _(
        "Six players: 204 tiles, seats East to North plus White and Green, no dealer bonus, a tsumo paid in "
        "equal shares, 25,000 points returned at 30,000."
    ),
    "seven-player": _("Seven players: as six players, with a Red seat added."),
    "eight-player": _("Eight players: two players on each wind, a tsumo paid in equal shares."),
    "nine-player": _(
        "Nine players: 306 tiles, an East-only game, the dealer always sits East, a tsumo paid in equal shares."
    ),
    "ten-player": _("Ten players: as nine players, with 340 tiles."),
    "eleven-player": _("Eleven players: as nine players, with 374 tiles."),
    "twelve-player": _("Twelve players: as nine players, with 408 tiles."),
    "solo": _("Solo race to tenpai: each player draws alone until tenpai; the fewest draws ranks first."),
}
