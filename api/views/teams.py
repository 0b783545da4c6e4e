"""A team league's teams (roster, captain, games) and a round's lineups: who plays for each team."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import INVALID, NOT_AUTHENTICATED, NOT_FOUND, NOT_ORGANISER, error_response
from api.serializers.teams import (
    LineupsSerializer,
    LineupWriteSerializer,
    TeamCaptainSerializer,
    TeamDetailSerializer,
    TeamSerializer,
)
from api.views.events import organised_event
from rules.errors import Refusal
from scoring.services.lineups import lineup_set
from scoring.services.team_pages import round_lineups, team_captain_set, team_of_event, team_view
from tournament.models import Event, Round, Team
from tournament.selectors import visible_events
from tournament.services.team_rounds import may_name_lineup


def _team(event: Event, team_id: int) -> Team:
    try:
        return team_of_event(event, team_id)
    except Refusal:
        raise NotFound(f"this event has no team {team_id}") from None


def _round(event: Event, number: int) -> Round:
    round_ = Round.objects.filter(event=event, number=number).select_related("event").first()
    if round_ is None:
        raise NotFound(f"this event has no round {number}")
    return round_


class TeamsView(APIView):
    """The event's teams with their rosters and captains."""

    @extend_schema(responses={200: TeamSerializer(many=True), 404: NOT_FOUND})
    def get(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(visible_events(request.user), slug=slug)
        teams = event.teams.select_related("captain").order_by("name")
        return Response(TeamSerializer([team_view(team) for team in teams], many=True).data)


class TeamView(APIView):
    """A team: its roster with each member's own numbers and every game a member played; organisers name its
    captain."""

    @extend_schema(responses={200: TeamDetailSerializer, 404: NOT_FOUND})
    def get(self, request: Request, slug: str, team_id: int) -> Response:
        event = get_object_or_404(visible_events(request.user), slug=slug)
        return Response(TeamDetailSerializer(team_view(_team(event, team_id), games=True)).data)

    @extend_schema(
        request=TeamCaptainSerializer,
        responses={200: TeamSerializer, 400: INVALID, 401: NOT_AUTHENTICATED, 403: NOT_ORGANISER, 404: NOT_FOUND},
    )
    def patch(self, request: Request, slug: str, team_id: int) -> Response:
        event = organised_event(request, slug, "name captains")
        given = TeamCaptainSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        team = team_captain_set(team=_team(event, team_id), username=given.validated_data["captain"])
        return Response(TeamSerializer(team_view(team)).data)


class RoundLineupsView(APIView):
    """A team league round's tables (teams by seat) and who plays for each team; an organiser or the team's
    captain names its player before the game starts."""

    @extend_schema(responses={200: LineupsSerializer, 404: NOT_FOUND})
    def get(self, request: Request, slug: str, number: int) -> Response:
        event = get_object_or_404(visible_events(request.user), slug=slug)
        return Response(LineupsSerializer(round_lineups(_round(event, number))).data)

    @extend_schema(
        request=LineupWriteSerializer,
        responses={
            200: LineupsSerializer,
            400: INVALID,
            401: NOT_AUTHENTICATED,
            403: error_response("only the event's organisers and the team's captain name its lineup"),
            404: NOT_FOUND,
            409: error_response("the team's game in this round has begun"),
        },
    )
    def put(self, request: Request, slug: str, number: int) -> Response:
        event = get_object_or_404(visible_events(request.user), slug=slug)
        given = LineupWriteSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        round_ = _round(event, number)
        team = _team(event, given.validated_data["team"])
        if not request.user.is_authenticated:
            raise PermissionDenied("sign in to name a lineup")
        if not may_name_lineup(team, request.user):
            raise PermissionDenied("only the event's organisers and the team's captain name its lineup")
        lineup_set(round_=round_, team=team, player_id=given.validated_data["player"], user=request.user)
        return Response(LineupsSerializer(round_lineups(round_)).data)
