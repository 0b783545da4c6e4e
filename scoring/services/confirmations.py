"""Players confirm their table: each player's word on a finished game, given with a personal code.

A player's code is derived from the server's secret, the event and the player
(HMAC-SHA256), so nothing secret is stored beside the results and it can be
shown to the player alone: on their own player page when signed in, or on the
slips an organiser prints. Wrong codes are limited per player and game as the
login limits them per username. A confirmation records the game's version and
seal; any later change to the game clears the confirmations (``hands._write``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from scoring.models import Confirmation, HandChange
from scoring.services import chain
from scoring.services.hands import record_history
from scoring.services.standings import standings_refresh
from tournament.errors import Conflict, InvalidInput
from tournament.models import Event, Game, Player

CODE_LENGTH = 8  # 40 bits in base32: with attempts limited, not to be guessed
REASON_LENGTH = 200
LOOK_ALIKE = str.maketrans({"0": "O", "1": "I", "8": "B"})


def player_code(event: Event, player: Player | int) -> str:
    """The player's personal code for this event, written XXXX-XXXX."""
    player_id = player if isinstance(player, int) else player.pk
    digest = hmac.new(settings.SECRET_KEY.encode(), f"confirm:{event.pk}:{player_id}".encode(), hashlib.sha256)
    code = base64.b32encode(digest.digest()).decode()[:CODE_LENGTH]
    return f"{code[:4]}-{code[4:]}"


@dataclass(frozen=True, slots=True)
class Tally:
    """Where a game's confirmations stand."""

    confirmed: int
    players: int
    disputed: list[tuple[str, str]]  # (name, reason)

    @property
    def names(self) -> tuple[str, ...]:
        """Who disputes the result."""
        return tuple(name for name, _ in self.disputed)

    @property
    def complete(self) -> bool:
        return self.confirmed == self.players and not self.disputed


def tally(game: Game, words: Iterable[Confirmation] | None = None, players: int | None = None) -> Tally:
    """Where the game's confirmations stand; ``words`` and ``players`` when the caller prefetched them."""
    words = list(game.confirmations.select_related("player") if words is None else words)
    return Tally(confirmed=sum(1 for w in words if w.verdict == Confirmation.Verdict.CONFIRMED),
                 players=game.seats.count() if players is None else players,
                 disputed=[(w.player.name, w.reason) for w in words if w.verdict == Confirmation.Verdict.DISPUTED])


def game_confirm(*, game_id: int, player_id: int, code: str, disputed: bool = False, reason: str = "",
                 user: Any = None) -> Confirmation:
    """Record a player's confirmation (or dispute) of the game as it stands; InvalidInput names the field."""
    reason = reason.strip()
    if disputed and not reason:
        raise InvalidInput.one("reason", "say in a few words what is wrong with the result")
    if len(reason) > REASON_LENGTH:
        raise InvalidInput.one("reason", f"at most {REASON_LENGTH} characters")
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("event").get(pk=game_id)
        if game.status != Game.Status.FINISHED:
            raise Conflict.one("game", "the game is not finished: its players confirm it once it has ended")
        if not game.seats.filter(player_id=player_id).exists():
            raise InvalidInput.one("player", "not a player of this game")
        _check_code(game, player_id, code)
        verdict = Confirmation.Verdict.DISPUTED if disputed else Confirmation.Verdict.CONFIRMED
        seal = chain.game_head(game)
        word, _ = Confirmation.objects.update_or_create(game=game, player_id=player_id, defaults={
            "verdict": verdict, "reason": reason if disputed else "", "version": game.version, "seal": seal})
        record_history(game, HandChange(game=game, action=HandChange.Action.CONFIRM, index=None, before=None,
                                        after={"player": player_id, "verdict": verdict.value, "reason": word.reason,
                                               "version": game.version, "seal": seal},
                                        user=user if user is not None and user.is_authenticated else None,
                                        version=game.version))
        if not game.event.count_unconfirmed:
            standings_refresh(game.event_id)
    return word


def _check_code(game: Game, player_id: int, code: str) -> None:
    code_attempt(key=f"confirm-failures:{game.event_id}:{player_id}", given=code,
                 expected=player_code(game.event, player_id),
                 too_many="too many wrong codes for this player: try again in %(minutes)s minutes",
                 wrong="this is not the player's code")


def code_attempt(*, key: str, given: str, expected: str, too_many: str, wrong: str) -> None:
    """A code a person typed, against ``expected``; wrong attempts under ``key`` are limited as the login limits
    them: Conflict(``too_many``, with the minutes to wait) once over the limit, InvalidInput(``wrong``)."""
    if cache.get(key, 0) >= settings.AXES_FAILURE_LIMIT:
        minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
        raise Conflict.one("code", too_many % {"minutes": minutes})
    # Base32 has no 0, 1 or 8: a player who reads O, I or B as a digit still gets in.
    typed = "".join(ch for ch in given.upper() if ch.isalnum()).translate(LOOK_ALIKE)
    # Bytes: compare_digest refuses str holding non-ASCII (a code typed on a Korean keyboard).
    if not hmac.compare_digest(typed.encode(), expected.replace("-", "").encode()):
        cache.add(key, 0, timeout=int(settings.AXES_COOLOFF_TIME.total_seconds()))
        cache.incr(key)  # atomic where it matters (Redis): two wrong guesses at once count twice
        raise InvalidInput.one("code", wrong)
    cache.delete(key)
