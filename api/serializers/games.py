"""Games, their hands (derived from the one hand-record declaration), sheets and history."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.fields import player_id, printable_text
from rules.hands import Outcome
from rules.parameters import MAX_PLAYERS, SCORE_LIMIT
from scoring.models import HandChange
from scoring.selectors import game_result, named_result
from scoring.sheet.record import REASONS, Field, Kind, hand_fields, win_fields
from scoring.sheet.schema import (
    MAX_DEPOSITS,
    MAX_HANDS,
    MAX_HONBA,
    PENALTY_LIMIT,
    REASON_LENGTH,
)
from tournament.models import Event, Game, Seat


def _record_field(field: Field) -> serializers.Field[Any, Any, Any, Any]:
    """The API's field for one field of the hand record (scoring.sheet.record); players are ids."""
    spec, text = field.spec, field.spec.help
    kind = spec.kind
    if kind is Kind.OUTCOME:
        return serializers.ChoiceField(choices=[str(o) for o in Outcome], help_text=text)
    if kind is Kind.PLAYER:
        return player_id(required=False, help_text=f"{text} (player id)")
    if kind is Kind.PLAYERS:
        return serializers.ListField(child=player_id(), required=False, help_text=f"{text} (ids)")
    if kind in (Kind.COUNT, Kind.FU, Kind.DRAWS):
        # DRF takes None for "no bound"; its stubs ask for an int.
        return serializers.IntegerField(
            required=False,
            help_text=text,
            min_value=spec.minimum,  # type: ignore[arg-type]
            max_value=spec.maximum,  # type: ignore[arg-type]
        )
    if kind is Kind.TILES:
        return serializers.DictField(required=False, help_text=text)
    if kind is Kind.WINS:
        return serializers.ListField(child=WinRecordSerializer(), required=False, help_text=text)
    if kind is Kind.REASON:
        return serializers.ChoiceField(choices=list(REASONS), required=False, help_text=text)
    return printable_text(required=False, allow_blank=True, max_length=spec.max_length, help_text=text)


class WinRecordSerializer(serializers.Serializer[Any]):
    """One winner of a multiple ron."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = {f.name: _record_field(f) for f in win_fields()}
        fields["winner"].required = True
        return fields


class HandRecordSerializer(serializers.Serializer[Any]):
    """A score-sheet hand (docs/score-sheet.md) naming players by id: its result and the fields that result takes."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {f.name: _record_field(f) for f in hand_fields()}


class HandSerializer(HandRecordSerializer):
    """A hand as stored: its index in the game and its score-sheet record."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {"index": serializers.IntegerField(help_text="0 for the game's first hand"), **super().get_fields()}


class SeatSerializer(serializers.ModelSerializer[Seat]):
    """A player at a game's table; seat 0 is the first dealer (East)."""

    id = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    seat = serializers.IntegerField(source="position")

    class Meta:
        model = Seat
        fields = ("id", "name", "seat", "substitute")


class GameSerializer(serializers.ModelSerializer[Game]):
    """A game with its players in seat order and its replayed result."""

    event: serializers.SlugRelatedField[Event] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True, help_text="the event's slug"
    )
    table = serializers.IntegerField(
        source="table_id",
        allow_null=True,
        help_text="the seated table's id; null for a game not created by seating a round",
    )
    version = serializers.IntegerField(help_text="bumped by every change (also the ETag, sent back as If-Match)")
    end = serializers.SerializerMethodField(help_text='"time": the clock ended the game after its last hand')
    players = SeatSerializer(source="seats", many=True)
    hands_entered = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField(
        help_text="the replayed score sheet's output (docs/score-sheet.md), "
        "players by their current name: "
        "ruleset, hands, finished, next, final, ..."
    )

    class Meta:
        model = Game
        fields = ("id", "event", "table", "version", "status", "end", "played_on", "players", "hands_entered", "result")

    @extend_schema_field(serializers.ChoiceField(choices=["time"], allow_null=True))
    def get_end(self, game: Game) -> str | None:
        return "time" if game.ended_by_time else None

    def get_hands_entered(self, game: Game) -> int:
        return len(game_result(game).get("hands", ()))

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_result(self, game: Game) -> dict[str, Any]:
        return named_result(game)


class SheetPenaltySerializer(serializers.Serializer[Any]):
    player = player_id()
    points = serializers.FloatField(min_value=-PENALTY_LIMIT, max_value=PENALTY_LIMIT)
    reason = printable_text(allow_blank=True, max_length=REASON_LENGTH)


class SheetStartSerializer(serializers.Serializer[Any]):
    """Where a game was taken up (docs/score-sheet.md ``start``), within what a real game reaches."""

    round = serializers.CharField(required=False, max_length=3, help_text="round wind letter and hand number, e.g. S2")
    honba = serializers.IntegerField(required=False, min_value=0, max_value=MAX_HONBA)
    deposits = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_DEPOSITS, help_text="riichi sticks on the table"
    )
    scores = serializers.ListField(
        child=serializers.IntegerField(min_value=-SCORE_LIMIT, max_value=SCORE_LIMIT),
        required=False,
        max_length=MAX_PLAYERS,
        help_text="one per player, in seat order; default the ruleset's start_points",
    )


class SheetSerializer(serializers.Serializer[Any]):
    """The game as a score sheet (docs/score-sheet.md), players named by id."""

    ruleset = serializers.CharField(help_text="the event's ruleset preset")
    overrides = serializers.DictField(help_text="the event's ruleset overrides")
    players = serializers.ListField(child=serializers.IntegerField(), help_text="player ids in seat order")
    start = SheetStartSerializer(
        required=False, help_text="where the game was taken up; absent for a game from its start"
    )
    hands = HandRecordSerializer(many=True)
    penalties = SheetPenaltySerializer(many=True)
    end = serializers.ChoiceField(choices=("time",), required=False, help_text="present when the clock ended the game")


class SheetUpdateSerializer(serializers.Serializer[Any]):
    """A score sheet replacing every hand of the game; what it may not change must equal the game's, if sent."""

    ruleset = serializers.CharField(required=False, help_text="if sent, the event's ruleset preset")
    overrides = serializers.DictField(required=False, help_text="if sent, the event's overrides")
    players = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="if sent, the game's player ids in seat order"
    )
    start = SheetStartSerializer(required=False, help_text="where the game was taken up")
    # DRF passes max_length on to the list (maxItems in the schema); its stubs do not know it.
    hands = HandRecordSerializer(
        many=True,
        required=False,
        max_length=MAX_HANDS,  # type: ignore[call-arg]
        help_text="every hand (none if left out)",
    )
    penalties = SheetPenaltySerializer(
        many=True, required=False, help_text="if sent, the game's penalties unchanged (they are recorded on the event)"
    )
    end = serializers.ChoiceField(
        choices=("time",), required=False, allow_null=True, help_text='"time" when the clock ended the game'
    )


class HandChangeSerializer(serializers.ModelSerializer[HandChange]):
    """One change to a game: who, when, and the hand (or sheet, or game settings) before and after."""

    # The username sealed into the entry, not the account row it links to: that link is outside the seal.
    user = serializers.SerializerMethodField(
        help_text="the username who made the change (as sealed); null for a script"
    )
    index = serializers.IntegerField(
        allow_null=True, help_text="the hand changed; null for a whole sheet or the game's settings"
    )
    before = serializers.DictField(
        allow_null=True, help_text="the hand record (or sheet, or settings) before; null for an added hand"
    )
    after = serializers.DictField(allow_null=True, help_text="the same after; null for a deleted hand")
    version = serializers.IntegerField(help_text="the game's version after the change")

    class Meta:
        model = HandChange
        fields = ("at", "user", "action", "index", "before", "after", "version", "previous", "key", "hash")

    def get_user(self, change: HandChange) -> str | None:
        return change.author or None


class HandChangePageSerializer(serializers.Serializer[Any]):
    """A page of the history (as every list of the API is paginated)."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = HandChangeSerializer(many=True)


class KeptHeadSerializer(serializers.Serializer[Any]):
    """A head a player kept, looked for in the game's history."""

    found = serializers.BooleanField(
        help_text="the kept head is an entry of the history: nothing before it was rewritten since"
    )
    entry = serializers.IntegerField(allow_null=True, help_text="its entry's number, from 1")
    later = serializers.IntegerField(help_text="entries written after it (corrections, confirmations)")


class ChainSerializer(serializers.Serializer[Any]):
    """Whether the game's history still holds: what a player who kept the seal checks against."""

    head = serializers.CharField(
        allow_blank=True,
        help_text="the hash of the game's last history entry (its seal; the game page shows its first 12 digits)",
    )
    event_head = serializers.CharField(help_text="one hash over every game's head in the event, in game order")
    entries = serializers.IntegerField(help_text="history entries in the chain")
    intact = serializers.BooleanField(
        help_text="every entry matches its hash and follows the one before, and "
        "the stored hands are what the history says"
    )
    problem = serializers.CharField(allow_null=True, help_text="the first entry that does not hold, in words")
    unsealed = serializers.BooleanField(
        help_text="the history was written before entries were sealed with the "
        "server's history key: whoever holds the database could rewrite it"
    )
    kept = KeptHeadSerializer(
        allow_null=True, help_text="where the head asked about (head=) stands; null when none was asked about"
    )


class GameCreateSerializer(serializers.Serializer[Any]):
    event = serializers.SlugField(help_text="the event's slug")
    players = serializers.ListField(
        child=player_id(), help_text="player ids in seat order, East (the first dealer) first"
    )
    substitutes = serializers.ListField(
        child=player_id(),
        required=False,
        default=list,
        help_text="players filling in for an absent player (ranked by the "
        "event's substitute rule); registered substitutes are marked anyway",
    )
    played_on = serializers.DateField(
        required=False, help_text="a league counts games in its date range; default today"
    )


class GameUpdateSerializer(serializers.Serializer[Any]):
    end = serializers.ChoiceField(
        choices=("time",),
        required=False,
        allow_null=True,
        help_text='"time": the clock ended the game after its last hand; null takes that back',
    )
    substitutes = serializers.ListField(
        child=player_id(), required=False, help_text="the player ids who played as substitutes (the full list)"
    )
