"""Values the wins a score sheet gives as tiles, in the state of the game they were played in.

The engine calls the valuer before it settles a hand (``rules.game.ValueTiles``):
seat and round winds and the dealer come from the game, the riichi yaku from
the hand's riichi list, so the referee types only the tiles.
"""

from __future__ import annotations

import dataclasses

from rules.errors import Refusal
from rules.game import ValueTiles
from rules.hands import Attempt, HandResult, Ron, Tsumo, Win
from rules.ruleset import Ruleset
from rules.state import GameState
from scoring.tiles.mcr import score_mcr
from scoring.tiles.notation import HONOR_NAMES, TileHand, WinContext
from scoring.tiles.riichi import score_riichi

# Honor numbers of the four winds; a Flower or dragon seat has no wind tile, so no wind yakuhai.
_WIND_HONORS = {name: number for number, name in enumerate(HONOR_NAMES[:4], start=1)}


def tile_valuer(ruleset: Ruleset) -> ValueTiles:
    """Values each win typed as tiles, with the winds and dealer of the hand it was played in."""
    score = score_mcr if ruleset.is_mcr else score_riichi

    def value(state: GameState, result: HandResult) -> HandResult:
        if isinstance(result, Ron):
            wins = result.wins
        elif isinstance(result, Tsumo):
            wins = (result.win,)
        elif isinstance(result, Attempt) and result.win is not None:
            # The solo game's tenpai hand, valued as the East dealer's tsumo it would be if its wait came (rules.solo).
            wins = (result.win,)
        else:
            return result
        if all(win.tiles is None for win in wins):
            return result
        valued: list[Win] = []
        for i, win in enumerate(wins):
            if not isinstance(win.tiles, TileHand):
                valued.append(win)
                continue
            context = WinContext(
                seat_wind=_WIND_HONORS.get(state.seat_wind_name(ruleset, win.winner)),
                round_wind=_WIND_HONORS.get(state.round_wind_name(ruleset)),
                dealer=win.winner == state.dealer,
                tsumo=isinstance(result, Tsumo | Attempt),
                riichi=win.winner in result.riichi,
            )
            try:
                found = score(win.tiles, ruleset=ruleset, context=context)
            except Refusal as exc:
                raise exc.at(f"wins[{i}].tiles" if len(wins) > 1 else "tiles") from None
            valued.append(
                dataclasses.replace(
                    win,
                    han=found.han,
                    fu=found.fu,
                    yakuman=found.yakuman,
                    fan=found.fan,
                    flowers=found.flowers,
                    items=found.items,
                    tiles=None,
                )
            )
        if isinstance(result, Ron):
            return dataclasses.replace(result, wins=tuple(valued))
        return dataclasses.replace(result, win=valued[0])  # a tsumo's, or an attempt's

    return value
