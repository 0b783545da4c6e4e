"""Sealing, with the history key, the chains written before keys were used (``verify_history --seal``)."""

from __future__ import annotations

from django.db import transaction

from scoring.models import HandChange
from scoring.services import chain
from scoring.services.hand_write import record_history
from tournament.models import Game


def game_seal(game_id: int) -> chain.ChainReport:
    """Append a keyed entry that changes nothing to a game whose intact chain ends unkeyed.

    The entries before stay as they were, so a head a player kept from them is still found in the chain;
    what the database holds from here on cannot be rewritten without the key. A chain that does not hold is
    left alone: sealing it would vouch for what was changed behind the application's back.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).get(pk=game_id)
        report = chain.verify_game(game)
        if not report.intact or not report.unsealed:
            return report
        record_history(game, HandChange(game=game, action=HandChange.Action.SEAL, version=game.version))
    return chain.verify_game(game)
