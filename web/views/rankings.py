"""The rankings across events, public: which there are, and one on a date with each row's explanation."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from rules.errors import Refusal
from scoring.services.ranking_read import parse_as_of, ranking_find, ranking_on, rankings_available
from web import ranking_presenters as present
from web import refusals


@require_GET
def rankings_page(request: HttpRequest) -> HttpResponse:
    return render(
        request, "pages/rankings.html", {"rankings": rankings_available(request.user), "kinds": present.KINDS}
    )


@require_GET
def ranking_page(request: HttpRequest, key: str) -> HttpResponse:
    info = ranking_find(key, request.user)
    if info is None:
        raise Http404("no such ranking")
    asked = request.GET.get("as_of")
    try:
        on = parse_as_of(asked)
    except Refusal as exc:
        return render(
            request,
            "pages/ranking.html",
            {
                "info": info,
                "kinds": present.KINDS,
                "asked": asked,
                "today": timezone.localdate(),
                "problems": refusals.texts(exc),
            },
            status=400,
        )
    page = present.ranking_page(ranking_on(info, on), request.GET.get("page"))
    return render(
        request,
        "pages/ranking.html",
        {
            "info": info,
            "kinds": present.KINDS,
            "asked": on.isoformat(),
            "today": timezone.localdate(),
            "ranking": page.ranking,
            "page": page.page,
            "rows": page.rows,
            "changes": present.CHANGES,
        },
    )
