"""Answers for what no view answered: the server error and not-found pages, in JSON under /api/; the API's
Swagger UI under the site's Content-Security-Policy.

An exception in a DRF view is answered by ``api.errors.exception_handler``; this catches the rest under
/api/ (a middleware, a non-DRF view) so that an API client never parses an HTML page. Django has logged the
traceback (``django.request``) before calling it.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found as html_page_not_found
from django.views.defaults import server_error as html_server_error
from drf_spectacular.views import SpectacularSwaggerSplitView
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import SERVER_ERROR, not_found_body
from config import csp


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": SERVER_ERROR, "errors": []}, status=500)
    return html_server_error(request)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """An address no URL pattern names: under /api/ the API's own 404 (DRF's detail), the site's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(not_found_body(), status=404)
    return html_page_not_found(request, exception)


class SwaggerDocs(SpectacularSwaggerSplitView):
    """/api/docs/: Swagger UI with its set-up script served as a file (``?script``), so no inline script runs.
    Its page keeps one inline <style> block of drf-spectacular's template: styles, not scripts, are let in
    inline here alone (the page shows the API's description, nothing a user wrote)."""

    def finalize_response(self, request: Request, response: Response, *args: Any, **kwargs: Any) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        response[csp.HEADER] = csp.POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
        return response
