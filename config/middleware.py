"""One log line per request, every line of a request tagged with its id.

``RequestIdMiddleware`` (first in MIDDLEWARE, so it times and logs everything under it, redirects and static
files included) takes the proxy's ``X-Request-ID`` when it looks like an id, or makes one, answers it in
``X-Request-ID``, and logs ``METHOD path status duration``. ``RequestIdFilter`` puts the id on every log
record (``%(request_id)s``), so a traceback in the log names the request a user reports by its id.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.core.signals import request_finished
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseBase

HEADER = "X-Request-ID"
# What a proxy or a client may send as an id: short, printable, no spaces (it goes into every log line as is).
_SANE_ID = re.compile(r"^[A-Za-z0-9._:+/=-]{1,128}$")
_request_id: ContextVar[str] = ContextVar("request_id", default="-")
logger = logging.getLogger("config.request")


def current_request_id() -> str:
    """The id of the request being served in this thread or task, or "-" outside any request."""
    return _request_id.get()


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = _request_id.get()
        return True


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        incoming = request.headers.get(HEADER, "")
        request_id = incoming if _SANE_ID.match(incoming) else uuid.uuid4().hex
        # Kept until the request has finished (below), not reset on the way out: Django logs a 5xx response
        # (django.request) after the middleware has returned it, and that line must carry the id too.
        _request_id.set(request_id)
        started = time.perf_counter()
        response = self.get_response(request)
        response[HEADER] = request_id
        logger.info(
            "%s %s %s %.0fms",
            request.method,
            request.get_full_path()[:500],
            response.status_code,
            (time.perf_counter() - started) * 1000,
        )
        return response


@receiver(request_finished)
def _forget_request_id(**kwargs: Any) -> None:
    """A thread serves one request after another: what it logs in between belongs to none of them."""
    _request_id.set("-")
