"""The API's one request parser: JSON within the limits of ``scoring.sheet.document``, at most 2 MB.

DRF's own JSONParser takes ``NaN`` and numbers of any size, and lets a lone
surrogate or a NUL through to the renderer and the database; a body over
DATA_UPLOAD_MAX_MEMORY_SIZE reaches it as Django's RequestDataTooBig, a 500.
This parser refuses all of them, naming where they are (413 for the size);
the exception handler answers in the common error shape.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import BaseParser

from rules.errors import Refusal
from scoring.sheet.document import read_json


class RequestTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"


class StrictJSONParser(BaseParser):
    """JSON bodies only (the API takes nothing else), read with the document limits.

    Not a subclass of DRF's JSONParser: DRF hands those ``request.body``, which raises Django's own
    RequestDataTooBig (a 500 in the API) before a parser can answer 413.
    """

    media_type = "application/json"

    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        request = (parser_context or {}).get("request")
        declared = str(request.META.get("CONTENT_LENGTH") or "0") if request is not None else "0"
        # Refuse a declared size at once; read one byte past the limit to catch a body that lies about it.
        if not re.fullmatch(r"[0-9]{1,15}", declared) or int(declared) > limit:
            raise RequestTooLarge(_too_large(limit))
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise RequestTooLarge(_too_large(limit))
        try:
            return read_json(raw)
        except Refusal as exc:
            whole = [p.message for p in exc.problems if not p.field]
            if whole:  # about the body as a whole: DRF's words, and no field to name
                raise ParseError("JSON parse error - " + "; ".join(whole)) from None
            raise


class LogParser(BaseParser):
    """An online game's log as the body, whatever its type (XML, JSON, gzip): the bytes, read within the limit.

    The log reader tells the formats apart by their content; a multipart upload goes to DRF's own parser.
    """

    media_type = "*/*"

    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise RequestTooLarge(_too_large(limit))
        return {"log": raw}


def _too_large(limit: int) -> str:
    return f"the request body is over {limit // (1024 * 1024)} MB; send less at a time (a game's hands, a schedule)"
