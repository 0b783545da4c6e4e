"""Events, their players, rounds and standings, and the ruleset presets."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

from api.serializers.fields import printable, printable_text
from rules.errors import RuleError
from rules.presets import build_ruleset, get_preset
from scoring.messages import message
from scoring.models import Standing
from tournament.models import Event, Player, Round, Team, tiebreak_problems


def rule_problems(exc: RuleError, prefix: str) -> dict[str, list[str]]:
    """The engine's problems as DRF's field errors, each in the request's language with its code."""
    out: dict[str, list[str]] = {}
    for problem in exc.problems:
        field = f"{prefix}.{problem.field}" if problem.field and problem.field != prefix else prefix
        out.setdefault(field, []).append(ErrorDetail(message(problem), code=problem.code or None))
    return out


class DatesInOrder:
    """The ``event_dates_in_order`` constraint, checked before the database refuses it (a 500 there)."""

    requires_context = True

    def __call__(self, attrs: dict[str, Any], serializer: serializers.Serializer[Any]) -> None:
        starts = attrs.get("starts_on", getattr(serializer.instance, "starts_on", None))
        ends = attrs.get("ends_on", getattr(serializer.instance, "ends_on", None))
        if starts is not None and ends is not None and ends < starts:
            raise serializers.ValidationError({"ends_on": ["must not be before starts_on"]})


class EventSerializer(serializers.ModelSerializer[Event]):
    ruleset = serializers.CharField(source="ruleset_key", default="wrc-2025",
                                    help_text="a preset key (GET /api/v1/rulesets/)")
    overrides = serializers.JSONField(source="ruleset_overrides", required=False, default=dict,
                                      help_text="ruleset parameters replacing the preset's values")
    ruleset_parameters = serializers.SerializerMethodField(help_text="every parameter in force")

    class Meta:
        model = Event
        fields = ("id", "name", "slug", "kind", "status", "starts_on", "ends_on", "ruleset", "overrides", "public",
                  "min_games", "best_games", "ranking", "substitute_points", "allow_byes", "swiss_spread", "tiebreaks",
                  "ruleset_parameters")
        read_only_fields = ("slug",)
        validators: ClassVar[list[Any]] = [DatesInOrder()]

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
            raise serializers.ValidationError(rule_problems(exc, "ruleset")) from None
        if not isinstance(overrides, dict):
            raise serializers.ValidationError({"overrides": ["must be an object of ruleset parameters"]})
        try:
            build_ruleset(key=key, overrides=overrides)
        except RuleError as exc:
            raise serializers.ValidationError(rule_problems(exc, "overrides")) from None
        return attrs


class PlayerRefSerializer(serializers.Serializer[Any]):
    """A player, by id and name."""

    id = serializers.IntegerField()
    name = serializers.CharField()


class PlayerSerializer(serializers.ModelSerializer[Player]):
    """A player registered in the event."""

    # Names are shown on pages, in CSV lines and on the terminal: printable, and as long as their columns.
    team = printable_text(required=False, allow_blank=True, write_only=True,
                          max_length=Team._meta.get_field("name").max_length)
    substitute = serializers.BooleanField(required=False, default=False)

    class Meta:
        model = Player
        fields = ("id", "name", "federation_id", "country", "club", "team", "substitute")
        extra_kwargs: ClassVar[dict[str, Any]] = {name: {"validators": [printable()]}
                                                  for name in ("name", "federation_id", "country", "club")}


class RegisteredPlayerSerializer(serializers.Serializer[Any]):
    """A registration rendered as the player it registers (the players list)."""

    id = serializers.IntegerField(source="player.id")
    name = serializers.CharField(source="player.name")
    federation_id = serializers.CharField(source="player.federation_id")
    country = serializers.CharField(source="player.country")
    club = serializers.CharField(source="player.club")
    substitute = serializers.BooleanField()


ROUND_MINUTES_LIMIT = 24 * 60  # a round's time limit: a day
ROUND_YEARS = (1900, 2999)  # when a round may start


class RoundSerializer(serializers.ModelSerializer[Round]):
    ends_at = serializers.SerializerMethodField(help_text="when the clock stops the round's games "
                                                "(start + time limit)")

    class Meta:
        model = Round
        fields = ("id", "number", "starts_at", "time_limit_minutes", "ends_at")
        read_only_fields = ("number",)
        # A round's clock is hours long; a limit of years would put ends_at past the calendar (and the page).
        extra_kwargs: ClassVar[dict[str, Any]] = {"time_limit_minutes": {"max_value": ROUND_MINUTES_LIMIT}}

    def validate_starts_at(self, value: datetime | None) -> datetime | None:
        if value is not None and not ROUND_YEARS[0] <= value.year <= ROUND_YEARS[1]:
            raise serializers.ValidationError(f"must be in the years {ROUND_YEARS[0]} to {ROUND_YEARS[1]}")
        return value

    def get_ends_at(self, round_: Round) -> datetime | None:
        return round_.ends_at()


class RulesetSerializer(serializers.Serializer[Any]):
    """A ruleset preset."""

    key = serializers.CharField(help_text="the preset's key, as events and score sheets name it")
    parameters = serializers.DictField(help_text="every parameter of the preset (RULES.md)")
    description = serializers.CharField(allow_blank=True, help_text="what the preset is and the source it follows")


class StandingSerializer(serializers.ModelSerializer[Standing]):
    """A player's line in the event's ranking (points as numbers)."""

    player = PlayerRefSerializer(read_only=True)
    points = serializers.FloatField(read_only=True)
    table_points = serializers.FloatField(read_only=True, allow_null=True, help_text="MCR table points; null "
                                          "otherwise")
    average_rank = serializers.FloatField(read_only=True, allow_null=True)
    penalties = serializers.FloatField(read_only=True)

    class Meta:
        model = Standing
        fields = ("rank", "player", "points", "table_points", "score", "games", "average_rank", "penalties")
        read_only_fields = fields
