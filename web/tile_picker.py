"""The entry page's tile picker: the 34 tiles (and MCR's flowers) as buttons, in the reader's language.

The picker (templates/pages/_entry_tiles.html, web/static/site/tiles.js) writes
the tile notation of the entry form's existing fields (docs/score-sheet.md "Tiles"):
the server reads the tiles as it did when they were typed. Each button carries
its code in that notation (``3m``, ``7z``), what its face shows (a digit and a
short suit mark, or an honor's character and its short name) and its name for
a screen reader ("3 of characters").
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

# The honors in notation order (1z-7z), each with the character printed on the tile.
HONOR_FACES = ("東", "南", "西", "北", "白", "發", "中")


@dataclass(frozen=True, slots=True)
class TileButton:
    code: str  # the tile in notation: 3m, 7z; "flower" for MCR's flower
    face: str  # the big character on the button
    mark: str  # the small line under it: the suit, or the honor's name
    name: str  # the accessible name
    css: str  # the suit (m, p, s, z) and the honor (east … red), for the tile's colours


@dataclass(frozen=True, slots=True)
class TileRow:
    suit: str
    label: str
    tiles: tuple[TileButton, ...]


def _suit_names() -> dict[str, tuple[str, str, str]]:
    """Each suit's (row label, face mark, accessible name with %(n)s)."""
    return {
        "m": (_("Characters"), pgettext("tile mark", "m"), _("%(n)s of characters")),
        "p": (_("Dots"), pgettext("tile mark", "p"), _("%(n)s of dots")),
        "s": (_("Bamboo"), pgettext("tile mark", "s"), _("%(n)s of bamboo")),
    }


def _honor_names() -> tuple[tuple[str, str, str], ...]:
    """Each honor's (css, face mark, accessible name), East to Red."""
    return (
        ("east", pgettext("tile mark", "E"), _("East wind")),
        ("south", pgettext("tile mark", "S"), _("South wind")),
        ("west", pgettext("tile mark", "W"), _("West wind")),
        ("north", pgettext("tile mark", "N"), _("North wind")),
        ("white", pgettext("tile mark", "Wht"), _("White dragon")),
        ("green", pgettext("tile mark", "Grn"), _("Green dragon")),
        ("red", pgettext("tile mark", "Red"), _("Red dragon")),
    )


def tile_rows(*, mcr: bool) -> list[TileRow]:
    """The picker's rows: characters, dots, bamboo 1-9, then the honors (and, for MCR, a flower)."""
    rows = []
    for suit, (label, mark, name) in _suit_names().items():
        rows.append(
            TileRow(
                suit, label, tuple(TileButton(f"{n}{suit}", str(n), mark, name % {"n": n}, suit) for n in range(1, 10))
            )
        )
    honors = [
        TileButton(f"{n}z", face, mark, name, f"z {css}")
        for n, (face, (css, mark, name)) in enumerate(zip(HONOR_FACES, _honor_names(), strict=True), start=1)
    ]
    if mcr:
        honors.append(TileButton("flower", "花", "+1", pgettext("tile", "Flower"), "flower"))
    rows.append(TileRow("z", _("Honors"), tuple(honors)))
    return rows


def meld_modes(*, mcr: bool) -> list[tuple[str, str]]:
    """What a tap on a tile adds: (mode, button label). The hand's own tiles first, then the called sets and,
    for riichi, the dora and ura dora indicators."""
    if mcr:  # MCR's own words for the sets (chow, pung, kong), which the notation writes chi, pon, kan, ankan
        return [
            ("hand", pgettext("tile picker", "Hand")),
            ("chi", pgettext("tile picker, MCR", "Chow")),
            ("pon", pgettext("tile picker, MCR", "Pung")),
            ("kan", pgettext("tile picker, MCR", "Kong")),
            ("ankan", pgettext("tile picker, MCR", "Concealed kong")),
        ]
    return [
        ("hand", pgettext("tile picker", "Hand")),
        ("chi", pgettext("tile picker", "Chi")),
        ("pon", pgettext("tile picker", "Pon")),
        ("kan", pgettext("tile picker", "Kan")),
        ("ankan", pgettext("tile picker", "Closed kan")),
        ("dora", pgettext("tile picker", "Dora")),
        ("ura", pgettext("tile picker", "Ura")),
    ]


def picker_text() -> dict[str, str]:
    """What tiles.js writes on the page, in the reader's language (``%s`` is filled in by the script)."""
    return {
        "remove": _("Remove %s"),
        "count": _("%s of 14 tiles"),
        "win": _("winning tile"),
        "red": _("red %s"),
        "flowers": _("Flowers: %s"),
        "flower": _("Remove a flower"),
        "empty": _("No tiles yet: tap the tiles below. The last tile of the hand tapped is the winning tile."),
        "value": _("The value is computed from the tiles."),
        "dora": _("Dora indicators"),
        "ura": _("Ura dora indicators"),
    }
