"""REST API for events, their players and rounds, and the ruleset presets (thin: services do the work)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from django.db import transaction
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import Direction, OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from rules.errors import RuleError
from rules.presets import build_ruleset, get_preset, preset_doc, preset_keys
from tournament.models import Event, Player, Registration, Round, tiebreak_problems


def visible_events(user: Any) -> QuerySet[Event]:
    """Public events for everyone; private ones for their organisers, referees and staff."""
    events = Event.objects.all()
    if user.is_authenticated and user.is_staff:
        return events
    if user.is_authenticated:
        return events.filter(Q(public=True) | Q(organisers=user) | Q(referees=user)).distinct()
    return events.filter(public=True)


def organised_event(request: Request, slug: str, doing: str) -> Event:
    """The event named by the URL, for one of its organisers (403 for anyone else, 404 if hidden)."""
    event = get_object_or_404(visible_events(request.user), slug=slug)
    if not event.is_organiser(request.user):
        raise PermissionDenied(f"only the event's organisers {doing}")
    return event


def rule_problems(exc: RuleError, prefix: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for problem in exc.problems:
        field = f"{prefix}.{problem.field}" if problem.field and problem.field != prefix else prefix
        out.setdefault(field, []).append(problem.message)
    return out


# --- the shapes the API answers with, for the OpenAPI schema ---------------------


class OpenObjectSerializer(serializers.Serializer[Any]):
    """A JSON object with the declared fields and possibly others: the schema says so (``additionalProperties``)."""

    additional_properties: ClassVar[dict[str, Any]] = {}


# drf-spectacular registers an extension when it is subclassed (an untyped __init_subclass__), and documents
# _map_serializer(..., bypass_extensions=True) as the way for an extension to start from the usual schema.
class OpenObjectExtension(OpenApiSerializerExtension):  # type: ignore[no-untyped-call]
    """Maps an OpenObjectSerializer as usual and adds its ``additionalProperties``."""

    target_class = OpenObjectSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_serializer(  # type: ignore[no-untyped-call]
            self.target, direction, bypass_extensions=True)
        schema["additionalProperties"] = self.target.additional_properties
        return schema


class DetailSerializer(serializers.Serializer[Any]):
    """Why the request was refused (DRF's error body, and this API's own refusals)."""

    detail = serializers.CharField()


class FieldErrorsSerializer(OpenObjectSerializer):
    """Refused input, DRF style: each field name (or ``non_field_errors``) with its messages (an object for a
    list's or nested object's items)."""

    additional_properties: ClassVar[dict[str, Any]] = {"oneOf": [
        {"type": "array", "items": {"type": "string"}},
        {"type": "object", "additionalProperties": {}},
    ]}


class PlayerRefSerializer(serializers.Serializer[Any]):
    """A player, by id and name."""

    id = serializers.IntegerField()
    name = serializers.CharField()


class RulesetSerializer(serializers.Serializer[Any]):
    """A ruleset preset."""

    key = serializers.CharField(help_text="the preset's key, as events and score sheets name it")
    parameters = serializers.DictField(help_text="every parameter of the preset (RULES.md)")
    description = serializers.CharField(allow_blank=True, help_text="what the preset is and the source it follows")


def detail_response(description: str) -> OpenApiResponse:
    return OpenApiResponse(DetailSerializer, description=description)


INVALID_FIELDS = OpenApiResponse(FieldErrorsSerializer, description="refused input; nothing was saved")
NOT_AUTHENTICATED = detail_response("no credentials: send a token (or sign in)")
NOT_FOUND = detail_response("no such object, or not one you may see")


# --- events, players, rounds, rulesets --------------------------------------


class EventSerializer(serializers.ModelSerializer[Event]):
    ruleset = serializers.CharField(source="ruleset_key", default="wrc-2025",
                                    help_text="a preset key (GET /api/v1/rulesets/)")
    overrides = serializers.JSONField(source="ruleset_overrides", required=False, default=dict,
                                      help_text="ruleset parameters replacing the preset's values")
    ruleset_parameters = serializers.SerializerMethodField(help_text="every parameter in force")

    class Meta:
        model = Event
        fields = ("id", "name", "slug", "kind", "status", "starts_on", "ends_on", "ruleset", "overrides", "public",
                  "min_games", "best_games", "ranking", "substitute_points", "allow_byes", "tiebreaks",
                  "ruleset_parameters")
        read_only_fields = ("slug",)

    def get_ruleset_parameters(self, event: Event) -> dict[str, Any]:
        return event.ruleset().as_dict()

    def validate_tiebreaks(self, value: Any) -> Any:
        if problems := tiebreak_problems(value):
            raise serializers.ValidationError(problems)
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        key = attrs.get("ruleset_key", getattr(self.instance, "ruleset_key", "wrc-2025"))
        overrides = attrs.get("ruleset_overrides", getattr(self.instance, "ruleset_overrides", {}))
        try:
            get_preset(key)
        except RuleError as exc:
            raise serializers.ValidationError({"ruleset": [p.message for p in exc.problems]}) from None
        if not isinstance(overrides, dict):
            raise serializers.ValidationError({"overrides": ["must be an object of ruleset parameters"]})
        try:
            build_ruleset(key=key, overrides=overrides)
        except RuleError as exc:
            raise serializers.ValidationError(rule_problems(exc, "overrides")) from None
        return attrs

    def create(self, validated_data: dict[str, Any]) -> Event:
        base = slugify(validated_data["name"])[:70] or "event"
        slug, n = base, 1
        while Event.objects.filter(slug=slug).exists():
            n += 1
            slug = f"{base}-{n}"
        event = Event.objects.create(slug=slug, **validated_data)
        event.organisers.add(self.context["request"].user)
        return event


class IsOrganiserOrReadOnly(permissions.BasePermission):
    def has_object_permission(self, request: Request, view: Any, obj: Event) -> bool:
        return request.method in permissions.SAFE_METHODS or obj.is_organiser(request.user)


@extend_schema_view(
    create=extend_schema(responses={201: EventSerializer, 400: INVALID_FIELDS, 401: NOT_AUTHENTICATED}),
    retrieve=extend_schema(responses={200: EventSerializer, 404: NOT_FOUND}),
    partial_update=extend_schema(responses={
        200: EventSerializer, 400: INVALID_FIELDS, 401: NOT_AUTHENTICATED,
        403: detail_response("only the event's organisers change it"), 404: NOT_FOUND}),
    destroy=extend_schema(responses={
        204: None, 401: NOT_AUTHENTICATED, 403: detail_response("only the event's organisers delete it"),
        404: NOT_FOUND}),
)
class EventViewSet(viewsets.ModelViewSet[Event]):
    """Events; the creator becomes an organiser. Organisers change their events."""

    serializer_class = EventSerializer
    lookup_field = "slug"
    permission_classes = (permissions.IsAuthenticatedOrReadOnly, IsOrganiserOrReadOnly)
    http_method_names = ("get", "post", "patch", "delete", "head", "options")

    def get_queryset(self) -> QuerySet[Event]:
        return visible_events(self.request.user)


class PlayerSerializer(serializers.ModelSerializer[Player]):
    team = serializers.CharField(required=False, allow_blank=True, write_only=True)
    substitute = serializers.BooleanField(required=False, default=False)

    class Meta:
        model = Player
        fields = ("id", "name", "federation_id", "country", "club", "team", "substitute")


class EventPlayersView(APIView):
    """The players registered in an event; organisers register new or existing players."""

    permission_classes = (permissions.IsAuthenticatedOrReadOnly,)

    def event(self, request: Request, slug: str) -> Event:
        return get_object_or_404(visible_events(request.user), slug=slug)

    @extend_schema(responses={200: PlayerSerializer(many=True), 404: NOT_FOUND})
    def get(self, request: Request, slug: str) -> Response:
        event = self.event(request, slug)
        regs = event.registrations.select_related("player").order_by("player__name")
        return Response([{**PlayerSerializer(r.player).data, "substitute": r.substitute} for r in regs])

    @extend_schema(request=PlayerSerializer, responses={
        201: PlayerSerializer, 400: INVALID_FIELDS, 401: NOT_AUTHENTICATED,
        403: detail_response("only the event's organisers register players"), 404: NOT_FOUND})
    def post(self, request: Request, slug: str) -> Response:
        event = organised_event(request, slug, "register players")
        serializer = PlayerSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        team_name, substitute = data.pop("team", ""), data.pop("substitute", False)
        with transaction.atomic():
            player = Player.objects.create(**data)
            team = event.teams.get_or_create(name=team_name)[0] if team_name else None
            Registration.objects.create(event=event, player=player, team=team, substitute=substitute)
        return Response({**PlayerSerializer(player).data, "substitute": substitute}, status=status.HTTP_201_CREATED)


class RoundSerializer(serializers.ModelSerializer[Round]):
    ends_at = serializers.SerializerMethodField(help_text="when the clock stops the round's games "
                                                "(start + time limit)")

    class Meta:
        model = Round
        fields = ("id", "number", "starts_at", "time_limit_minutes", "ends_at")
        read_only_fields = ("number",)

    def get_ends_at(self, round_: Round) -> datetime | None:
        return round_.ends_at()


class EventRoundsView(APIView):
    permission_classes = (permissions.IsAuthenticatedOrReadOnly,)

    @extend_schema(responses={200: RoundSerializer(many=True), 404: NOT_FOUND})
    def get(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(visible_events(request.user), slug=slug)
        return Response(RoundSerializer(event.rounds.all(), many=True).data)

    @extend_schema(request=RoundSerializer, responses={
        201: RoundSerializer, 400: INVALID_FIELDS, 401: NOT_AUTHENTICATED,
        403: detail_response("only the event's organisers add rounds"), 404: NOT_FOUND})
    def post(self, request: Request, slug: str) -> Response:
        event = organised_event(request, slug, "add rounds")
        serializer = RoundSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        with transaction.atomic():
            last = event.rounds.select_for_update().order_by("-number").first()
            round_ = serializer.save(event=event, number=(last.number + 1) if last else 1)
        return Response(RoundSerializer(round_).data, status=status.HTTP_201_CREATED)


class RulesetViewSet(viewsets.ViewSet):
    """The ruleset presets with every parameter and the docstring naming the source."""

    permission_classes = (permissions.AllowAny,)
    lookup_field = "key"

    @extend_schema(responses=RulesetSerializer(many=True))
    def list(self, request: Request) -> Response:
        return Response([self._preset(key) for key in preset_keys()])

    @extend_schema(parameters=[OpenApiParameter("key", str, OpenApiParameter.PATH, description="a preset key")],
                   responses={200: RulesetSerializer, 404: detail_response("no preset with this key")})
    def retrieve(self, request: Request, key: str) -> Response:
        try:
            return Response(self._preset(key))
        except RuleError as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_404_NOT_FOUND)

    @staticmethod
    def _preset(key: str) -> dict[str, Any]:
        return {"key": key, "parameters": get_preset(key).as_dict(), "description": preset_doc(key)}
