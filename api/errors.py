"""One shape for every error the API answers: ``detail`` and ``errors: [{field, message, code}]``.

``exception_handler`` (REST_FRAMEWORK["EXCEPTION_HANDLER"]) turns a
refusal of any layer (rules.errors.Refusal and its subclasses), and DRF's own errors (a field of
the wrong type, a missing token, a page that does not exist), into that
shape, so a client reads every refusal the same way. Each message is in the request's language
(Accept-Language, through the LocaleMiddleware); its ``code`` is the same in every language, for clients
that match on it. Any other exception is a bug: it is logged with its
traceback and answered as a 500 in the same shape, never as Django's HTML page.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from rules.errors import Problem, Refusal
from scoring.edge.keys import KeyReused
from scoring.messages import message
from scoring.services.hands import VersionConflict
from tournament.errors import Conflict, GameConflict

REFUSED = "invalid input; nothing was saved"
SERVER_ERROR = "server error: the X-Request-ID header names this request in the server's log"
# The logger Django reports its own 500s to, so that every traceback lands in one place.
logger = logging.getLogger("django.request")


class ProblemSerializer(serializers.Serializer[Any]):
    """One refused field of the body and why."""

    field = serializers.CharField(
        allow_blank=True,
        help_text='the path into the body, e.g. "fu", '
        '"hands[3].winner" or "players[1]"; empty for the request as a whole',
    )
    message = serializers.CharField(help_text="why, in the request's language (Accept-Language)")
    code = serializers.CharField(
        allow_blank=True,
        help_text="a stable code for the message, the same in every "
        'language, e.g. "fu_20_needs_2_han", "required"; empty for a message that has none',
    )


class ErrorSerializer(serializers.Serializer[Any]):
    """Why the request was refused; nothing was saved."""

    detail = serializers.CharField()
    # A declared field leaves the class body (DRF's metaclass collects it), so Serializer.errors stays intact.
    errors = ProblemSerializer(
        many=True,
        help_text="every problem found, each with the field it is about; "  # type: ignore[assignment]
        "empty when the refusal is about the request as a whole",
    )


class ConflictSerializer(ErrorSerializer):
    """The game changed since the version the write was based on; nothing was saved."""

    version = serializers.IntegerField(help_text="the game's current version")


class PreconditionRequired(APIException):
    status_code = status.HTTP_428_PRECONDITION_REQUIRED
    default_detail = (
        "send If-Match with the game's version (its ETag) so that a change made by someone else in "
        "between is not overwritten"
    )


# How each kind of refusal is answered, the most specific first: its status and what ``detail`` says ("" for the
# refusal's own text, a VersionConflict's, which names no field).
_ANSWERS: tuple[tuple[type[Refusal], int, str], ...] = (
    (KeyReused, status.HTTP_422_UNPROCESSABLE_ENTITY, "this Idempotency-Key was used for another request"),
    (VersionConflict, status.HTTP_409_CONFLICT, ""),
    (GameConflict, status.HTTP_409_CONFLICT, "the game's state does not allow this change"),
    (Conflict, status.HTTP_409_CONFLICT, "the event's state does not allow this change"),
    (Refusal, status.HTTP_400_BAD_REQUEST, REFUSED),
)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Refusal):
        return refusal_response(exc)
    handled = drf_exception_handler(exc, context)
    if handled is None:
        return _server_error(exc, context)
    response = handled
    if isinstance(exc, ValidationError):
        response.data = error_body(REFUSED, list(_problems(exc.detail)))
    else:
        detail = response.data.get("detail", "") if isinstance(response.data, dict) else response.data
        response.data = error_body(str(detail), [])
    return response


def refusal_response(exc: Refusal) -> Response:
    """A refusal of any layer in the common shape; a game's conflict also gives the game's current version."""
    code, detail = next((code, detail) for kind, code, detail in _ANSWERS if isinstance(exc, kind))
    response = _error(code, detail or str(exc), exc.problems)
    if isinstance(exc, GameConflict):
        response.data["version"] = exc.version
    return response


def _server_error(exc: Exception, context: dict[str, Any]) -> Response:
    """Any other exception: logged with its traceback, answered in the common shape (not Django's HTML page)."""
    request = context.get("request")
    django_request = getattr(request, "_request", request)
    logger.error(
        "Internal Server Error: %s",
        getattr(django_request, "path", "?"),
        exc_info=exc,
        extra={"status_code": 500, "request": django_request},
    )
    set_rollback()
    response = _error(status.HTTP_500_INTERNAL_SERVER_ERROR, SERVER_ERROR, [])
    # Django logs every 5xx response again, without the traceback, unless told this one was logged.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


def _error(code: int, detail: str, problems: list[Problem]) -> Response:
    return Response(error_body(detail, problems), status=code)


def not_found_body() -> dict[str, Any]:
    """What the API answers for an address it does not have, as DRF answers for an object it does not have."""
    return error_body(str(NotFound.default_detail), [])


def error_body(detail: str, problems: list[Problem]) -> dict[str, Any]:
    return {"detail": detail, "errors": [{"field": p.field, "message": message(p), "code": p.code} for p in problems]}


def _problems(detail: Any, path: str = "") -> Iterator[Problem]:
    """DRF's nested error detail as flat problems: {"players": {"0": ["…"]}} -> players[0]: …"""
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = "" if key in ("non_field_errors", "detail") else str(key)
            sub = f"{path}[{name}]" if name.isdigit() else f"{path}.{name}" if path and name else path or name
            yield from _problems(value, sub)
    elif isinstance(detail, list):
        for index, value in enumerate(detail):
            yield from _problems(value, f"{path}[{index}]" if isinstance(value, (dict, list)) else path)
    else:
        yield Problem(path, str(detail), str(getattr(detail, "code", "") or ""))


def error_response(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


INVALID = error_response("refused input, nothing saved: each field and why")
NOT_AUTHENTICATED = error_response("no credentials: send a token (or sign in)")
NOT_FOUND = error_response("no such object, or not one you may see")
CONFLICT = OpenApiResponse(ConflictSerializer, description="the game changed since the If-Match version")
PRECONDITION_REQUIRED = error_response("send If-Match with the game's version")
NOT_SCORER = error_response("only the event's organisers and referees score its games")
NOT_ORGANISER = error_response("only the event's organisers do this")
