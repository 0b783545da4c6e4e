"""A team league's teams and lineups as the API shows them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.serializers.events import PlayerRefSerializer


class TeamMemberLineSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.IntegerField(allow_null=True, help_text="the player's own rank in the event")
    points = serializers.FloatField(help_text="the player's own points")
    games = serializers.IntegerField()


class TeamSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    captain = serializers.CharField(
        allow_null=True, help_text="the user name of the team's captain, who names its lineups; null if none"
    )
    members = TeamMemberLineSerializer(many=True, help_text="the roster: any member may sit at the team's seat")


class TeamGameSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    player = PlayerRefSerializer(help_text="who played for the team")
    status = serializers.CharField()
    points = serializers.FloatField(allow_null=True, help_text="the game's points for the team (finished games)")


class TeamDetailSerializer(TeamSerializer):
    games = TeamGameSerializer(many=True)


class TeamCaptainSerializer(serializers.Serializer[Any]):
    captain = serializers.CharField(
        allow_null=True, allow_blank=True, help_text="a user name; null or empty: no captain"
    )


class LineupWriteSerializer(serializers.Serializer[Any]):
    team = serializers.IntegerField(help_text="the team's id")
    player = serializers.IntegerField(help_text="the member who plays for it in this round")


class LineupSeatSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    wind = serializers.CharField()
    team = PlayerRefSerializer(help_text="the team at this seat")
    player = PlayerRefSerializer(allow_null=True, help_text="who plays for it; null until named")


class LineupTableSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    game = serializers.IntegerField(
        allow_null=True, help_text="opened once every team at the table has named its player"
    )
    seats = LineupSeatSerializer(many=True)


class LineupsSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    tables = LineupTableSerializer(many=True)
    named = serializers.DictField(child=PlayerRefSerializer(), help_text="team id → who plays for it")
