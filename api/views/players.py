"""A person's records: merging two records of the same person, and undoing it."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import INVALID, NOT_AUTHENTICATED, NOT_FOUND, error_response
from tournament.models import Player, PlayerMerge
from tournament.selectors import findable_players
from tournament.services.players import identity, may_merge, may_unmerge, player_merge, player_unmerge


class MergeWriteSerializer(serializers.Serializer[Any]):
    into = serializers.IntegerField(help_text="the record kept: this one's games count in its career")


class MergeSerializer(serializers.Serializer[Any]):
    kept = serializers.IntegerField(source="kept_id")
    merged = serializers.IntegerField(source="merged_id")
    by = serializers.CharField(source="by.username", allow_null=True, default=None)
    at = serializers.DateTimeField()
    undone_at = serializers.DateTimeField(allow_null=True)
    records = serializers.SerializerMethodField(help_text="the ids of the kept record's person: kept first")

    def get_records(self, merge: PlayerMerge) -> list[int]:
        return identity(merge.kept)


FORBIDDEN = error_response("only staff, or an organiser of an event one of the records plays in, merge records")
CONFLICT = error_response("both records play in one event, or one is merged already (or, undoing: not merged)")


def _player(request: Request, player_id: int) -> Player:
    player = findable_players(request.user).filter(pk=player_id).first()
    if player is None:
        raise NotFound(f"no player {player_id}")
    return player


class PlayerMergeView(APIView):
    """Merge this record into another record of the same person (its games stay where they were played and
    sealed; the person's career counts both), or undo that merge."""

    @extend_schema(
        request=MergeWriteSerializer,
        responses={
            201: MergeSerializer,
            400: INVALID,
            401: NOT_AUTHENTICATED,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: CONFLICT,
        },
    )
    def post(self, request: Request, player_id: int) -> Response:
        given = MergeWriteSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        merged, kept = _player(request, player_id), _player(request, given.validated_data["into"])
        if not may_merge(request.user, merged, kept):
            raise PermissionDenied("only staff, or an organiser of an event one of the records plays in, merge records")
        merge = player_merge(kept=kept, merged=merged, user=request.user)
        return Response(MergeSerializer(merge).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        responses={200: MergeSerializer, 401: NOT_AUTHENTICATED, 403: FORBIDDEN, 404: NOT_FOUND, 409: CONFLICT}
    )
    def delete(self, request: Request, player_id: int) -> Response:
        merged = _player(request, player_id)
        if not may_unmerge(request.user, merged):
            raise PermissionDenied("only staff, or an organiser of an event one of the records plays in, merge records")
        return Response(MergeSerializer(player_unmerge(merged=merged, user=request.user)).data)
