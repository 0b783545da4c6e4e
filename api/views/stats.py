"""A player's statistics across the events the reader may see, and an event's leaderboards."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import INVALID, NOT_FOUND
from api.serializers.stats import LeaderboardsSerializer, PlayerStatsSerializer
from scoring.services.leaderboards import LIMIT, MAX_LIMIT, Leaderboards, Line, event_leaderboards, read_board_options
from scoring.services.stats import platform_choices, player_stats, read_filter
from tournament.selectors import SLUG_PATTERN, findable_players, visible_events

FILTERS = [
    OpenApiParameter("event", str, description="an event's slug: only its games", pattern=SLUG_PATTERN),
    OpenApiParameter("from", OpenApiTypes.DATE, description="games played on this day or later"),
    OpenApiParameter("to", OpenApiTypes.DATE, description="games played on this day or earlier"),
    OpenApiParameter(
        "platform",
        str,
        enum=platform_choices(),
        description="online: every imported game; table: the games played at a table; or one platform",
    ),
    OpenApiParameter("ruleset", str, description="riichi or mcr (the scoring), or a ruleset preset's key"),
]
BOARD_OPTIONS = [
    OpenApiParameter(
        "min_hands",
        int,
        description="the hands a player needs for a rate to rank (default: half the median player's hands, rounded up)",
    ),
    OpenApiParameter("limit", int, description=f"lines per board (default {LIMIT}, at most {MAX_LIMIT})"),
]


class PlayerStatsView(APIView):
    """A player's statistics: every finished game of the events the reader may see, narrowed by the filters."""

    permission_classes = (permissions.AllowAny,)

    @extend_schema(parameters=FILTERS, responses={200: PlayerStatsSerializer, 400: INVALID, 404: NOT_FOUND})
    def get(self, request: Request, player_id: int) -> Response:
        # A player who plays only in events hidden from the reader is no player to him (issue 25).
        player = get_object_or_404(findable_players(request.user), pk=player_id)
        chosen = read_filter(request.query_params, request.user)
        figures = player_stats(player, request.user, chosen)
        for hand in figures["yakuman_hands"]:
            hand["url"] = reverse("game", args=[hand["game"]]) + f"#hand-{hand['hand']}"
        return Response(PlayerStatsSerializer({"player": player, "filters": chosen.as_dict(), **figures}).data)


class EventLeaderboardsView(APIView):
    """The event's leaderboards: most wins, best average placement, fewest deal-ins (by rate)."""

    permission_classes = (permissions.AllowAny,)

    @extend_schema(parameters=BOARD_OPTIONS, responses={200: LeaderboardsSerializer, 400: INVALID, 404: NOT_FOUND})
    def get(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(visible_events(request.user), slug=slug)
        min_hands, limit = read_board_options(request.query_params)
        boards = event_leaderboards(event, min_hands=min_hands, limit=limit)
        return Response(LeaderboardsSerializer(boards_json(boards)).data)


def boards_json(boards: Leaderboards) -> dict[str, Any]:
    def line(row: Line) -> dict[str, Any]:
        return {**asdict(row), "player": {"id": row.player_id, "name": row.name}}

    return {
        "players": boards.players,
        "median_hands": boards.median_hands,
        "min_hands": boards.min_hands,
        **{
            name: [line(row) for row in getattr(boards, name)]
            for name in ("most_wins", "best_average_place", "fewest_deal_ins")
        },
    }
