"""Rankings across events: the EMA's (MERS) and the rated events' own, each row with what explains it."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

KINDS = ("mers", "tenhou", "elo")
CHANGES = ("entered", "halved", "expired", "dropped", "restored")


class RankingSummarySerializer(serializers.Serializer[Any]):
    """A ranking there is."""

    key = serializers.CharField(
        help_text="ema (the EMA's riichi ranking), ema-mcr (its MCR ranking), or a rated event's slug"
    )
    kind = serializers.ChoiceField(KINDS, help_text="mers: the EMA's ranking; tenhou or elo: a rated event's rating")
    name = serializers.CharField()
    event = serializers.CharField(
        source="event.slug", allow_null=True, help_text="the rated event's slug; null for the EMA's rankings"
    )


class RankedPlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(
        source="player_id",
        allow_null=True,
        help_text="this server's player; null for one known only from imported results",
    )
    name = serializers.CharField()
    federation_id = serializers.CharField(help_text="the EMA number: the EMA ranks people by it")
    country = serializers.CharField(allow_blank=True)


class _EventRefSerializer(serializers.Serializer[Any]):
    event = serializers.CharField(
        help_text="the event's key: event:<id> on this server, import:<event_id> for one imported"
    )
    name = serializers.CharField()
    date = serializers.DateField(help_text="its first day")
    slug = serializers.CharField(allow_blank=True, help_text="this server's event; empty for one imported")


class CountedResultSerializer(_EventRefSerializer):
    """A result as the EMA ranking takes it on the date."""

    place = serializers.IntegerField()
    players = serializers.IntegerField(help_text="N: the players ranked and up to 3 substitutes")
    score = serializers.IntegerField(help_text="1000 × (N − place) / (N − 1), rounded")
    weight = serializers.FloatField(
        help_text="the event's weight (days, players, countries, championship), or as the EMA published it"
    )
    time_factor = serializers.FloatField(help_text="1 in its first 52 counted weeks, 0.5 in the next 52")
    part_a = serializers.BooleanField(help_text="among the best results part A averages")
    part_b = serializers.BooleanField(help_text="among the 4 best part B averages")


class ResultChangeSerializer(_EventRefSerializer):
    change = serializers.ChoiceField(
        CHANGES,
        help_text="since the week before: counted for the first time, "
        "halved (week 53), expired (week 105), dropped from or restored to the "
        "results that count",
    )
    time_factor = serializers.FloatField()


class RatingStepSerializer(serializers.Serializer[Any]):
    """A game that moved the rating."""

    game = serializers.IntegerField()
    played_on = serializers.DateField()
    rank = serializers.FloatField(help_text="the place in the game; shared places as their mean")
    before = serializers.FloatField()
    after = serializers.FloatField()
    change = serializers.FloatField()
    factor = serializers.FloatField(help_text="Tenhou: k = 1 − 0.002 × games before (0.2 from 400); Elo: K")
    points = serializers.FloatField(help_text="Tenhou: the place's points (+30/+10/−10/−30); Elo: 1, 0.5 or 0")
    reference = serializers.FloatField(
        help_text="Tenhou: the table's mean rating used (1500 at least); Elo: the opponent's rating"
    )


class RankingRowSerializer(serializers.Serializer[Any]):
    """A player's row, with what explains it and what changed since the week before."""

    rank = serializers.IntegerField(help_text="shared on equal scores")
    player = RankedPlayerSerializer(source="*")
    score = serializers.DecimalField(
        max_digits=8, decimal_places=2, help_text="the EMA score (0 to 1000), or the rating"
    )
    previous_rank = serializers.IntegerField(allow_null=True, help_text="a week earlier; null if not listed then")
    previous_score = serializers.DecimalField(max_digits=8, decimal_places=2, allow_null=True)
    part_a = serializers.DecimalField(
        max_digits=7,
        decimal_places=2,
        allow_null=True,
        help_text="EMA: the weighted average of the best results; null for a rating",
    )
    part_b = serializers.DecimalField(
        max_digits=7,
        decimal_places=2,
        allow_null=True,
        help_text="EMA: the weighted average of the 4 best; null for a rating",
    )
    counted = CountedResultSerializer(many=True, help_text="EMA: the results that count, best first")
    dropped = CountedResultSerializer(many=True, help_text="EMA: active results left out (not among the best)")
    changes = ResultChangeSerializer(many=True, help_text="EMA: the results that changed since the week before")
    games = serializers.IntegerField(allow_null=True, help_text="a rating: the games rated; null for the EMA's")
    history = RatingStepSerializer(many=True, help_text="a rating: the games that moved it, oldest first")


class CountryPlayerSerializer(serializers.Serializer[Any]):
    federation_id = serializers.CharField()
    name = serializers.CharField()
    score = serializers.FloatField()


class CountrySerializer(serializers.Serializer[Any]):
    """A country's figure: the mean of its 3 best players' scores (a missing one counts 0)."""

    country = serializers.CharField()
    rank = serializers.IntegerField()
    score = serializers.FloatField()
    ranked = serializers.IntegerField(help_text="its players in the ranking")
    players = CountryPlayerSerializer(many=True, help_text="its best 3")


class LeftSerializer(serializers.Serializer[Any]):
    """A player listed the week before and not now (fewer than 2 active results)."""

    federation_id = serializers.CharField()
    name = serializers.CharField()
    country = serializers.CharField(allow_blank=True)
    previous_rank = serializers.IntegerField()


@extend_schema_serializer(many=False)  # the whole body, already paginated: not a list of it
class RankingPageSerializer(serializers.Serializer[Any]):
    """A page of a ranking on a date."""

    key = serializers.CharField()
    kind = serializers.ChoiceField(KINDS)
    name = serializers.CharField()
    as_of = serializers.DateField(help_text="the date asked (today if none)")
    week = serializers.DateField(
        help_text="EMA: the Monday of the ranking's week, the one it is published for; a rating: as_of"
    )
    previous_week = serializers.DateField(help_text="what previous_rank, previous_score and changes compare with")
    computed_at = serializers.DateTimeField(allow_null=True, help_text="EMA: when this week's snapshot was built")
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = RankingRowSerializer(many=True)
    countries = CountrySerializer(many=True, help_text="EMA: each country's figure, best first (on every page)")
    left = LeftSerializer(many=True, help_text="EMA: who left the list since the week before (on every page)")
