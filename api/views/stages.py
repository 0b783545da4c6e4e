"""An event's stages: listed, added, changed and deleted, and the cut into one previewed, confirmed, undone."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import INVALID, NOT_AUTHENTICATED, NOT_FOUND, NOT_ORGANISER, error_response
from api.idempotency import IDEMPOTENCY_KEY, KEY_REUSED, idempotent
from api.serializers.stages import CutDecisionSerializer, CutSerializer, StageSerializer, cut_body
from api.views.events import organised_event, stage_get_or_404
from scoring.services.stages import (
    CutPreview,
    cut_confirm,
    cut_preview,
    cut_undo,
    entrant_names,
    stage_add,
    stage_change,
    stage_delete,
    stages_of,
)
from tournament.selectors import visible_events

CONFLICT = error_response(
    "the event's state does not allow this change (a seated stage, a cut confirmed, a tie "
    "at the line undecided, games still playing)"
)


class StagesView(APIView):
    """The event's stages in order (the first, which takes everyone, always among them); organisers add one."""

    @extend_schema(responses={200: StageSerializer(many=True), 404: NOT_FOUND})
    def get(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(visible_events(request.user), slug=slug)
        return Response(StageSerializer(stages_of(event), many=True).data)

    @extend_schema(
        request=StageSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: StageSerializer,
            400: INVALID,
            401: NOT_AUTHENTICATED,
            403: NOT_ORGANISER,
            404: NOT_FOUND,
            422: KEY_REUSED,
        },
    )
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        event = organised_event(request, slug, "add stages")
        given = StageSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        stage = stage_add(event=event, data=given.validated_data, user=request.user)
        return Response(StageSerializer(stage).data, status=status.HTTP_201_CREATED)


class StageView(APIView):
    """One stage; organisers change it or (the last, before it is seated) delete it."""

    @extend_schema(responses={200: StageSerializer, 404: NOT_FOUND})
    def get(self, request: Request, slug: str, number: int) -> Response:
        event = get_object_or_404(visible_events(request.user), slug=slug)
        return Response(StageSerializer(stage_get_or_404(event, number)).data)

    @extend_schema(
        request=StageSerializer,
        responses={
            200: StageSerializer,
            400: INVALID,
            401: NOT_AUTHENTICATED,
            403: NOT_ORGANISER,
            404: NOT_FOUND,
            409: CONFLICT,
        },
    )
    def patch(self, request: Request, slug: str, number: int) -> Response:
        event = organised_event(request, slug, "change stages")
        stage = stage_get_or_404(event, number)
        given = StageSerializer(stage, data=request.data, partial=True)
        given.is_valid(raise_exception=True)
        stage = stage_change(stage=stage, data=given.validated_data, user=request.user)
        return Response(StageSerializer(stage).data)

    @extend_schema(responses={204: None, 401: NOT_AUTHENTICATED, 403: NOT_ORGANISER, 404: NOT_FOUND, 409: CONFLICT})
    def delete(self, request: Request, slug: str, number: int) -> Response:
        event = organised_event(request, slug, "delete stages")
        stage_delete(stage=stage_get_or_404(event, number), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class StageCutView(APIView):
    """The cut into a stage: previewed (anyone who sees the event), confirmed or undone (its organisers)."""

    @extend_schema(responses={200: CutSerializer, 404: NOT_FOUND, 409: CONFLICT})
    def get(self, request: Request, slug: str, number: int) -> Response:
        event = get_object_or_404(visible_events(request.user), slug=slug)
        return Response(_answer(cut_preview(stage_get_or_404(event, number))))

    @extend_schema(
        request=CutDecisionSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: CutSerializer,
            400: INVALID,
            401: NOT_AUTHENTICATED,
            403: NOT_ORGANISER,
            404: NOT_FOUND,
            409: CONFLICT,
            422: KEY_REUSED,
        },
    )
    @idempotent
    def post(self, request: Request, slug: str, number: int) -> Response:
        event = organised_event(request, slug, "confirm cuts")
        given = CutDecisionSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        stage = cut_confirm(
            stage=stage_get_or_404(event, number), through=given.validated_data["through"], user=request.user
        )
        return Response(_answer(cut_preview(stage)), status=status.HTTP_201_CREATED)

    @extend_schema(
        responses={200: CutSerializer, 401: NOT_AUTHENTICATED, 403: NOT_ORGANISER, 404: NOT_FOUND, 409: CONFLICT}
    )
    def delete(self, request: Request, slug: str, number: int) -> Response:
        event = organised_event(request, slug, "undo cuts")
        stage = cut_undo(stage=stage_get_or_404(event, number), user=request.user)
        return Response(_answer(cut_preview(stage)))


def _answer(preview: CutPreview) -> dict[str, Any]:
    listed = set(preview.cut.through) | set(preview.cut.tied_at_line)
    names = entrant_names(preview.stage.event, listed)
    return CutSerializer(cut_body(preview, names)).data
