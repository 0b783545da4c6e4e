"""How the API's game writes find their game and answer with it.

A write reads its game once, under the lock it writes with (``writable``, a
``scoring.services.hand_write.Locate``): the URL's game among those the user
sees (404), and only if the user writes to it (403), with the If-Match a
change to existing hands needs (428). ``answer`` shows the game written, with
its version as the ETag, and marks it for an Idempotency-Key to keep by
reference (``api.idempotency.refer``).
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from rest_framework import status
from rest_framework.exceptions import ParseError, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import PreconditionRequired
from api.idempotency import REBUILD, refer
from api.serializers.games import GameSerializer
from scoring.edge.writers import game_writer
from scoring.services import hands
from tournament.models import Game
from tournament.selectors import seats_prefetched, visible_events, visible_games, with_seats


def version_of(request: Request, *, required: bool) -> int | None:
    """The version an If-Match names; 428 when a change to existing hands comes without one."""
    raw = request.headers.get("If-Match")
    if raw is None:
        if required:
            raise PreconditionRequired
        return None
    try:
        return int(raw.strip().removeprefix("W/").strip('"'))
    except ValueError:
        raise ParseError('If-Match must be the game\'s version, e.g. "3"') from None


def answer(game: Game, code: int = status.HTTP_200_OK) -> Response:
    """The game as the API shows it, with its version as the ETag (a write's game is answered as it wrote it); an
    Idempotency-Key keeps a reference to it, not the body."""
    if not seats_prefetched(game):
        game = with_seats(Game.objects.select_related("event")).get(pk=game.pk)
    response = Response(GameSerializer(game).data, status=code)
    response["ETag"] = f'"{game.version}"'
    return refer(response, "game", game.pk, game.version)


# A key's answer that was a game is shown again from the game, to whoever may see it.
REBUILD["game"] = lambda request, game_id: answer(game_for(request, game_id))


def game_for(request: Request, game_id: int, *, write: bool = False) -> Game:
    """The game the URL names, if the user may see it (404 otherwise) and, for a write, score it (403)."""
    return _checked(request, get_object_or_404(visible_games(request.user), pk=game_id), write=write)


def writable(request: Request, game_id: int, *, version: int | None, required: bool) -> hands.Locate:
    """How a write checks the game its locking read found (read once, with what the user is to its event): as
    ``game_for`` checks it, and the If-Match asked for (428) only of a writer who may write."""

    def locate(game: Game | None) -> Game:
        if game is None:
            raise Http404("No Game matches the given query.")
        # The event's organisers and referees see it: only someone else is asked whether they do (404 if not,
        # before the 403), so the locking read of a scorer's write carries no visibility filter.
        if not getattr(game, "user_organises", False) and not getattr(game, "user_referees", False):
            get_object_or_404(visible_events(request.user), pk=game.event_id)
        _checked(request, game)
        if required and version is None:
            raise PreconditionRequired
        return game

    return locate


def _checked(request: Request, game: Game, *, write: bool = True) -> Game:
    if write and game_writer(game, user=request.user) is None:
        raise PermissionDenied("only the event's organisers and its referees enter and correct hands")
    return game
