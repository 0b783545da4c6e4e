"""The CSV files the pages offer for download: the header a reader asks for, the byte order mark a spreadsheet
needs, and a file sent whole or piece by piece."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _

# ?header= of the pages' CSVs: labels in the reader's language (the default), or the English keys programs read,
# the same header as the command's exports.
CSV_HEADERS = ("labels", "keys")


def csv_download(
    request: HttpRequest, make: Callable[[bool], Iterable[str]], filename: str, *, stream: bool = False
) -> HttpResponseBase:
    """A CSV the pages offer: ``make(localised)`` writes it (a text, or its pieces); with labels it starts with a
    byte order mark, so that a spreadsheet reads Korean, Japanese and Chinese as UTF-8; with ``?header=keys``,
    exactly as programs read it. ``stream``: sent piece by piece as ``make`` writes them, for a file of any size."""
    form = csv_header_form(request)
    if form is None:
        return csv_header_refused()
    localised = form == "labels"
    bom = "\ufeff" if localised else ""
    if not stream:
        return csv_response(bom + "".join(make(localised)), filename)
    language = get_language()

    def pieces() -> Iterator[str]:
        # Written after the view has returned, while the server sends it: in the language the request chose.
        with translation.override(language):
            yield bom
            yield from make(localised)

    response = StreamingHttpResponse(pieces(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def csv_header_form(request: HttpRequest) -> str | None:
    """The header a CSV download asked for (``?header=``), or None when it is not one of ``CSV_HEADERS``."""
    form = request.GET.get("header", "labels")
    return form if form in CSV_HEADERS else None


def csv_header_refused() -> HttpResponse:
    return HttpResponseBadRequest(
        _("header: must be one of %(choices)s") % {"choices": ", ".join(CSV_HEADERS)},
        content_type="text/plain; charset=utf-8",
    )


def csv_response(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
