"""Online game logs (Tenhou, Mahjong Soul) into an event, checked hand by hand against their own numbers."""

from __future__ import annotations

from django.core.files.uploadedfile import UploadedFile
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import NOT_AUTHENTICATED, NOT_FOUND, NOT_ORGANISER, error_body
from api.idempotency import IDEMPOTENCY_KEY, idempotent
from api.parsers import LogParser
from api.serializers.online import LogImportQuerySerializer, LogImportRefusedSerializer, LogImportSerializer
from api.views.events import organised_event
from rules.errors import Problem, Refusal
from scoring.logs.read import MAX_LOG_BYTES
from scoring.services.online import LogResult, Outcome, logs_import
from scoring.services.standings import standings_batch

MAX_FILES = 100  # one request; a season is sent in several
BODY = "body"
REFUSED = "no log was imported; nothing was saved"


class GameImportView(APIView):
    """Import online game logs: a Tenhou mjlog (XML, plain or gzip) or a tenhou.net/6 JSON log as the body, or
    up to 100 files uploaded as multipart ``file`` fields. Each log is replayed hand by hand and compared with
    the numbers it records; each is imported whole or not at all, and a log already imported answers its game.
    """

    permission_classes = (permissions.IsAuthenticated,)
    parser_classes = (MultiPartParser, LogParser)

    @extend_schema(
        parameters=[LogImportQuerySerializer, IDEMPOTENCY_KEY],
        request={
            "application/xml": bytes,
            "application/json": bytes,
            "application/gzip": bytes,
            "multipart/form-data": {
                "type": "object",
                "properties": {"file": {"type": "array", "items": {"type": "string", "format": "binary"}}},
            },
        },
        responses={
            201: OpenApiResponse(LogImportSerializer, description="at least one game imported"),
            200: OpenApiResponse(LogImportSerializer, description="every log was imported before: nothing added"),
            400: OpenApiResponse(
                LogImportRefusedSerializer, description="no log could be read (or its players were not found)"
            ),
            401: NOT_AUTHENTICATED,
            403: NOT_ORGANISER,
            404: NOT_FOUND,
            422: OpenApiResponse(
                LogImportRefusedSerializer,
                description="the rules give other numbers than the "
                "log records (send keep_mismatches to import it marked), or an Idempotency-Key "
                "reused",
            ),
        },
    )
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        event = organised_event(request, slug, "import games")
        query = LogImportQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        options = query.validated_data
        with standings_batch():
            results = logs_import(
                event=event,
                logs=_logs(request),
                user=request.user,
                create_players=options["create_players"],
                keep_mismatches=options["keep_mismatches"],
                ruleset=options.get("ruleset"),
            )
        return _answer(results)


def _logs(request: Request) -> list[tuple[str, bytes]]:
    files: list[UploadedFile] = request.FILES.getlist("file") if request.FILES else []
    if not files:
        body = request.data.get("log", b"") if isinstance(request.data, dict) else b""
        if not body:
            raise Refusal.one("log", 'send a log as the body, or upload files as multipart "file" fields')
        return [(BODY, body)]
    if len(files) > MAX_FILES:
        raise Refusal.one("file", f"{len(files)} files: send at most {MAX_FILES} at a time")
    return [(f.name or f"file {i + 1}", f.read(MAX_LOG_BYTES + 1)) for i, f in enumerate(files)]


def _answer(results: list[LogResult]) -> Response:
    data = LogImportSerializer({"results": results}).data
    outcomes = {r.outcome for r in results}
    if outcomes & {Outcome.IMPORTED, Outcome.KEPT}:
        return Response(data, status=status.HTTP_201_CREATED)
    if outcomes == {Outcome.ALREADY}:
        return Response(data, status=status.HTTP_200_OK)
    problems = [
        Problem(r.source, f"{p.field}: {p.message}" if p.field else p.message)
        for r in results
        if not r.stored
        for p in r.problems
    ]
    code = status.HTTP_422_UNPROCESSABLE_ENTITY if Outcome.DIFFERS in outcomes else status.HTTP_400_BAD_REQUEST
    return Response({**error_body(REFUSED, problems), **data}, status=code)
