"""The players at a table open its entry page with the table's code, without an account."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from scoring.services.table_codes import table_code_open
from tournament.errors import InvalidInput, TooManyTries
from tournament.models import Game
from tournament.selectors import event_shown
from web.guesser import guesser


@require_http_methods(["GET", "HEAD", "POST"])
def table_code_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("event", "table__round"), pk=game_id)
    error, status, wait = "", 200, 0
    if request.method == "POST":
        try:
            table_code_open(game=game, code=request.POST.get("code", ""), session=request.session,
                            guesser=guesser(request))
        except InvalidInput as exc:
            error, status = str(exc.problems[0].message), 429 if isinstance(exc, TooManyTries) else 400
            wait = exc.retry_after if isinstance(exc, TooManyTries) else 0
        else:
            return redirect("game-entry", game_id=game.pk)
    # A private event's name is for those who may see it; the players at the table know where they sit.
    response = render(request, "pages/table_code.html", {"game": game, "error": error,
                                                         "event_shown": event_shown(game.event, request.user)},
                      status=status)
    if wait:
        response["Retry-After"] = str(wait)
    return response
