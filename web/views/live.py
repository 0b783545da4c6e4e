"""The pages that keep up: the live endpoint their script polls, the hall's projector, a stream's overlay."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from scoring.services.live import live_body, live_version, public_event_id
from tournament.models import Game
from tournament.selectors import visible_events, with_seats
from web import live_presenters as live
from web import presenters as pages

# A shared cache may answer for the server this long: a watcher still sees a hand within its poll and this.
SHARED_SECONDS = 1


def _watched(request: HttpRequest, slug: str) -> tuple[int, bool]:
    """The event's id and whether it is public; a hidden event is missing (404), as on every page. An anonymous
    watcher's event comes from the cache: a poll that finds nothing new reads no database."""
    if not request.user.is_authenticated:
        found = public_event_id(slug)
        if found is None:
            raise Http404("no such event")
        return found, True
    row = visible_events(request.user).filter(slug=slug).values_list("pk", "public").first()
    if row is None:
        raise Http404("no such event")
    return row


@require_GET
def live_state(request: HttpRequest, slug: str) -> HttpResponse:
    """What changed: the event's live version (the ETag) and the current round's tables; 304 when unchanged."""
    event_id, public = _watched(request, slug)
    version = live_version(event_id)
    etag = f'"live-{event_id}-{version}"'
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(live_body(event_id, version), content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = f"public, max-age={SHARED_SECONDS}" if public else "private, no-cache"
    return response


@require_GET
def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """The hall's screen: the round's clock, its tables and the top of the standings (``?round=n``: that round)."""
    event = get_object_or_404(pages.public_events(request.user), slug=slug)
    asked = request.GET.get("round", "")
    round_ = None
    if asked:
        if not (asked.isascii() and asked.isdigit() and len(asked) <= 4):
            raise Http404("no such round")
        round_ = get_object_or_404(event.rounds, number=int(asked))
    return render(request, "pages/projector.html", live.projector(event, round_))


@require_GET
def overlay(request: HttpRequest, game_id: int) -> HttpResponse:
    """A featured table for a stream's browser source, on a transparent background."""
    game = get_object_or_404(
        with_seats(
            Game.objects.filter(event__in=pages.public_events(request.user)).select_related("event", "table__round")
        ),
        pk=game_id,
    )
    return render(request, "pages/overlay.html", live.overlay(game))
