"""Answers for what no view answered: the server error and not-found pages, in JSON under /api/.

An exception in a DRF view is answered by ``api.errors.exception_handler``; this catches the rest under
/api/ (a middleware, a non-DRF view) so that an API client never parses an HTML page. Django has logged the
traceback (``django.request``) before calling it.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found as html_page_not_found
from django.views.defaults import server_error as html_server_error

from api.errors import SERVER_ERROR, not_found_body


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": SERVER_ERROR, "errors": []}, status=500)
    return html_server_error(request)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """An address no URL pattern names: under /api/ the API's own 404 (DRF's detail), the site's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(not_found_body(), status=404)
    return html_page_not_found(request, exception)
