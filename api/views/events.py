"""Events, their players, rounds and standings, and the ruleset presets (seating: api.views.seating)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import permissions, status, viewsets
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer, Serializer
from rest_framework.views import APIView

from api.errors import INVALID, NOT_AUTHENTICATED, NOT_FOUND, error_response
from api.idempotency import IDEMPOTENCY_KEY, KEY_REUSED, idempotent
from api.pagination import StandingsPages
from api.serializers.events import (
    EventSerializer,
    PlayerSerializer,
    RegisteredPlayerSerializer,
    RoundSerializer,
    RulesetSerializer,
    StandingSerializer,
    StandingsPageSerializer,
    TeamStandingSerializer,
)
from rules.errors import Refusal
from rules.presets import get_preset, preset_doc, preset_keys
from scoring.models import StageStanding, Standing
from scoring.selectors import standings_version
from scoring.services.events import event_update
from scoring.services.stages import stage_get
from scoring.services.standings import standings_progress_cached
from scoring.services.teams import player_teams, team_standings
from tournament.models import Event, Registration, Round, Stage
from tournament.selectors import is_slug, visible_events
from tournament.services.events import (
    CREATORS_ONLY,
    event_create,
    may_create_events,
    player_register,
    round_add,
)
from tournament.users import signed_in


def stage_get_or_404(event: Event, number: int) -> Stage:
    try:
        return stage_get(event, number)
    except Refusal:
        raise NotFound(f"this event has no stage {number}") from None


def organised_event(request: Request, slug: str, doing: str) -> Event:
    """The event named by the URL, for one of its organisers (403 for anyone else, 404 if hidden)."""
    event = get_object_or_404(visible_events(request.user), slug=slug)
    if not event.is_organiser(request.user):
        raise PermissionDenied(f"only the event's organisers {doing}")
    return event


class MayCreateEvents(permissions.BasePermission):
    """settings.EVENT_CREATORS: with "organisers", only the users allowed to add events create one."""

    message = CREATORS_ONLY

    def has_permission(self, request: Request, view: APIView) -> bool:
        return getattr(view, "action", None) != "create" or may_create_events(request.user)


class IsOrganiserOrReadOnly(permissions.BasePermission):
    def has_object_permission(self, request: Request, view: APIView, obj: Event) -> bool:
        return request.method in permissions.SAFE_METHODS or obj.is_organiser(request.user)


@extend_schema_view(
    create=extend_schema(
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: EventSerializer,
            400: INVALID,
            401: NOT_AUTHENTICATED,
            403: error_response("only organisers create events here (EVENT_CREATORS=organisers)"),
            422: KEY_REUSED,
        },
    ),
    retrieve=extend_schema(responses={200: EventSerializer, 404: NOT_FOUND}),
    partial_update=extend_schema(
        responses={
            200: EventSerializer,
            400: INVALID,
            401: NOT_AUTHENTICATED,
            403: error_response("only the event's organisers change it"),
            404: NOT_FOUND,
            409: error_response("the rules are fixed once a round is seated or a game opened"),
        }
    ),
    destroy=extend_schema(
        responses={
            204: None,
            401: NOT_AUTHENTICATED,
            403: error_response("only the event's organisers delete it"),
            404: NOT_FOUND,
        }
    ),
)
class EventViewSet(viewsets.ModelViewSet[Event]):
    """Events; the creator becomes an organiser. Organisers change their events."""

    serializer_class = EventSerializer
    lookup_field = "slug"
    permission_classes = (permissions.IsAuthenticatedOrReadOnly, MayCreateEvents, IsOrganiserOrReadOnly)
    http_method_names = ("get", "post", "patch", "delete", "head", "options")

    def get_queryset(self) -> QuerySet[Event]:
        return visible_events(self.request.user).order_by("-starts_on", "name", "pk")

    def get_object(self) -> Event:
        # The router's path takes any text but a slash: a NUL would reach the query, which PostgreSQL refuses.
        if not is_slug(str(self.kwargs.get(self.lookup_field, ""))):
            raise NotFound
        return super().get_object()

    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().create(request, *args, **kwargs)

    def perform_create(self, serializer: BaseSerializer[Event]) -> None:
        serializer.instance = event_create(organiser=signed_in(self.request.user), **serializer.validated_data)

    def perform_update(self, serializer: BaseSerializer[Event]) -> None:
        assert serializer.instance is not None  # an update has the event it changes
        serializer.instance = event_update(event=serializer.instance, **serializer.validated_data)


def created(
    request: Request,
    slug: str,
    doing: str,
    given: type[Serializer[Any]],
    write: Callable[..., Any],
    shown: type[Serializer[Any]],
) -> Response:
    """An organiser's addition to the event: the body checked by ``given``, written, answered by ``shown``."""
    event = organised_event(request, slug, doing)
    serializer = given(data=request.data)
    serializer.is_valid(raise_exception=True)
    return Response(shown(write(event=event, **serializer.validated_data)).data, status=status.HTTP_201_CREATED)


@extend_schema_view(get=extend_schema(responses={200: RegisteredPlayerSerializer(many=True), 404: NOT_FOUND}))
class EventPlayersView(ListAPIView[Registration]):
    """The players registered in an event; organisers register new players."""

    serializer_class = RegisteredPlayerSerializer

    def get_queryset(self) -> QuerySet[Registration]:
        event = get_object_or_404(visible_events(self.request.user), slug=self.kwargs["slug"])
        return event.registrations.select_related("player").order_by("player__name", "player_id")

    @extend_schema(
        request=PlayerSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: RegisteredPlayerSerializer,
            400: INVALID,
            401: NOT_AUTHENTICATED,
            403: error_response("only the event's organisers register players"),
            404: NOT_FOUND,
            422: KEY_REUSED,
        },
    )
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        return created(request, slug, "register players", PlayerSerializer, player_register, RegisteredPlayerSerializer)


@extend_schema_view(get=extend_schema(responses={200: RoundSerializer(many=True), 404: NOT_FOUND}))
class EventRoundsView(ListAPIView[Round]):
    """The event's rounds; organisers add the next one."""

    serializer_class = RoundSerializer

    def get_queryset(self) -> QuerySet[Round]:
        event = get_object_or_404(visible_events(self.request.user), slug=self.kwargs["slug"])
        return event.rounds.order_by("number")

    @extend_schema(
        request=RoundSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: RoundSerializer,
            400: INVALID,
            401: NOT_AUTHENTICATED,
            403: error_response("only the event's organisers add rounds"),
            404: NOT_FOUND,
            422: KEY_REUSED,
        },
    )
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        return created(request, slug, "add rounds", RoundSerializer, round_add, RoundSerializer)


STAGE = OpenApiParameter(
    "stage",
    int,
    required=False,
    description="a stage's number: its standings, the carried "
    "points beside the total; without it, the event's final ranking",
)


@extend_schema_view(
    get=extend_schema(
        parameters=[STAGE], responses={200: StandingsPageSerializer, 304: None, 400: INVALID, 404: NOT_FOUND}
    )
)
class StandingsView(ListAPIView[Standing]):
    """The stored standings with each line's movement and points per round, and the team standings; a page
    answered from a cache per version of them; unchanged, a 304 (ETag)."""

    permission_classes = (permissions.AllowAny,)
    serializer_class = StandingSerializer
    pagination_class = StandingsPages

    def get_queryset(self) -> QuerySet[Any]:
        event = self.event()
        number = self.stage_asked()
        if number is None:
            return Standing.objects.filter(event=event).select_related("player")
        stage_get_or_404(event, number)
        if StageStanding.objects.filter(event=event).exists():
            return StageStanding.objects.filter(event=event, stage=number).select_related("player")
        # Until a later stage is entered, the event's standings are its first stage's.
        rows = Standing.objects.filter(event=event) if number == 1 else StageStanding.objects.none()
        return rows.select_related("player")

    def stage_asked(self) -> int | None:
        asked = self.request.query_params.get("stage")
        if asked is None:
            return None
        if not (asked.isascii() and asked.isdigit() and len(asked) <= 4):
            raise ValidationError({"stage": ["must be the number of one of the event's stages"]})
        return int(asked)

    def event(self) -> Event:
        # Read once per request, with the standings' state: the version, the rows and the context all need it.
        found: Event | None = getattr(self, "_event", None)
        if found is None:
            events = visible_events(self.request.user).select_related("standings_state")
            found = self._event = get_object_or_404(events, slug=self.kwargs["slug"])
        return found

    def get_serializer_context(self) -> dict[str, Any]:
        event = self.event()
        return {
            **super().get_serializer_context(),
            "progress": standings_progress_cached(event),
            "teams": player_teams(event),
        }

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        event = self.event()
        version, state = standings_version(event)
        # The page as asked (any text a client sends), hashed into the key and the ETag; the team settings too,
        # since the team table is read from the same rows under them.
        teams_setting = f"{event.team_ranking}.{event.team_best}"
        key = (
            "standings-api:"
            + hashlib.sha256(
                f"{version}:{teams_setting}:{self.stage_asked()}:{_page_number(request)}".encode()
            ).hexdigest()[:32]
        )
        etag = f'"{key.rsplit(":", 1)[1]}"'
        if etag in request.headers.get("If-None-Match", ""):
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            data = cache.get(key)
            if data is None:
                data = {
                    "updating": state.updating,
                    "computed_at": state.computed_at,
                    **super().list(request, *args, **kwargs).data,
                }
                if event.team_ranking != Event.TeamRanking.NONE:
                    data["teams"] = TeamStandingSerializer(team_standings(event, self.stage_asked()), many=True).data
                cache.set(key, data, STANDINGS_CACHE_SECONDS)
            response = Response(data)
        response["ETag"] = etag
        response["Cache-Control"] = ("public" if event.public else "private") + ", no-cache"
        return response


STANDINGS_CACHE_SECONDS = 300  # a version's page never changes; this only bounds what an idle event keeps


def _page_number(request: Request) -> str:
    """The page asked for, one spelling per page (01 is 1): the only parameter the standings read, and the
    cache's key. Anything else is passed on as it is: the paginator refuses it before anything is cached."""
    asked = request.query_params.get(StandingsPages.page_query_param, "1")
    # A page number longer than 18 digits is no page (and int() refuses past 4,300 digits).
    return str(int(asked)) if asked.isascii() and asked.isdigit() and len(asked) <= 18 else asked


class RulesetViewSet(viewsets.GenericViewSet[Any]):
    """The ruleset presets with every parameter and the docstring naming the source."""

    permission_classes = (permissions.AllowAny,)
    serializer_class = RulesetSerializer
    lookup_field = "key"

    @extend_schema(responses=RulesetSerializer(many=True))
    def list(self, request: Request) -> Response:
        page = self.paginate_queryset([self._preset(key) for key in preset_keys()])
        return self.get_paginated_response(RulesetSerializer(page, many=True).data)

    @extend_schema(
        parameters=[OpenApiParameter("key", str, OpenApiParameter.PATH, description="a preset key")],
        responses={200: RulesetSerializer, 404: error_response("no preset with this key")},
    )
    def retrieve(self, request: Request, key: str) -> Response:
        try:
            return Response(RulesetSerializer(self._preset(key)).data)
        except Refusal as exc:
            raise NotFound(str(exc)) from None

    @staticmethod
    def _preset(key: str) -> dict[str, Any]:
        return {"key": key, "parameters": get_preset(key).as_dict(), "description": preset_doc(key)}
