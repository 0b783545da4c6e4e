"""Seating a round (random or swiss, previewed first) and predefined schedules."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import INVALID, NOT_AUTHENTICATED, NOT_FOUND, NOT_ORGANISER
from api.idempotency import IDEMPOTENCY_KEY, KEY_REUSED, idempotent
from api.serializers.seating import (
    RoundTablesSerializer,
    ScheduleSerializer,
    SeatingPreviewSerializer,
    SeatingSerializer,
)
from api.views.events import organised_event
from rules.seating import Seating
from scoring.services.games import round_preview, round_seat, schedule_import, seating_warnings
from scoring.services.stages import entrant_names
from tournament.models import Event, Round, Seat, Table
from tournament.selectors import visible_events
from tournament.services.seating import Method


def seated_rounds(event: Event, numbers: list[int] | None = None) -> QuerySet[Round]:
    """Rounds with their tables, games, seats and players in a constant number of queries."""
    seats = Seat.objects.select_related("player").order_by("position")
    tables = Table.objects.select_related("game").prefetch_related(
        Prefetch("game__seats", queryset=seats), "team_seats__team"
    )
    rounds = event.rounds.prefetch_related(Prefetch("tables", queryset=tables.order_by("number")))
    return rounds.filter(number__in=numbers) if numbers is not None else rounds


def tables(rounds: Round | QuerySet[Round], event: Event, *, many: bool = False) -> Any:
    """Rounds rendered with their tables, the seat winds named by the event's ruleset."""
    return RoundTablesSerializer(rounds, many=many, context={"winds": event.ruleset().seat_winds}).data


class RoundSeatingView(APIView):
    """Seat a round: tables with their seats (East first) and a game per table."""

    @extend_schema(responses={200: RoundTablesSerializer, 404: NOT_FOUND})
    def get(self, request: Request, slug: str, number: int) -> Response:
        event = get_object_or_404(visible_events(request.user), slug=slug)
        round_ = seated_rounds(event, [number]).first()
        if round_ is None:
            raise NotFound("this event has no such round")
        return Response(tables(round_, event))

    @extend_schema(
        request=SeatingSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: RoundTablesSerializer,
            400: INVALID,
            401: NOT_AUTHENTICATED,
            403: NOT_ORGANISER,
            404: NOT_FOUND,
            422: KEY_REUSED,
        },
    )
    @idempotent
    def post(self, request: Request, slug: str, number: int) -> Response:
        event = organised_event(request, slug, "seat rounds")
        serializer = SeatingSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_seat(
            event=event,
            number=number,
            method=Method(serializer.validated_data["method"]),
            seed=serializer.validated_data["seed"],
        )
        return Response(tables(seated_rounds(event, [number]).get(), event), status=status.HTTP_201_CREATED)


class RoundSeatingPreviewView(APIView):
    """The tables a round would get and, per player, the tables moved and any repeat; nothing is written."""

    permission_classes = (permissions.IsAuthenticated,)

    @extend_schema(
        parameters=[SeatingSerializer],
        responses={
            200: SeatingPreviewSerializer,
            400: INVALID,
            401: NOT_AUTHENTICATED,
            403: NOT_ORGANISER,
            404: NOT_FOUND,
        },
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        event = organised_event(request, slug, "preview seating")
        query = SeatingSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        method = Method(query.validated_data["method"])
        seating, seed = round_preview(event=event, number=number, method=method, seed=query.validated_data["seed"])
        shown = preview(seating, event, number=number, method=method, seed=seed)
        shown["warnings"] = [asdict(w) for w in seating_warnings(event=event, number=number, method=method)]
        return Response(SeatingPreviewSerializer(shown).data)


def preview(seating: Seating, event: Event, *, number: int, method: Method, seed: int) -> dict[str, Any]:
    """The preview's body: the planned tables with each player's rank table, tables moved and repeats."""
    names = entrant_names(event, [p.player for p in seating.placements] + list(seating.byes))
    winds = event.ruleset().seat_winds
    placed = {place.player: place for place in seating.placements}

    def ref(player: int) -> dict[str, Any]:
        return {"id": player, "name": names[player]}

    return {
        "round": number,
        "method": str(method),
        "seed": seed,
        "spread": event.swiss_spread if method == Method.SWISS else None,
        "optimal": seating.optimal,
        "repeats": seating.repeats,
        "avoidable_at_most": seating.avoidable,
        "moved": sum(abs(place.moved) for place in seating.placements),
        "wind_imbalance": seating.wind_imbalance,
        "tables": [
            {
                "number": table.number,
                "seats": [
                    {
                        "wind": winds[position],
                        "player": ref(player),
                        "rank_table": placed[player].rank_table,
                        "moved": placed[player].moved,
                        "met": [ref(other) for other in placed[player].met],
                    }
                    for position, player in enumerate(table.seats)
                ],
            }
            for table in seating.tables
        ],
        "byes": [ref(player) for player in seating.byes],
    }


class EventScheduleView(APIView):
    """Seat every round from a predefined schedule (CSV): all rounds or none."""

    @extend_schema(
        request=ScheduleSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: RoundTablesSerializer(many=True),
            400: INVALID,
            401: NOT_AUTHENTICATED,
            403: NOT_ORGANISER,
            404: NOT_FOUND,
            422: KEY_REUSED,
        },
    )
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        event = organised_event(request, slug, "seat rounds")
        serializer = ScheduleSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        games = schedule_import(event=event, text=serializer.validated_data["csv"])
        numbers = sorted({game.table.round.number for game in games if game.table is not None})
        return Response(
            tables(seated_rounds(event, numbers).order_by("number"), event, many=True), status=status.HTTP_201_CREATED
        )
