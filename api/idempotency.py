"""``Idempotency-Key`` on every POST that creates something: a retried request creates nothing more.

The same key with the same body within a day answers what the first request
got (status, body, ETag) and writes nothing; the same key with another body
gets 422. Without the header a POST behaves as before.

An answer that shows a resource (a game, ``refer``) is kept as a reference to
it at the version it showed, and shown again from it (``REBUILD``): the same
answer while the resource is at that version, the resource as it is now once
it has moved on (docs/api.md).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, TypeVar

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import ErrorSerializer
from scoring.edge.keys import Answered, fingerprint, once

View = TypeVar("View", bound=Callable[..., Response])
# How a kind of resource is shown again from its id (registered by its views): ``game`` -> api.views.games.
REBUILD: dict[str, Callable[[Request, int], Response]] = {}

HEADER = "Idempotency-Key"
KEPT_HEADERS = ("ETag", "Location")
# On a replay whose resource has changed since: the version the first answer showed (the body and ETag are now's).
ANSWERED_VERSION = "Idempotent-Version"
IDEMPOTENCY_KEY = OpenApiParameter(
    HEADER,
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="any unique string (a UUID): a retry with the same key and body gets the first answer and "
    "creates nothing more; the same key with another body is refused (422). Kept 24 hours.",
)
KEY_REUSED = OpenApiResponse(ErrorSerializer, description="the Idempotency-Key was already used for another request")


def idempotent(view: View) -> View:
    """Make a creating POST handler honour ``Idempotency-Key`` (``scoring.edge.keys.once``)."""

    @functools.wraps(view)
    def handle(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        # The query string too (the log import takes its options there), its parameters in any order.
        asked = (
            ""
            if key is None
            else fingerprint(request.method, request.path, sorted(request.query_params.lists()), request.data)
        )
        done = once(
            writer=request.user, key=key, asked=asked, write=lambda: view(self, request, *args, **kwargs), kept=_kept
        )
        return _again(request, done) if isinstance(done, Answered) else done

    return handle  # type: ignore[return-value]


def refer(response: Response, kind: str, pk: int, version: int) -> Response:
    """Mark an answer as showing resource ``kind`` ``pk`` at ``version``: a key keeps that, not the body."""
    response.idempotency_reference = (f"{kind}:{pk}", version)  # type: ignore[attr-defined]
    return response


def _kept(response: Response) -> Answered | None:
    """What a retry is answered: a success as it was sent, by reference where it shows a resource; nothing for a
    refusal (the key stays free)."""
    if not 200 <= response.status_code < 300:
        return None
    headers = {name: response[name] for name in KEPT_HEADERS if response.has_header(name)}
    reference = getattr(response, "idempotency_reference", None)
    if reference is not None:
        return Answered(
            status=response.status_code, body=None, headers=headers, resource=reference[0], version=reference[1]
        )
    return Answered(status=response.status_code, body=_plain(response.data), headers=headers)


def _again(request: Request, answered: Answered) -> Response:
    if answered.resource:
        kind, pk = answered.resource.split(":")
        response = REBUILD[kind](request, int(pk))
        response.status_code = answered.status
        for name, value in answered.headers.items():
            if name != "ETag":  # the resource's own, as it is now
                response[name] = value
        if response.get("ETag") != f'"{answered.version}"':
            response[ANSWERED_VERSION] = str(answered.version)
    else:
        response = Response(answered.body, status=answered.status)
        for name, value in answered.headers.items():
            response[name] = value
    response["Idempotent-Replayed"] = "true"
    return response


def _plain(data: Any) -> Any:
    """The answer's data as stored JSON (dates and decimals as the API writes them)."""
    return json.loads(JSONRenderer().render(data))
