"""A player's confirmation code reissued by an organiser: the old one stops working, the other players' stay."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import NOT_AUTHENTICATED, NOT_FOUND, NOT_ORGANISER
from api.serializers.events import PlayerCodeSerializer
from api.views.events import organised_event
from scoring.services.confirmations import player_code, player_code_reissue


class PlayerCodeView(APIView):
    @extend_schema(
        request=None, responses={200: PlayerCodeSerializer, 401: NOT_AUTHENTICATED, 403: NOT_ORGANISER, 404: NOT_FOUND}
    )
    def post(self, request: Request, slug: str, player_id: int) -> Response:
        """A new confirmation code for one registered player (a lost slip, one seen by others)."""
        event = organised_event(request, slug, "reissue codes")
        registration = get_object_or_404(event.registrations.select_related("player"), player_id=player_id)
        changed = player_code_reissue(registration=registration, user=request.user)
        return Response(
            PlayerCodeSerializer(
                {
                    "player": player_id,
                    "code": player_code(event, player_id, changed.code_version),
                    "code_version": changed.code_version,
                    "reissued_at": changed.code_reissued_at,
                    "reissued_by": request.user.get_username(),
                }
            ).data
        )
