"""``POST /api/v1/auth/token/``: a script or an app gets its API token with a username and password.

Sign-in attempts are counted by django-axes (its authentication backend sees this ``authenticate`` call, as it
sees the admin's and the referees' login forms): after AXES_FAILURE_LIMIT failures for a username, every
attempt for it is refused, the right password included, until AXES_COOLOFF_TIME has passed.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import authenticate
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import APIException, Throttled
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import error_response
from api.serializers.auth import TokenRequestSerializer, TokenSerializer

LOCKED_OUT = error_response("too many failed sign-ins for this username: refused until the wait has passed")


class WrongCredentials(APIException):
    # 400 as DRF's own token view answers: a 401 would need a WWW-Authenticate scheme this endpoint has not.
    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = "wrong username or password (or the account is inactive)"


class AuthTokenView(APIView):
    """The user's API token (created on first use), for a username and password."""

    # Credentials are in the body: no session (and so no CSRF check), no token, no anonymous-read throttle.
    authentication_classes = ()
    permission_classes = (permissions.AllowAny,)
    throttle_classes = ()

    @extend_schema(
        request=TokenRequestSerializer,
        auth=[],
        responses={
            200: TokenSerializer,
            400: error_response("a missing field, or a wrong username or password"),
            429: LOCKED_OUT,
        },
        parameters=[
            OpenApiParameter(
                "Retry-After",
                OpenApiTypes.INT,
                OpenApiParameter.HEADER,
                response=[429],
                description="seconds until sign-in is allowed again",
            )
        ],
    )
    def post(self, request: Request) -> Response:
        credentials = TokenRequestSerializer(data=request.data)
        credentials.is_valid(raise_exception=True)
        user = authenticate(
            request, username=credentials.validated_data["username"], password=credentials.validated_data["password"]
        )
        # Set by axes on the request it was given: this attempt is refused, or it was the one too many.
        if getattr(request, "axes_locked_out", False):
            raise Throttled(
                wait=settings.AXES_COOLOFF_TIME.total_seconds(),
                detail="too many failed sign-ins for this username: try again later",
            )
        if user is None:
            raise WrongCredentials
        token, _ = Token.objects.get_or_create(user=user)
        return Response(TokenSerializer({"token": token.key}).data)
