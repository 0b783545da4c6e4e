"""The public pages: events, standings, rounds, players, games, CSV and print views (thin: presenters read)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseNotModified,
    HttpResponseRedirect,
)
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.selectors import standings_version
from scoring.services import chain, results_export, standings_export
from scoring.services.confirmations import player_code, tally
from scoring.sheet.describe import value_text
from tournament.models import Event, Game, Player
from tournament.selectors import with_seats
from web import presenters as pages
from web import shared_pages, team_presenters
from web import stage_presenters as stage_pages
from web import standings_presenters as ranked
from web.csv_downloads import csv_download
from web.live_presenters import live_attrs

# Blank hand rows on a printed score sheet: an East-South game rarely needs more.
PRINTED_HAND_ROWS = 16


def _event(request: HttpRequest, slug: str) -> Event:
    return get_object_or_404(pages.public_events(request.user), slug=slug)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/home.html", {"events": pages.public_events(request.user)})


@require_GET
def event_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    organiser = event.is_organiser(request.user)
    return render(
        request,
        "pages/event.html",
        {
            "event": event,
            "rules": pages.ruleset_summary(event),
            "rounds": event.rounds.all(),
            "games": pages.games_of_event(event).filter(table__isnull=True),
            "organiser": organiser,
            "mcr": event.ruleset().is_mcr,
            "scorer": organiser or event.can_score(request.user),
            "disputes": pages.disputes(event) if organiser else [],
            **team_presenters.event_teams(event, request.user),
        },
    )


@require_GET
def language(request: HttpRequest) -> HttpResponse:
    """Switch the pages' language (a GET form: pages without a per-visitor token can be cached and shared)."""
    code = request.GET.get("language", "")
    target = request.GET.get("next", "/")
    # A path of this site only: redirect() would take a bare word for a URL name (a 500 when none has it).
    if not target.startswith("/") or not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = HttpResponseRedirect(target)
    if check_for_language(code) and code in dict(settings.LANGUAGES):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            code,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            samesite="Lax",
            secure=request.is_secure(),
        )
    return response


@require_GET
def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    whole = request.GET.get("part") != "table"
    sort, asked = ranked.standings_sort(request.GET.get("sort")), _asked_stage(request)
    # The name of the page is every parameter it reads, and nothing else a visitor may add to the address.
    name = f"standings:{sort}:{asked}"
    if whole and (answer := shared_pages.recent(request, name)):
        return answer  # this process answered it a moment ago: no database, no Redis
    event = get_object_or_404(pages.public_events(request.user).select_related("standings_state"), slug=slug)
    stage = _held(event, asked)
    if whole:
        # Read with the event (no query); the team table is read under the event's team settings.
        version = f"{standings_version(event)[0]}:{event.team_ranking}.{event.team_best}"
        return shared_pages.shared_page(
            request,
            name,
            version,
            lambda: render(
                request,
                "pages/standings.html",
                {
                    "event": event,
                    "table": ranked.standings_table(event, sort, stage),
                    "sort": sort,
                    "unconfirmed": pages.unconfirmed_games(event),
                    "rules": event.ruleset(),
                    **ranked.stage_switch(event, stage),
                    **live_attrs(event),
                },
            ),
            remember=event.public,
        )
    # The page polls for its table alone while a round is being played: unchanged, it costs a 304.
    table = ranked.standings_table(event, sort, stage)
    unchanged = table.etag in request.headers.get("If-None-Match", "")
    response = HttpResponseNotModified() if unchanged else HttpResponse(table.html)
    response["ETag"] = table.etag
    response["Cache-Control"] = ("public" if event.public else "private") + ", no-cache"
    return response


def _asked_stage(request: HttpRequest) -> int | None:
    """The stage number a reader asked for (``?stage=n``), or None for the event's table (its final ranking
    once it is in stages); a 404 for what is not a stage number."""
    asked = request.GET.get("stage", "")
    if not asked:
        return None
    if not (asked.isascii() and asked.isdigit() and len(asked) <= 4):
        raise Http404("this event has no such stage")
    return int(asked)


def _stage(request: HttpRequest, event: Event) -> int | None:
    """The stage a reader asked for, or None; a 404 for a stage the event does not have."""
    return _held(event, _asked_stage(request))


def _held(event: Event, stage: int | None) -> int | None:
    if stage is not None and not ranked.has_stage(event, stage):
        raise Http404("this event has no such stage")
    return stage


# ?format= of the standings CSV: the players' table, the teams' table, the final table for a federation.
STANDINGS_CSV = {
    "standings": standings_export.standings_table_csv,
    "teams": standings_export.teams_csv,
    "federation": standings_export.federation_csv,
}


@require_GET
def standings_csv(request: HttpRequest, slug: str) -> HttpResponseBase:
    event, kind = _event(request, slug), request.GET.get("format", "standings")
    if kind not in STANDINGS_CSV:
        return HttpResponseBadRequest(
            _("format: must be one of %(choices)s") % {"choices": ", ".join(STANDINGS_CSV)},
            content_type="text/plain; charset=utf-8",
        )
    if kind == "standings":
        stage = _stage(request, event)
        name = f"{slug}-stage-{stage}.csv" if stage is not None else f"{slug}-{kind}.csv"
        return csv_download(
            request, lambda localised: standings_export.standings_table_csv(event, stage, localised=localised), name
        )
    return csv_download(
        request, lambda localised: STANDINGS_CSV[kind](event, localised=localised), f"{slug}-{kind}.csv"
    )


@require_GET
def results_csv(request: HttpRequest, slug: str) -> HttpResponseBase:
    event = _event(request, slug)
    return csv_download(
        request,
        lambda localised: results_export.results_csv_chunks(event, localised=localised),
        f"{slug}-results.csv",
        stream=True,
    )


@require_GET
def round_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _event(request, slug)
    round_ = get_object_or_404(event.rounds, number=number)
    search = request.GET.get("q", "")
    return render(
        request,
        "pages/round.html",
        {
            "event": event,
            "round": round_,
            "tables": pages.round_tables(round_, search),
            "q": search,
            "rounds": event.rounds.all(),
            "mcr": event.ruleset().is_mcr,
            "lineup": team_presenters.round_naming(event, round_, request.user),
            **live_attrs(event),
        },
    )


@require_GET
def round_print(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _event(request, slug)
    round_ = get_object_or_404(event.rounds, number=number)

    def entry_url(game_id: int) -> str:  # absolute: it is read off paper by a phone
        return request.build_absolute_uri(reverse("game-entry", args=[game_id]))

    return render(
        request,
        "pages/round_print.html",
        {
            "event": event,
            "round": round_,
            "tables": pages.printed_tables(round_, entry_url),
            "hand_rows": range(PRINTED_HAND_ROWS),
            "solo": event.ruleset().is_solo,
        },
    )


@require_GET
def player_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    event = _event(request, slug)
    player = get_object_or_404(Player, pk=player_id)
    if not event.registrations.filter(player=player).exists() and not event.games.filter(seats__player=player).exists():
        raise Http404("this player does not play in this event")
    games = pages.player_games(event, player)
    solo = event.ruleset().is_solo  # a solo game has no points: its draws and value, and no chart of points
    own = request.user.is_authenticated and player.user_id == request.user.pk
    return render(
        request,
        "pages/player.html",
        {
            "event": event,
            "player": player,
            "games": games,
            "code": player_code(event, player) if own else None,
            "chart": None if solo else pages.cumulative_chart([g.cumulative for g in games]),
            "standing": ranked.standing_of(event, player),
            "solo": solo,
        },
    )


@require_GET
def stages_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Each stage with who went through, and the final tables with their results."""
    event = get_object_or_404(pages.public_events(request.user).select_related("standings_state"), slug=slug)
    # Each confirmed cut is read again from the standings: spectators share one rendering per version of them.
    return shared_pages.shared_page(
        request,
        "stages",
        standings_version(event)[0],
        lambda: render(
            request,
            "pages/stages.html",
            {
                "event": event,
                "reports": stage_pages.stages_report(event),
                "final": stage_pages.final_tables(event),
                "mcr": event.ruleset().is_mcr,
            },
        ),
    )


@require_GET
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(
        with_seats(
            Game.objects.filter(event__in=pages.public_events(request.user)).select_related("event", "table__round")
        ),
        pk=game_id,
    )
    view = pages.game_view(game)
    asked = request.GET.get("seal", "")[:64]
    return render(
        request,
        "pages/game.html",
        {
            "game": game,
            "event": game.event,
            "players": view.roster.labels,
            "result": view.result,
            "hands": view.hands,
            "final": view.result.get("final", []),
            "penalties": view.result.get("penalties", []),
            "can_score": game.event.can_score(request.user),
            "head": chain.game_head(game)[: chain.SHORT],
            "mcr": game.event.ruleset().is_mcr,
            "solo": game.event.ruleset().is_solo,
            # The solo game's attempts: each with its draws, value, rank, whether it counts, and the hand in words.
            "attempts": [
                (hand, value_text(hand, translation) if hand.get("wins") else _("noten"))
                for hand in view.result.get("hands", [])
            ],
            "tally": tally(game),
            "asked": asked,
            # A player checks the seal they kept: is it still an entry of the history, and does the history hold?
            "kept": chain.kept_head(game, asked) if asked else None,
            "intact": chain.verify_game(game).intact if asked else True,
            **live_attrs(game.event, game),
        },
    )


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The entry page's service worker, served from the root so that it may look after /games/ pages."""
    path = finders.find("site/sw.js")
    if not isinstance(path, str):
        raise Http404("no service worker")
    with open(path, encoding="utf-8") as script:
        response = HttpResponse(script.read(), content_type="application/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"  # a new version is picked up at once
    return response
