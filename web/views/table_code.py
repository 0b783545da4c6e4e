"""The players at a table open its entry page with the table's code, without an account."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from rules.errors import Refusal
from scoring.services.table_codes import table_code_open
from tournament.models import Game
from tournament.selectors import event_shown
from web import refusals
from web.guesser import guesser


@require_http_methods(["GET", "HEAD", "POST"])
def table_code_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("event", "table__round"), pk=game_id)
    refusal = None
    if request.method == "POST":
        try:
            table_code_open(
                game=game, code=request.POST.get("code", ""), session=request.session, guesser=guesser(request)
            )
        except Refusal as exc:
            refusal = exc
        else:
            return redirect("game-entry", game_id=game.pk)
    # A private event's name is for those who may see it; the players at the table know where they sit.
    response = render(
        request,
        "pages/table_code.html",
        {
            "game": game,
            "error": " ".join(refusals.texts(refusal)) if refusal else "",
            "event_shown": event_shown(game.event, request.user),
        },
        status=400 if refusal else 200,
    )
    return refusals.answer(response, refusal)
