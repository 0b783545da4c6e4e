"""A player's career page and an event's leaderboards (page and CSV): thin, the presenters and services read."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from rules.errors import Refusal
from scoring.services.leaderboards import event_leaderboards, leaderboards_csv, read_board_options
from tournament.selectors import findable_players
from web import career, refusals
from web.csv_downloads import csv_download
from web.presenters import public_events


@require_GET
def career_page(request: HttpRequest, player_id: int) -> HttpResponse:
    # A player who plays only in events hidden from the reader is no player to him (issue 25).
    player = get_object_or_404(findable_players(request.user), pk=player_id)
    view = career.career_view(player, request.user, request.GET, request.GET.get("page"))
    return render(
        request,
        "pages/career.html",
        {
            "view": view,
            "player": player,
            "figures": view.figures,
            "mcr": view.figures and view.figures["mcr"],
            "platforms": [(key, career.platform_label(key)) for key in view.platforms],
            # The filters again on the links to the other pages of games.
            "query": "".join(f"{urlencode({key: value})}&" for key, value in view.params.items() if value),
        },
        status=400 if view.problems else 200,
    )


@require_GET
def leaderboards_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(public_events(request.user), slug=slug)
    problems = []
    try:
        min_hands, limit = read_board_options(request.GET)
    except Refusal as exc:
        problems, min_hands, limit = refusals.texts(exc, paths=True), None, 10
    boards = event_leaderboards(event, min_hands=min_hands, limit=limit)
    return render(
        request,
        "pages/leaderboards.html",
        {"event": event, "boards": boards, "problems": problems},
        status=400 if problems else 200,
    )


@require_GET
def leaderboards_csv_view(request: HttpRequest, slug: str) -> HttpResponseBase:
    event = get_object_or_404(public_events(request.user), slug=slug)
    return csv_download(
        request, lambda localised: leaderboards_csv(event, localised=localised), f"{slug}-statistics.csv"
    )
