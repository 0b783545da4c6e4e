"""``{% tile_picker mcr as picker %}``: the entry page's tile picker rows and modes (web.tile_picker)."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.tiles.mcr import MAX_FLOWERS
from scoring.tiles.notation import COPIES, HAND_TILES
from web.tile_picker import meld_modes, picker_text, tile_rows

register = template.Library()


@register.simple_tag
def tile_picker(mcr: bool) -> dict[str, Any]:
    return {
        "rows": tile_rows(mcr=bool(mcr)),
        "modes": meld_modes(mcr=bool(mcr)),
        "max_flowers": MAX_FLOWERS,
        "hand_tiles": HAND_TILES,
        "copies": COPIES,
        "text": picker_text(),
    }
