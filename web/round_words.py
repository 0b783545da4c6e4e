"""A hand's round as the reader says it: "E1" is "East 1", 東1局, 동1국, 东1局.

The stored result, the API, the score sheets and the CSV keep the referees'
short label ("E1", "S4", "F2", "B1"): a wind letter of
``rules.ruleset.WIND_LETTERS`` and the hand's number in that wind. Only what
the pages show goes through here, so every page says the round the same way.
"""

from __future__ import annotations

import re

from django.utils.translation import pgettext

from rules.ruleset import WIND_LETTERS


def wind_label(name: str) -> str:
    """A seat wind's name (the ruleset's English word) in the reader's language."""
    labels = {
        "East": pgettext("seat wind", "East"),
        "South": pgettext("seat wind", "South"),
        "West": pgettext("seat wind", "West"),
        "North": pgettext("seat wind", "North"),
        "Flower": pgettext("seat wind", "Flower"),
        "White": pgettext("seat wind", "White"),
        "Green": pgettext("seat wind", "Green"),
        "Red": pgettext("seat wind", "Red"),
    }
    return labels.get(name, name)


_WIND_OF_LETTER = {letter: name for name, letter in WIND_LETTERS.items()}
_LABEL = re.compile(r"([A-Z])([0-9]{1,2})")


def round_label(label: object) -> str:
    """ "S3" -> "South 3" (東1局 in Japanese); a label of no known wind is shown as it is."""
    text = "" if label is None else str(label)
    found = _LABEL.fullmatch(text)
    wind = _WIND_OF_LETTER.get(found.group(1)) if found else None
    if found is None or wind is None:
        return text
    # Translators: a hand's round, its wind and its number in that wind: "East 1" (東1局, 동1국).
    return pgettext("round label", "%(wind)s %(hand)s") % {"wind": wind_label(wind), "hand": int(found.group(2))}
