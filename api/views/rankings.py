"""Rankings across events: which there are, and one on a date (docs/rankings.md)."""

from __future__ import annotations

from typing import Any, cast

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import permissions, status
from rest_framework.generics import GenericAPIView, ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import INVALID, error_body, error_response
from api.pagination import Pages
from api.serializers.rankings import RankingPageSerializer, RankingRowSerializer, RankingSummarySerializer
from rules.errors import Problem
from scoring.services.ranking_read import (
    parse_as_of,
    ranking_find,
    ranking_on,
    rankings_available,
    rows_of,
)

AS_OF = OpenApiParameter(
    "as_of",
    str,
    required=False,
    description="YYYY-MM-DD, from 2005 to today; today if "
    "absent. The EMA's ranking is the one published for that date's week (its Monday).",
)
NO_RANKING = error_response(
    "no ranking under this key (or the rated event is not one you may see); the error names the field: key"
)


@extend_schema_view(get=extend_schema(responses={200: RankingSummarySerializer(many=True)}))
class RankingsView(ListAPIView[Any]):
    """The rankings: the EMA's (riichi and MCR) and every visible event's rating."""

    permission_classes = (permissions.AllowAny,)
    serializer_class = RankingSummarySerializer
    pagination_class = Pages

    def get_queryset(self) -> Any:
        return rankings_available(self.request.user)


@extend_schema_view(
    get=extend_schema(parameters=[AS_OF], responses={200: RankingPageSerializer, 400: INVALID, 404: NO_RANKING})
)
class RankingView(GenericAPIView[Any]):
    """A ranking on a date: each player's rank and score, the results counted and dropped with their weight and
    time factor (EMA), or the games that moved the rating; and what changed since the week before."""

    permission_classes = (permissions.AllowAny,)
    serializer_class = RankingRowSerializer
    pagination_class = Pages

    def get(self, request: Request, key: str) -> Response:
        info = ranking_find(key, request.user)
        if info is None:
            return Response(
                error_body(
                    "no such ranking", [Problem("key", f"no ranking {key!r}: the keys are listed at /api/v1/rankings/")]
                ),
                status=status.HTTP_404_NOT_FOUND,
            )
        ranking = ranking_on(info, parse_as_of(request.query_params.get("as_of")))
        page = self.paginate_queryset(ranking.items) or []
        pages = cast(Pages, self.paginator)
        body = {
            "key": info.key,
            "kind": info.kind,
            "name": info.name,
            "as_of": ranking.as_of,
            "week": ranking.week,
            "previous_week": ranking.previous,
            "computed_at": ranking.computed_at,
            "count": pages.page.paginator.count if pages.page else 0,
            "next": pages.get_next_link(),
            "previous": pages.get_previous_link(),
            "results": rows_of(page),
            "countries": ranking.countries,
            "left": ranking.left,
        }
        return Response(RankingPageSerializer(body).data)
