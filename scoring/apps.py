from typing import Any

from django.apps import AppConfig
from django.core import checks

from scoring.tiles.mcr import UNAVAILABLE_BECAUSE


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from scoring.models import RankedEvent
        from scoring.selectors import names_changed
        from scoring.services.live import event_written, game_written, round_written
        from scoring.services.rankings_follow import ranked_event_deleted, ranked_player_saved
        from scoring.services.registrations import registration_written
        from scoring.tasks import register_queues
        from tournament.models import Event, Game, Player, Registration, Round

        checks.register(mcr_tiles_check)
        register_queues()
        # Signals for what can be written anywhere, the admin included: cached standings show names, and a player
        # can be renamed; the standings list the registered players, and a registration can be added, changed or
        # deleted (the admin's inline, the API, the console, imports).
        post_save.connect(names_changed, sender=Player, dispatch_uid="scoring.names_changed")
        post_save.connect(ranked_player_saved, sender=Player, dispatch_uid="scoring.ranked_player_saved")
        post_delete.connect(ranked_event_deleted, sender=RankedEvent, dispatch_uid="scoring.ranked_event_deleted")
        post_save.connect(registration_written, sender=Registration, dispatch_uid="scoring.registration_saved")
        post_delete.connect(registration_written, sender=Registration, dispatch_uid="scoring.registration_deleted")
        # The pages that keep up: every game, round and event written bumps the event's live version.
        for model, receiver in ((Game, game_written), (Round, round_written), (Event, event_written)):
            post_save.connect(receiver, sender=model, dispatch_uid=f"scoring.live.{model.__name__}.saved")
            post_delete.connect(receiver, sender=model, dispatch_uid=f"scoring.live.{model.__name__}.deleted")


def mcr_tiles_check(**kwargs: Any) -> list[checks.CheckMessage]:
    """Say at start-up, not at the first MCR hand typed as tiles, that pymahjonggb is missing."""
    if not UNAVAILABLE_BECAUSE:
        return []
    return [
        checks.Warning(
            f"pymahjonggb could not be loaded ({UNAVAILABLE_BECAUSE}): MCR wins typed as tiles are "
            "refused; MCR games are still scored from the fan the referee enters",
            id="scoring.W001",
        )
    ]
