"""REST API for events, their players and rounds, and the ruleset presets (thin: services do the work)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status, viewsets
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


def rule_problems(exc: RuleError, prefix: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for problem in exc.problems:
        field = f"{prefix}.{problem.field}" if problem.field and problem.field != prefix else prefix
        out.setdefault(field, []).append(problem.message)
    return out


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

    @extend_schema(responses=PlayerSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        event = self.event(request, slug)
        regs = event.registrations.select_related("player").order_by("player__name")
        return Response([{**PlayerSerializer(r.player).data, "substitute": r.substitute} for r in regs])

    @extend_schema(request=PlayerSerializer, responses={201: PlayerSerializer})
    def post(self, request: Request, slug: str) -> Response:
        event = self.event(request, slug)
        if not event.is_organiser(request.user):
            return Response({"detail": "only the event's organisers register players"},
                            status=status.HTTP_403_FORBIDDEN)
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

    @extend_schema(responses=RoundSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(visible_events(request.user), slug=slug)
        return Response(RoundSerializer(event.rounds.all(), many=True).data)

    @extend_schema(request=RoundSerializer, responses={201: RoundSerializer})
    def post(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(visible_events(request.user), slug=slug)
        if not event.is_organiser(request.user):
            return Response({"detail": "only the event's organisers add rounds"}, status=status.HTTP_403_FORBIDDEN)
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

    @extend_schema(responses={200: dict})
    def list(self, request: Request) -> Response:
        return Response([self._preset(key) for key in preset_keys()])

    @extend_schema(responses={200: dict})
    def retrieve(self, request: Request, key: str) -> Response:
        try:
            return Response(self._preset(key))
        except RuleError as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_404_NOT_FOUND)

    @staticmethod
    def _preset(key: str) -> dict[str, Any]:
        return {"key": key, "parameters": get_preset(key).as_dict(), "description": preset_doc(key)}
