"""A player's statistics and an event's leaderboards as the API shows them (scoring.services.stats names each
figure; every rate sits beside the counts it is made of)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.serializers.events import PlayerRefSerializer


def count(help_text: str) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, help_text=help_text)


def share(help_text: str) -> serializers.FloatField:
    return serializers.FloatField(
        allow_null=True,
        min_value=0,
        max_value=1,
        help_text=help_text + " (0 to 1; null when there is nothing to divide by)",
    )


def mean(help_text: str) -> serializers.FloatField:
    return serializers.FloatField(allow_null=True, help_text=help_text + " (null when there is none)")


class StatsFilterSerializer(serializers.Serializer[Any]):
    event = serializers.CharField(allow_null=True, help_text="the event's slug, or null for every event")
    # "from" is a keyword: the field is declared under it below.
    to = serializers.DateField(allow_null=True)
    platform = serializers.CharField(allow_null=True)
    ruleset = serializers.CharField(allow_null=True)

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {"from": serializers.DateField(allow_null=True), **super().get_fields()}


class YakumanHandSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    hand = serializers.IntegerField(min_value=1, help_text="the hand's number in the game, from 1")
    event = serializers.CharField(help_text="the event's slug")
    played_on = serializers.DateField()
    url = serializers.CharField(help_text="the game's page, at the hand")


class McrStatsSerializer(serializers.Serializer[Any]):
    """The MCR games' figures (fan, false wins, table points, scores in MCR points)."""

    games = count("MCR games")
    hands = count("hands of the MCR games")
    wins = count("wins")
    win_rate = share("wins / hands")
    self_draws = count("wins by self-draw")
    self_draw_rate = share("self_draws / wins")
    deal_ins = count("hands the player dealt in")
    deal_in_rate = share("deal_ins / hands")
    fan = count("fan of the wins, flowers included")
    average_fan = mean("fan / wins")
    false_wins = count("false wins charged")
    table_points = serializers.FloatField()
    average_table_points = mean("table_points / games")
    score = serializers.IntegerField()
    average_score = mean("score / games")
    points = serializers.FloatField()
    average_points = mean("points / games")


class PlayerStatsSerializer(serializers.Serializer[Any]):
    """A player's figures over the finished games asked for, of the events the reader may see."""

    player = PlayerRefSerializer()
    filters = StatsFilterSerializer()
    games = count("finished games")
    online_games = count("of them, games imported from an online platform")
    hands = count("hands played out: wins, exhaustive and abortive draws (a chombo's hand is played again)")
    placements = serializers.DictField(
        child=serializers.IntegerField(min_value=0),
        help_text='games per place: {"1": 12, "2": 9, ...}; shared places keep the best',
    )
    average_place = mean("the places' mean; a shared place counts as the mean of the places it covers")
    wins = count("wins that stood (a head-bumped ron is none)")
    win_rate = share("wins / hands")
    tsumo_wins = count("wins by tsumo (self-draw)")
    tsumo_share = share("tsumo_wins / wins")
    deal_ins = count("hands in which another player won on the player's discard")
    deal_in_rate = share("deal_ins / hands")
    riichi_games = count("riichi games: the figures below to busts are theirs")
    riichi_hands = count("hands of the riichi games")
    riichi_game_wins = count("wins in riichi games")
    riichi_game_deal_ins = count("deal-ins in riichi games")
    riichi = count("riichi declared (the stick paid)")
    riichi_rate = share("riichi / riichi_hands")
    riichi_wins = count("hands won after declaring riichi")
    riichi_win_rate = share("riichi_wins / riichi")
    win_points = count("what the wins' hands paid, honba and riichi sticks apart")
    average_win_points = mean("win_points / riichi_game_wins")
    han = count("han of the wins valued in han")
    han_wins = count("the wins valued in han (yakuman apart)")
    average_han = mean("han / han_wins")
    deal_in_points = count("what the player paid for the hands dealt in, honba apart")
    average_deal_in = mean("deal_in_points / riichi_game_deal_ins")
    draws = count("exhaustive draws")
    tenpai = count("exhaustive draws the player was tenpai at")
    tenpai_rate = share("tenpai / draws")
    chombo = count("chombo")
    yakuman = count("yakuman won (counted or kazoe)")
    yakuman_hands = YakumanHandSerializer(many=True)
    score = serializers.IntegerField(help_text="end scores added up")
    average_score = mean("score / riichi_games")
    points = serializers.FloatField(help_text="final points added up (uma, oka and penalties included)")
    average_points = mean("points / riichi_games")
    busts = count("riichi games ended below zero")
    bust_rate = share("busts / riichi_games")
    mcr = McrStatsSerializer()


class BoardLineSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(min_value=1, help_text="shared by equal figures")
    player = PlayerRefSerializer()
    games = count("finished games in the event")
    hands = count("hands played out")
    wins = count("wins")
    win_rate = share("wins / hands")
    deal_ins = count("deal-ins")
    deal_in_rate = share("deal_ins / hands")
    average_place = mean("places' mean")


class LeaderboardsSerializer(serializers.Serializer[Any]):
    """The event's boards; a rate ranks only players with min_hands hands or more."""

    players = count("players with a finished game")
    median_hands = count("the hands of the median player")
    min_hands = count("the hands a player needs for a rate to rank: as asked, else half of median_hands rounded up")
    most_wins = BoardLineSerializer(many=True)
    best_average_place = BoardLineSerializer(many=True)
    fewest_deal_ins = BoardLineSerializer(many=True, help_text="by deal-in rate")
