"""Answers for what no view answered: the server error page, in JSON under /api/.

An exception in a DRF view is answered by ``api.errors.exception_handler``; this catches the rest under
/api/ (a middleware, a non-DRF view) so that an API client never parses an HTML page. Django has logged the
traceback (``django.request``) before calling it.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import server_error as html_server_error

from api.errors import SERVER_ERROR


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": SERVER_ERROR, "errors": []}, status=500)
    return html_server_error(request)
