"""Events, their players, rounds and standings, and the ruleset presets."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

from api.serializers.fields import printable_text
from rules.errors import Refusal
from rules.presets import build_ruleset, get_preset
from scoring.messages import message
from scoring.models import Standing
from scoring.services.standings import Progress
from scoring.services.teams import TeamMember
from tournament.models import Event, Player, Round, Team, tiebreak_problems


def rule_problems(exc: Refusal, prefix: str) -> dict[str, list[str]]:
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
    ruleset = serializers.CharField(
        source="ruleset_key", default="wrc-2025", help_text="a preset key (GET /api/v1/rulesets/)"
    )
    overrides = serializers.JSONField(
        source="ruleset_overrides",
        required=False,
        default=dict,
        help_text="ruleset parameters replacing the preset's values",
    )
    ruleset_parameters = serializers.SerializerMethodField(help_text="every parameter in force")

    class Meta:
        model = Event
        fields = (
            "id",
            "name",
            "slug",
            "kind",
            "status",
            "starts_on",
            "ends_on",
            "ruleset",
            "overrides",
            "public",
            "min_games",
            "best_games",
            "ranking",
            "substitute_points",
            "allow_byes",
            "swiss_spread",
            "tiebreaks",
            "entrants",
            "team_ranking",
            "team_best",
            "mers",
            "mers_weight",
            "rating",
            "ruleset_parameters",
        )
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
        except Refusal as exc:
            raise serializers.ValidationError(rule_problems(exc, "ruleset")) from None
        if not isinstance(overrides, dict):
            raise serializers.ValidationError({"overrides": ["must be an object of ruleset parameters"]})
        try:
            build_ruleset(key=key, overrides=overrides)
        except Refusal as exc:
            raise serializers.ValidationError(rule_problems(exc, "overrides")) from None
        rating = attrs.get("rating", getattr(self.instance, "rating", ""))
        if problems := Event(slug=getattr(self.instance, "slug", "")).rating_problems(
            rating, build_ruleset(key=key, overrides=overrides)
        ):
            raise serializers.ValidationError({"rating": problems})
        team_ranking = attrs.get("team_ranking", getattr(self.instance, "team_ranking", Event.TeamRanking.NONE))
        if attrs.get("entrants") == Event.Entrants.TEAMS and team_ranking == Event.TeamRanking.NONE:
            attrs["team_ranking"] = team_ranking = Event.TeamRanking.SUM  # a team league ranks its teams
        if team_ranking == Event.TeamRanking.BEST and not attrs.get(
            "team_best", getattr(self.instance, "team_best", None)
        ):
            raise serializers.ValidationError(
                {"team_best": ["the best-members team ranking needs N, how many members count"]}
            )
        return attrs


class PlayerRefSerializer(serializers.Serializer[Any]):
    """A player, by id and name."""

    id = serializers.IntegerField()
    name = serializers.CharField()


class PlayerSerializer(serializers.ModelSerializer[Player]):
    """A player registered in the event."""

    # Names are shown on pages, in CSV lines and on the terminal: printable, and as long as their columns.
    team = printable_text(
        required=False, allow_blank=True, write_only=True, max_length=Team._meta.get_field("name").max_length
    )
    substitute = serializers.BooleanField(required=False, default=False)

    class Meta:
        model = Player
        # The model's validators check its fields (tournament.models.printable), as on every other path.
        fields = ("id", "name", "federation_id", "country", "club", "team", "substitute")


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
    ends_at = serializers.SerializerMethodField(help_text="when the clock stops the round's games (start + time limit)")

    class Meta:
        model = Round
        fields = ("id", "number", "stage", "starts_at", "time_limit_minutes", "ends_at")
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
    parameters = serializers.DictField(help_text="every parameter of the preset (docs/rules.md)")
    description = serializers.CharField(allow_blank=True, help_text="what the preset is and the source it follows")


class RoundPointsSerializer(serializers.Serializer[Any]):
    """What one round's games gave a player."""

    round = serializers.IntegerField(help_text="the round's number")
    points = serializers.FloatField()
    table_points = serializers.FloatField(allow_null=True, help_text="MCR table points; null otherwise")


class StandingSerializer(serializers.ModelSerializer[Standing]):
    """A player's line in the event's ranking (points as numbers), with the movement since the previous round
    and the points of each round (``context``: ``progress`` and ``teams``, as StandingsView gives them)."""

    player = PlayerRefSerializer(read_only=True)
    points = serializers.FloatField(read_only=True)
    table_points = serializers.FloatField(read_only=True, allow_null=True, help_text="MCR table points; null otherwise")
    average_rank = serializers.FloatField(read_only=True, allow_null=True)
    penalties = serializers.FloatField(read_only=True)
    carried = serializers.FloatField(
        read_only=True,
        help_text="points brought in from the stage before; ``points`` is the total, carried and the stage's own",
    )
    carried_table_points = serializers.FloatField(
        read_only=True, allow_null=True, help_text="MCR table points brought in; null otherwise"
    )
    stage = serializers.IntegerField(
        read_only=True,
        help_text="the stage of the line: in the event's final ranking, the last stage the player reached",
    )
    federation_id = serializers.CharField(
        source="player.federation_id", read_only=True, help_text="e.g. an EMA number; empty if none"
    )
    country = serializers.CharField(source="player.country", read_only=True)
    team = serializers.SerializerMethodField(help_text="the player's team in the event; null if none")
    movement = serializers.SerializerMethodField(
        help_text="places gained since the previous round (negative: "
        "lost); null when unranked now or then, or before a second round"
    )
    new = serializers.SerializerMethodField(help_text="ranked now and not after the previous round")
    rounds = serializers.SerializerMethodField(help_text="the points each round's games gave the player")
    draws = serializers.IntegerField(
        read_only=True,
        allow_null=True,
        help_text="the solo race to tenpai: the "
        "draws that rank the player (their best attempt's, or the sum over the event's "
        "fixed attempts); null in other events and before a first attempt",
    )
    value = serializers.SerializerMethodField(
        method_name="solo_value",
        help_text="the solo race to tenpai: the value (in points of the score table) of the "
        "attempts that rank the player, second to the draws; null in other events",
    )

    class Meta:
        model = Standing
        fields = (
            "rank",
            "player",
            "points",
            "carried",
            "table_points",
            "carried_table_points",
            "stage",
            "score",
            "games",
            "average_rank",
            "penalties",
            "federation_id",
            "country",
            "team",
            "movement",
            "new",
            "rounds",
            "draws",
            "value",
        )
        read_only_fields = fields

    def solo_value(self, standing: Standing) -> int | None:
        return standing.score if standing.draws is not None else None

    def get_team(self, standing: Standing) -> str | None:
        teams: dict[int, str] = self.context.get("teams", {})
        return teams.get(standing.player_id)

    def get_movement(self, standing: Standing) -> int | None:
        progress: Progress | None = self.context.get("progress")
        return progress.movement(standing.player_id, standing.rank) if progress else None

    def get_new(self, standing: Standing) -> bool:
        progress: Progress | None = self.context.get("progress")
        return progress.is_new(standing.player_id, standing.rank) if progress else False

    @extend_schema_field(RoundPointsSerializer(many=True))
    def get_rounds(self, standing: Standing) -> list[dict[str, Any]]:
        progress: Progress | None = self.context.get("progress")
        rounds = progress.rounds.get(standing.player_id, []) if progress else []
        return RoundPointsSerializer(rounds, many=True).data  # type: ignore[return-value]


class TeamMemberSerializer(serializers.Serializer[Any]):
    """A team member's points and whether they count for the team."""

    player = serializers.SerializerMethodField()
    points = serializers.FloatField()
    table_points = serializers.FloatField(allow_null=True, help_text="MCR table points; null otherwise")
    counted = serializers.BooleanField(help_text="among the members whose points make the team's total")

    @extend_schema_field(PlayerRefSerializer)
    def get_player(self, member: TeamMember) -> dict[str, Any]:
        return {"id": member.player_id, "name": member.name}


class TeamStandingSerializer(serializers.Serializer[Any]):
    """A team's line: the sum of its members' points, or of its best N members', as the event chooses."""

    rank = serializers.IntegerField(help_text="shared on exact ties")
    id = serializers.IntegerField(source="team_id")
    team = serializers.CharField(source="name")
    points = serializers.FloatField(help_text="the total: carried in and the stage's own")
    carried = serializers.FloatField(help_text="points brought in from the stage before (a team league's later stages)")
    stage = serializers.IntegerField(help_text="the stage of the line; in the final ranking, the last reached")
    table_points = serializers.FloatField(allow_null=True, help_text="MCR table points; null otherwise")
    members = TeamMemberSerializer(many=True, help_text="substitutes are not members for the team ranking")


@extend_schema_serializer(many=False)  # the whole body, already paginated: not a list of it
class StandingsPageSerializer(serializers.Serializer[Any]):
    """A page of the players' standings, whether they are being updated, and the team standings."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    updating = serializers.BooleanField(
        help_text="a change to a finished game is not counted yet; the standings are being recomputed"
    )
    computed_at = serializers.DateTimeField(allow_null=True, help_text="when the standings were last computed")
    results = StandingSerializer(many=True)
    teams = TeamStandingSerializer(
        many=True,
        required=False,
        help_text="the event's team standings, best first (on every page); only when the event ranks teams",
    )


class PlayerCodeSerializer(serializers.Serializer[Any]):
    """A player's confirmation code, as reissued: the old one no longer works."""

    player = serializers.IntegerField()
    code = serializers.CharField(help_text="the new code, to hand to the player alone")
    code_version = serializers.IntegerField(help_text="counts the reissues")
    reissued_at = serializers.DateTimeField()
    reissued_by = serializers.CharField(allow_null=True, help_text="the organiser who reissued it")
