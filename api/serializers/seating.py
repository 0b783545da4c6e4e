"""Seated rounds, the seating request and its preview, and predefined schedules."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.events import PlayerRefSerializer
from scoring.sheet.document import MAX_INTEGER
from tournament.models import Game, Round, Table
from tournament.services.seating import Method


class TableSeatSerializer(serializers.Serializer[Any]):
    wind = serializers.CharField(help_text='the seat wind ("East" first, the first dealer)')
    player = PlayerRefSerializer()


class TableTeamSerializer(serializers.Serializer[Any]):
    wind = serializers.CharField()
    team = PlayerRefSerializer(help_text="the team at this seat (id and name)")


class SeatedTableSerializer(serializers.ModelSerializer[Table]):
    game = serializers.SerializerMethodField(
        help_text="the id of the table's game (a team league's: once every team at it has named who plays)"
    )
    seats = serializers.SerializerMethodField()
    teams = serializers.SerializerMethodField(help_text="a team league's teams by seat; empty otherwise")

    class Meta:
        model = Table
        fields = ("number", "game", "seats", "teams")

    @extend_schema_field(TableTeamSerializer(many=True))
    def get_teams(self, table: Table) -> list[dict[str, Any]]:
        winds = self.context["winds"]
        return [
            {"wind": winds[s.position], "team": {"id": s.team_id, "name": s.team.name}}
            for s in sorted(table.team_seats.all(), key=lambda s: s.position)
        ]

    def get_game(self, table: Table) -> int | None:
        game: Game | None = getattr(table, "game", None)
        return game.pk if game else None

    @extend_schema_field(TableSeatSerializer(many=True))
    def get_seats(self, table: Table) -> list[dict[str, Any]]:
        game: Game | None = getattr(table, "game", None)
        winds = self.context["winds"]
        seats = sorted(game.seats.all(), key=lambda s: s.position) if game else []
        return [{"wind": winds[s.position], "player": {"id": s.player_id, "name": s.player.name}} for s in seats]


class RoundTablesSerializer(serializers.ModelSerializer[Round]):
    """A round's tables, their seats in seat order and the game opened for each."""

    round = serializers.IntegerField(source="number", help_text="the round's number")
    tables = SeatedTableSerializer(many=True)

    class Meta:
        model = Round
        fields = ("round", "tables")


class SeatingSerializer(serializers.Serializer[Any]):
    method = serializers.ChoiceField(choices=[str(m) for m in Method])
    seed = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=-MAX_INTEGER, max_value=MAX_INTEGER
    )


class ScheduleSerializer(serializers.Serializer[Any]):
    csv = serializers.CharField(
        trim_whitespace=False,
        help_text="header round,table then one column per seat "
        "(east,south,west,north or seat1..seatN), one line per table, player ids",
    )


class PreviewSeatSerializer(serializers.Serializer[Any]):
    wind = serializers.CharField(help_text='the seat wind ("East" first, the first dealer)')
    player = PlayerRefSerializer()
    rank_table = serializers.IntegerField(
        allow_null=True,
        help_text="swiss: the table the player's place in the standings gives him; null for random tables",
    )
    moved = serializers.IntegerField(
        help_text="tables from the rank table: negative up toward table 1, positive down; 0 for random tables"
    )
    met = PlayerRefSerializer(many=True, help_text="the players at this table met in an earlier round")


class PreviewTableSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    seats = PreviewSeatSerializer(many=True)


class SeatingWarningSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(
        help_text="round_not_finished: an earlier round has games not finished, so the "
        "standings swiss seating goes by are not final"
    )
    round = serializers.IntegerField(help_text="the earlier round")
    tables = serializers.ListField(child=serializers.IntegerField(), help_text="its tables not finished")
    message = serializers.CharField(help_text="the warning in the reader's language")


class SeatingPreviewSerializer(serializers.Serializer[Any]):
    """The tables a round would get, written nowhere: seat the round with the same method and seed to get them."""

    round = serializers.IntegerField(help_text="the round's number")
    method = serializers.ChoiceField(choices=[str(m) for m in Method])
    seed = serializers.IntegerField(
        help_text="the seed used (drawn when none was given): POST it to seat these "
        "tables, as long as the standings and players do not change"
    )
    spread = serializers.IntegerField(
        allow_null=True,
        help_text="swiss: the event's swiss_spread, how many tables "
        "a player may move from his rank table (null: any); null for random tables",
    )
    optimal = serializers.BooleanField(
        help_text="no seating can have fewer repeats (nor, swiss, fewer tables "
        "moved); false when the search ended at its time limit (1 s and 2 ms a "
        "player, at most 8 s) or a stall first"
    )
    repeats = serializers.IntegerField(help_text="pairs seated together again")
    avoidable_at_most = serializers.IntegerField(
        help_text="an upper bound: at most this many of the repeats could "
        "a seating (within the spread) avoid, the repeats less those the "
        "search proved every seating has; 0 when optimal"
    )
    moved = serializers.IntegerField(help_text="tables moved from the rank tables, summed over the players")
    wind_imbalance = serializers.IntegerField(
        help_text="over the players, the most-sat minus the least-sat seat wind, this round included"
    )
    tables = PreviewTableSerializer(many=True)
    byes = PlayerRefSerializer(many=True, help_text="the players who sit this round out")
    warnings = SeatingWarningSerializer(
        many=True,
        help_text="what to know before seating these tables, which does not stop it (POST seats them all the same)",
    )
