"""Players confirm their table: each player's word on a finished game, given with a personal code.

A player's code is derived from the server's secret, the event, the player and
the registration's code version (HMAC-SHA256), so nothing secret is stored
beside the results and it can be shown to the player alone: on their own player
page when signed in, or on the slips an organiser prints. An organiser reissues
one player's code by counting the version up; the others' stay. Wrong codes
limit the guesser, not the player (``scoring.services.codes``). A confirmation
records the game's version and seal; any later change to the game clears the
confirmations (``hand_write.write``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.errors import Refusal
from scoring.models import Confirmation, HandChange
from scoring.services import chain
from scoring.services.codes import code_attempt, typed
from scoring.services.hand_write import record_history
from scoring.services.standings import standings_game_changed
from tournament.errors import Conflict
from tournament.models import Event, Game, Player, Registration
from tournament.users import Writer, account

CODE_LENGTH = 10  # 50 bits in base32: scoring.services.codes says why that is enough
FIRST_CODE_LENGTH = 8  # version 0, the codes issued before versions: valid until reissued
REASON_LENGTH = 200


def player_code(event: Event, player: Player | int, version: int | None = None) -> str:
    """The player's personal code for this event, written XXXXX-XXXXX (XXXX-XXXX for version 0); ``version`` is
    the registration's ``code_version``, read when not given (0 for a player not registered)."""
    player_id = player if isinstance(player, int) else player.pk
    if version is None:
        version = (
            Registration.objects.filter(event=event, player_id=player_id).values_list("code_version", flat=True).first()
            or 0
        )
    message, length = (
        (f"confirm:{event.pk}:{player_id}", FIRST_CODE_LENGTH)
        if version == 0
        else (f"confirm:{event.pk}:{player_id}:{version}", CODE_LENGTH)
    )
    digest = hmac.new(settings.SECRET_KEY.encode(), message.encode(), hashlib.sha256)
    code = base64.b32encode(digest.digest()).decode()[:length]
    return f"{code[: length // 2]}-{code[length // 2 :]}"


def player_code_reissue(*, registration: Registration, user: Writer | None) -> Registration:
    """A new code for one player of the event: the old one stops working at once, the others' stay; who reissued
    it and when is kept for the organisers' players page."""
    with transaction.atomic():
        locked = Registration.objects.select_for_update().get(pk=registration.pk)
        locked.code_version += 1
        locked.code_reissued_at = timezone.now()
        locked.code_reissued_by = account(user)
        locked.save(update_fields=["code_version", "code_reissued_at", "code_reissued_by"])
    return locked


def code_scope(event_id: int, player_id: int) -> str:
    """Where wrong tries at a player's code are counted (scoring.services.codes)."""
    return f"player:{event_id}:{player_id}"


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
    return Tally(
        confirmed=sum(1 for w in words if w.verdict == Confirmation.Verdict.CONFIRMED),
        players=game.seats.count() if players is None else players,
        disputed=[(w.player.name, w.reason) for w in words if w.verdict == Confirmation.Verdict.DISPUTED],
    )


def game_confirm(
    *,
    game_id: int,
    player_id: int,
    code: str,
    disputed: bool = False,
    reason: str = "",
    user: Writer | None = None,
    guesser: str = "",
) -> Confirmation:
    """Record a player's confirmation (or dispute) of the game as it stands; Refusal names the field. Wrong
    codes are counted against ``guesser`` (scoring.services.codes.guesser_of)."""
    reason = _reason(reason, disputed=disputed)
    # The code is checked outside the transaction, so that a wrong one stays counted when the refusal rolls back.
    _check_code(Game.objects.select_related("event").get(pk=game_id), player_id, code, guesser)
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("event").get(pk=game_id)
        if game.status != Game.Status.FINISHED:
            raise Conflict.one("game", "the game is not finished: its players confirm it once it has ended")
        verdict = Confirmation.Verdict.DISPUTED if disputed else Confirmation.Verdict.CONFIRMED
        seal = chain.game_head(game)
        word = Confirmation.objects.update_or_create(
            game=game,
            player_id=player_id,
            defaults={"verdict": verdict, "reason": reason if disputed else "", "version": game.version, "seal": seal},
        )[0]
        record_history(
            game,
            HandChange(
                game=game,
                action=HandChange.Action.CONFIRM,
                index=None,
                before=None,
                after={
                    "player": player_id,
                    "verdict": verdict.value,
                    "reason": word.reason,
                    "version": game.version,
                    "seal": seal,
                },
                user=account(user),
                version=game.version,
            ),
        )
        if not game.event.count_unconfirmed:
            standings_game_changed(game)
    return word


def _reason(reason: str, *, disputed: bool) -> str:
    reason = reason.strip()
    if disputed and not reason:
        raise Refusal.one("reason", "say in a few words what is wrong with the result")
    if len(reason) > REASON_LENGTH:
        raise Refusal.one("reason", f"at most {REASON_LENGTH} characters")
    return reason


def _check_code(game: Game, player_id: int, code: str, guesser: str) -> None:
    if game.status != Game.Status.FINISHED:
        raise Conflict.one("game", "the game is not finished: its players confirm it once it has ended")
    if not game.seats.filter(player_id=player_id).exists():
        raise Refusal.one("player", "not a player of this game")
    code_attempt(
        scope=code_scope(game.event_id, player_id),
        guesser=guesser,
        given=code,
        expected=[player_code(game.event, player_id)],
        too_many=_("too many wrong codes for this player: try again in %(minutes)s minutes"),
        wrong=_("this is not the player's code"),
    )


def code_holder(game: Game, code: str) -> int | None:
    """The player of the game whose current code ``code`` is, if any (a code kept in a session, not typed: not
    counted as a try)."""
    for seat in game.seats.all():
        if hmac.compare_digest(typed(code), player_code(game.event, seat.player_id).replace("-", "")):
            return seat.player_id
    return None


def game_open_with_code(*, game_id: int, code: str, guesser: str) -> Game:
    """The game whose player holds ``code``, for a player of a private event without an account; the same refusal
    whether the game exists or not, counted against ``guesser``."""
    game = Game.objects.select_related("event").filter(pk=game_id).first()
    codes = [player_code(game.event, seat.player_id) for seat in game.seats.all()] if game is not None else []
    wrong = _("no game with this number has a player with this code")
    code_attempt(
        scope=f"game:{game_id}",
        guesser=guesser,
        given=code,
        expected=codes,
        too_many=_("too many wrong codes for this game: try again in %(minutes)s minutes"),
        wrong=wrong,
    )
    if game is None:  # not reached: with no game, no code is right
        raise Refusal.one("code", wrong)
    return game
