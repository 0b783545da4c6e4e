"""An event's stages and the cut into one, as the API reads and writes them."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.fields import printable_text
from scoring.services.stages import CutPreview
from tournament.models import Stage

ENTRY_HELP = (
    '"all" (everyone of the stage before), or {"top": N, "also": [player ids]}: the top N by the stage '
    "before's standings and the event's tiebreaks, plus named players (wildcards)"
)
CARRY_HELP = (
    'the share of the stage before\'s points brought in: "all", "half", "none", or a fraction from 0 to 1 (0.25, "1/3")'
)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "enum": ["all"]},
            {
                "type": "object",
                "properties": {
                    "top": {"type": "integer", "minimum": 1},
                    "also": {"type": "array", "items": {"type": "integer"}},
                },
            },
        ]
    }
)
class EntryField(serializers.Field):  # type: ignore[type-arg]
    default_error_messages = {"form": 'must be "all" or {{"top": N, "also": [player ids]}}'}  # noqa: RUF012

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if data == "all":
            return {"entry_top": None, "entry_also": []}
        if not isinstance(data, dict) or set(data) - {"top", "also"}:
            self.fail("form")
        top, also = data.get("top"), data.get("also", [])
        if top is not None and (isinstance(top, bool) or not isinstance(top, int) or top < 1):
            raise serializers.ValidationError({"top": "must be a whole number of at least 1"})
        if not isinstance(also, list) or not all(isinstance(p, int) and not isinstance(p, bool) for p in also):
            raise serializers.ValidationError({"also": "must be a list of player ids"})
        return {"entry_top": top, "entry_also": also}

    def to_representation(self, stage: Stage) -> Any:
        if stage.entry_top is None and not stage.entry_also:
            return "all"
        return {"top": stage.entry_top, "also": list(stage.entry_also)}


@extend_schema_field(
    {
        "anyOf": [
            {"type": "string", "enum": ["all", "half", "none"]},
            {"type": "number"},
            {"type": "string", "example": "1/3"},
        ]
    }
)
class CarryField(serializers.Field):  # type: ignore[type-arg]
    def to_internal_value(self, data: Any) -> str:
        if isinstance(data, bool) or not isinstance(data, str | int | float):
            raise serializers.ValidationError(CARRY_HELP)
        return data if isinstance(data, str) else str(data)

    def to_representation(self, value: str) -> Any:
        return value


class StageSerializer(serializers.ModelSerializer[Stage]):
    entry = EntryField(source="*", required=False, help_text=ENTRY_HELP)
    carry = CarryField(required=False, help_text=CARRY_HELP)
    name = printable_text(max_length=60)
    cut_confirmed = serializers.SerializerMethodField(
        help_text="the cut into the stage is confirmed: its players are known (always true of the first stage)"
    )
    through = serializers.ListField(
        child=serializers.IntegerField(),
        read_only=True,
        allow_null=True,
        help_text="who entered, in rank order then the wildcards; null until the cut "
        "is confirmed (and for the first stage, which takes everyone)",
    )

    class Meta:
        model = Stage
        fields = (
            "number",
            "name",
            "entry",
            "carry",
            "carry_table_points",
            "seating",
            "winds",
            "rounds_planned",
            "cut_confirmed",
            "through",
            "cut_at",
        )
        read_only_fields = ("number", "cut_confirmed", "through", "cut_at")

    def get_cut_confirmed(self, stage: Stage) -> bool:
        return stage.entered


class CutDecisionSerializer(serializers.Serializer[Any]):
    through = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        allow_null=True,
        default=None,
        help_text="who goes on, when players are tied at the line: "
        "everyone above it and as many of the tied as there are places, or only "
        "those chosen among the tied",
    )


class CutPlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.IntegerField(
        allow_null=True, help_text="the rank in the stage before; null for a wildcard who did not play it"
    )
    carried = serializers.FloatField(help_text="points brought into the stage")
    carried_table_points = serializers.FloatField(allow_null=True, help_text="MCR table points brought in")
    wildcard = serializers.BooleanField()


class CutSerializer(serializers.Serializer[Any]):
    stage = serializers.IntegerField(help_text="the stage entered")
    through = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="player ids going on, in rank order "
        "then the wildcards; while a tie at the line is undecided, only those sure to",
    )
    tied_at_line = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="players equal on every tiebreak at the line, more of them than the places left",
    )
    places = serializers.IntegerField(help_text="places left for the players tied at the line")
    decided = serializers.BooleanField(help_text="nothing is left for the organiser to decide")
    confirmed = serializers.BooleanField(help_text="the cut is confirmed")
    unfinished_games = serializers.IntegerField(
        help_text="games of the stage before not finished: the cut waits for them"
    )
    players = CutPlayerSerializer(many=True, help_text="who goes on and who is tied, with what they carry")


def cut_body(preview: CutPreview, names: dict[int, str]) -> dict[str, Any]:
    """The cut preview as the API answers it."""
    cut = preview.cut
    listed = list(cut.through) + [p for p in cut.tied_at_line if p not in set(cut.through)]
    table = preview.carried_table_points

    def number(value: Decimal | Fraction | None) -> float | None:
        return None if value is None else float(value)

    return {
        "stage": preview.stage.number,
        "through": list(cut.through),
        "tied_at_line": list(cut.tied_at_line),
        "places": cut.places,
        "decided": cut.decided,
        "confirmed": preview.stage.through is not None,
        "unfinished_games": preview.unfinished,
        "players": [
            {
                "id": p,
                "name": names.get(p, ""),
                "rank": preview.ranks.get(p),
                "carried": number(preview.carried.get(p, Decimal(0))),
                "carried_table_points": number(table.get(p, Decimal(0))) if table is not None else None,
                "wildcard": p in cut.wildcards,
            }
            for p in listed
        ],
    }
