"""REST API for games, their hands and sheets, and event standings (thin: scoring.services does the work).

A game's version is its ETag. A write that changes existing hands (PUT,
PATCH, DELETE of a hand, PUT of the sheet) must send ``If-Match`` with the
version it read, and gets 409 if the game changed since; adding a hand may
send it too. Refused input is a 400 whose ``errors`` name each field with the
score sheet's message; nothing is saved then.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from rules.errors import Problem
from scoring import services
from scoring.models import Game, HandChange, Standing
from scoring.schema import RESULTS
from scoring.services import InvalidInput, VersionConflict
from tournament.api import (
    NOT_AUTHENTICATED,
    NOT_FOUND,
    FieldErrorsSerializer,
    OpenObjectSerializer,
    PlayerRefSerializer,
    detail_response,
    organised_event,
    visible_events,
)
from tournament.models import Round

IF_MATCH = OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=False,
                            description="the game's version (its ETag) the change is based on")
ETAG = OpenApiParameter("ETag", str, OpenApiParameter.HEADER, response=[200, 201],
                        description='the game\'s version, quoted (e.g. "3"): send it back as If-Match')


# --- the shapes the API answers with, for the OpenAPI schema ---------------------


class ProblemSerializer(serializers.Serializer[Any]):
    """One refused field of the body and why, in the score sheet's words."""

    field = serializers.CharField(allow_blank=True, help_text='the path into the body, e.g. "fu" or '
                                  '"hands[3].winner"; empty for the body as a whole')
    message = serializers.CharField()


class InvalidInputSerializer(serializers.Serializer[Any]):
    """Refused input; nothing was saved."""

    detail = serializers.CharField()
    # A declared field leaves the class body (DRF's metaclass collects it), so Serializer.errors stays intact.
    errors = ProblemSerializer(many=True, required=False,  # type: ignore[assignment]
                               help_text="every problem found; absent when the If-Match header (or the JSON "
                               "itself) is malformed")


class VersionConflictSerializer(serializers.Serializer[Any]):
    """The game changed since the version the write was based on; nothing was saved."""

    detail = serializers.CharField()
    version = serializers.IntegerField(help_text="the game's current version")


class GamePlayerSerializer(serializers.Serializer[Any]):
    """A player at a game's table; seat 0 is the first dealer (East)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    seat = serializers.IntegerField()
    substitute = serializers.BooleanField()


class GameSerializer(serializers.Serializer[Any]):
    """A game with its players in seat order and its replayed result."""

    id = serializers.IntegerField()
    event = serializers.SlugField(help_text="the event's slug")
    table = serializers.IntegerField(allow_null=True, help_text="the seated table's id; null for a game not "
                                     "created by seating a round")
    version = serializers.IntegerField(help_text="bumped by every change (also the ETag, sent back as If-Match)")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    end = serializers.ChoiceField(choices=("time",), allow_null=True, help_text='"time": the clock ended the '
                                  "game after its last hand")
    played_on = serializers.DateField()
    players = GamePlayerSerializer(many=True)
    hands_entered = serializers.IntegerField()
    result = serializers.DictField(help_text="the replayed score sheet's output (SCORE_SHEET.md): ruleset, "
                                   "hands, finished, next, final, ...")


class HandRecordSerializer(OpenObjectSerializer):
    """A score-sheet hand (SCORE_SHEET.md) naming players by id: its result and the fields that result takes
    (winner, loser, han, fu, yakuman, wins, tenpai, riichi, tiles, ...)."""

    result = serializers.ChoiceField(choices=RESULTS)


class HandSerializer(HandRecordSerializer):
    """A hand as stored: its index in the game and its score-sheet record."""

    index = serializers.IntegerField(help_text="0 for the game's first hand")


class SheetPenaltySerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    points = serializers.FloatField()
    reason = serializers.CharField(allow_blank=True)


class SheetSerializer(serializers.Serializer[Any]):
    """The game as a score sheet (SCORE_SHEET.md), players named by id."""

    ruleset = serializers.CharField(help_text="the event's ruleset preset")
    overrides = serializers.DictField(help_text="the event's ruleset overrides")
    players = serializers.ListField(child=serializers.IntegerField(), help_text="player ids in seat order")
    start = serializers.DictField(required=False, help_text="where the game was taken up (round, honba, "
                                  "deposits, scores); absent for a game from its start")
    hands = HandRecordSerializer(many=True)
    penalties = SheetPenaltySerializer(many=True)
    end = serializers.ChoiceField(choices=("time",), required=False, help_text="present when the clock ended "
                                  "the game")


class SheetUpdateSerializer(serializers.Serializer[Any]):
    """A score sheet replacing every hand of the game; what it may not change must equal the game's, if sent."""

    ruleset = serializers.CharField(required=False, help_text="if sent, the event's ruleset preset")
    overrides = serializers.DictField(required=False, help_text="if sent, the event's overrides")
    players = serializers.ListField(child=serializers.IntegerField(), required=False,
                                    help_text="if sent, the game's player ids in seat order")
    start = serializers.DictField(required=False, help_text="where the game was taken up (round, honba, "
                                  "deposits, scores)")
    hands = HandRecordSerializer(many=True, required=False, help_text="every hand (none if left out)")
    penalties = SheetPenaltySerializer(many=True, required=False, help_text="if sent, the game's penalties "
                                       "unchanged (they are recorded on the event)")
    end = serializers.ChoiceField(choices=("time",), required=False, allow_null=True,
                                  help_text='"time" when the clock ended the game')


class HandChangeSerializer(serializers.Serializer[Any]):
    """One change to a game: who, when, and the hand (or sheet, or game settings) before and after."""

    at = serializers.DateTimeField()
    user = serializers.CharField(allow_null=True, help_text="the username; null for a script or a deleted user")
    action = serializers.ChoiceField(choices=HandChange.Action.choices)
    index = serializers.IntegerField(allow_null=True, help_text="the hand changed; null for a whole sheet or "
                                     "the game's settings")
    before = serializers.DictField(allow_null=True, help_text="the hand record (or sheet, or settings) before; "
                                   "null for an added hand")
    after = serializers.DictField(allow_null=True, help_text="the same after; null for a deleted hand")
    version = serializers.IntegerField(help_text="the game's version after the change")


class TableSeatSerializer(serializers.Serializer[Any]):
    wind = serializers.CharField(help_text='the seat wind ("East" first, the first dealer)')
    player = PlayerRefSerializer()


class SeatedTableSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True, help_text="the id of the table's game")
    seats = TableSeatSerializer(many=True)


class RoundTablesSerializer(serializers.Serializer[Any]):
    """A round's tables, their seats in seat order and the game opened for each."""

    round = serializers.IntegerField(help_text="the round's number")
    tables = SeatedTableSerializer(many=True)


INVALID_INPUT = OpenApiResponse(InvalidInputSerializer, description="refused input; nothing was saved")
BAD_REQUEST = OpenApiResponse(
    PolymorphicProxySerializer(component_name="BadRequest", resource_type_field_name=None,
                               serializers=[InvalidInputSerializer, FieldErrorsSerializer]),
    description="refused input, nothing saved: the score sheet's problems, or a field of the wrong type")
CONFLICT = OpenApiResponse(VersionConflictSerializer, description="the game changed since the If-Match version")
PRECONDITION_REQUIRED = detail_response("send If-Match with the game's version")
NOT_SCORER = detail_response("only the event's organisers and referees score its games")
NOT_ORGANISER = detail_response("only the event's organisers do this")
# A write to an existing game: who may, which game, and the version it is based on.
GAME_WRITE: dict[int, Any] = {401: NOT_AUTHENTICATED, 403: NOT_SCORER, 404: NOT_FOUND, 409: CONFLICT,
                              428: PRECONDITION_REQUIRED}


def visible_games(user: Any) -> QuerySet[Game]:
    return Game.objects.filter(event__in=visible_events(user)).select_related("event")


def game_json(game: Game) -> dict[str, Any]:
    """The game with its players and its replayed result in the score-sheet output shape."""
    seats = game.seats.select_related("player").order_by("seat")
    return {
        "id": game.pk,
        "event": game.event.slug,
        "table": game.table_id,
        "version": game.version,
        "status": game.status,
        "end": "time" if game.ended_by_time else None,
        "played_on": game.played_on.isoformat(),
        "players": [{"id": s.player_id, "name": s.player.name, "seat": s.seat, "substitute": s.substitute}
                    for s in seats],
        "hands_entered": game.hands.count(),
        "result": game.result,
    }


def _errors(exc: InvalidInput) -> Response:
    return Response({"detail": "invalid input; nothing was saved",
                     "errors": [{"field": p.field, "message": p.message} for p in exc.problems]},
                    status=status.HTTP_400_BAD_REQUEST)


def _conflict(exc: VersionConflict) -> Response:
    return Response({"detail": str(exc), "version": exc.current}, status=status.HTTP_409_CONFLICT)


class PreconditionRequired(APIException):
    status_code = status.HTTP_428_PRECONDITION_REQUIRED
    default_detail = ("send If-Match with the game's version (its ETag) so that a change made by someone else in "
                      "between is not overwritten")


def _version(request: Request, *, required: bool) -> int | None:
    """The version an If-Match names; 428 when a change to existing hands comes without one."""
    raw = request.headers.get("If-Match")
    if raw is None:
        if required:
            raise PreconditionRequired
        return None
    try:
        return int(raw.strip().removeprefix("W/").strip('"'))
    except ValueError:
        raise ParseError("If-Match must be the game's version, e.g. \"3\"") from None


def _written(write: Callable[[], Game], *, created: bool = False) -> Response:
    """Run one service write and answer with the game, or say why nothing was saved."""
    try:
        game = write()
    except InvalidInput as exc:
        return _errors(exc)
    except VersionConflict as exc:
        return _conflict(exc)
    return _with_etag(Response(game_json(game), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK),
                      game)


def _hand_record(request: Request) -> dict[str, Any] | Response:
    """The body as a hand record; ``index`` (as the GET shows it) is the URL's business, not the record's."""
    if not isinstance(request.data, dict):
        return _errors(InvalidInput([Problem("", "a hand is a JSON object")]))
    return {key: value for key, value in request.data.items() if key != "index"}


def _with_etag(response: Response, game: Game) -> Response:
    response["ETag"] = f'"{game.version}"'
    return response


class GameCreateSerializer(serializers.Serializer[Any]):
    event = serializers.SlugField(help_text="the event's slug")
    players = serializers.ListField(child=serializers.IntegerField(), help_text="player ids in seat order, "
                                    "East (the first dealer) first")
    substitutes = serializers.ListField(child=serializers.IntegerField(), required=False, default=list,
                                        help_text="players filling in for an absent player (ranked by the "
                                        "event's substitute rule); registered substitutes are marked anyway")
    played_on = serializers.DateField(required=False, help_text="a league counts games in its date range; "
                                      "default today")


class GameUpdateSerializer(serializers.Serializer[Any]):
    end = serializers.ChoiceField(choices=("time",), required=False, allow_null=True,
                                  help_text='"time": the clock ended the game after its last hand; null takes '
                                  "that back")
    substitutes = serializers.ListField(child=serializers.IntegerField(), required=False,
                                        help_text="the player ids who played as substitutes (the full list)")


class GamesView(APIView):
    permission_classes = (permissions.IsAuthenticatedOrReadOnly,)

    @extend_schema(parameters=[OpenApiParameter("event", str, description="an event's slug")],
                   responses=GameSerializer(many=True))
    def get(self, request: Request) -> Response:
        games = visible_games(request.user)
        if "event" in request.query_params:
            games = games.filter(event__slug=request.query_params["event"])
        return Response([game_json(g) for g in games[:500]])

    @extend_schema(request=GameCreateSerializer, parameters=[ETAG], responses={
        201: GameSerializer, 400: BAD_REQUEST, 401: NOT_AUTHENTICATED, 403: NOT_SCORER, 404: NOT_FOUND})
    def post(self, request: Request) -> Response:
        serializer = GameCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = get_object_or_404(visible_events(request.user), slug=serializer.validated_data["event"])
        if not event.can_score(request.user):
            return Response({"detail": "only the event's organisers and referees create games"},
                            status=status.HTTP_403_FORBIDDEN)
        try:
            game = services.game_create(event=event, player_ids=serializer.validated_data["players"],
                                        substitutes=serializer.validated_data["substitutes"],
                                        played_on=serializer.validated_data.get("played_on"))
        except InvalidInput as exc:
            return _errors(exc)
        return _with_etag(Response(game_json(game), status=status.HTTP_201_CREATED), game)


class _GameView(APIView):
    permission_classes = (permissions.IsAuthenticatedOrReadOnly,)

    def writing(self, request: Request, game_id: int, *, version_required: bool = True) -> tuple[Game, int | None]:
        """The game a scorer may change and the version the change is based on (If-Match)."""
        return self.game(request, game_id, write=True), _version(request, required=version_required)

    def game(self, request: Request, game_id: int, *, write: bool = False) -> Game:
        game = get_object_or_404(visible_games(request.user), pk=game_id)
        if write and not game.event.can_score(request.user):
            self.permission_denied(request, message="only the event's organisers and its referees enter and "
                                   "correct hands")
        return game


class GameView(_GameView):
    @extend_schema(parameters=[ETAG], responses={200: GameSerializer, 404: NOT_FOUND})
    def get(self, request: Request, game_id: int) -> Response:
        game = self.game(request, game_id)
        return _with_etag(Response(game_json(game)), game)

    @extend_schema(request=GameUpdateSerializer, parameters=[IF_MATCH, ETAG],
                   responses={200: GameSerializer, 400: BAD_REQUEST, **GAME_WRITE})
    def patch(self, request: Request, game_id: int) -> Response:
        """End the game by the clock (or take it back), or set who played as a substitute."""
        game, version = self.writing(request, game_id)
        serializer = GameUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        return _written(lambda: services.game_update(
            game_id=game.pk, user=request.user, version=version,
            ended_by_time=(data["end"] == "time") if "end" in data else None, substitutes=data.get("substitutes")))


class GameHandsView(_GameView):
    @extend_schema(parameters=[ETAG], responses={200: HandSerializer(many=True), 404: NOT_FOUND})
    def get(self, request: Request, game_id: int) -> Response:
        game = self.game(request, game_id)
        return _with_etag(Response([{"index": h.index, **h.record} for h in game.hands.order_by("index")]), game)

    @extend_schema(request=HandRecordSerializer, parameters=[IF_MATCH, ETAG], responses={
        201: GameSerializer, 400: INVALID_INPUT, 401: NOT_AUTHENTICATED, 403: NOT_SCORER, 404: NOT_FOUND,
        409: CONFLICT})
    def post(self, request: Request, game_id: int) -> Response:
        """Add the next hand: a score-sheet hand record naming players by id."""
        game, version = self.writing(request, game_id, version_required=False)
        record = _hand_record(request)
        if isinstance(record, Response):
            return record
        return _written(lambda: services.game_record_hand(game_id=game.pk, record=record, user=request.user,
                                                          version=version), created=True)


class GameHandView(_GameView):
    @extend_schema(parameters=[ETAG], responses={200: HandSerializer, 404: NOT_FOUND})
    def get(self, request: Request, game_id: int, index: int) -> Response:
        game = self.game(request, game_id)
        hand = get_object_or_404(game.hands, index=index)
        return _with_etag(Response({"index": hand.index, **hand.record}), game)

    @extend_schema(request=HandRecordSerializer, parameters=[IF_MATCH, ETAG],
                   responses={200: GameSerializer, 400: INVALID_INPUT, **GAME_WRITE})
    def put(self, request: Request, game_id: int, index: int) -> Response:
        """Replace a hand; every later hand is replayed. An ``index`` in the body (as GET shows it) is ignored."""
        return self._change(request, game_id, index, merge=False)

    @extend_schema(request=HandRecordSerializer, parameters=[IF_MATCH, ETAG],
                   responses={200: GameSerializer, 400: INVALID_INPUT, **GAME_WRITE})
    def patch(self, request: Request, game_id: int, index: int) -> Response:
        """Change some fields of a hand (a null value removes the field)."""
        return self._change(request, game_id, index, merge=True)

    @extend_schema(parameters=[IF_MATCH, ETAG], responses={200: GameSerializer, 400: INVALID_INPUT, **GAME_WRITE})
    def delete(self, request: Request, game_id: int, index: int) -> Response:
        game, version = self.writing(request, game_id)
        return _written(lambda: services.game_delete_hand(game_id=game.pk, index=index, user=request.user,
                                                          version=version))

    def _change(self, request: Request, game_id: int, index: int, *, merge: bool) -> Response:
        game, version = self.writing(request, game_id)
        record = _hand_record(request)
        if isinstance(record, Response):
            return record
        if merge:
            hand = get_object_or_404(game.hands, index=index)
            record = {k: v for k, v in {**hand.record, **record}.items() if v is not None}
        return _written(lambda: services.game_change_hand(game_id=game.pk, index=index, record=record,
                                                          user=request.user, version=version))


class GameSheetView(_GameView):
    @extend_schema(parameters=[ETAG], responses={200: SheetSerializer, 404: NOT_FOUND})
    def get(self, request: Request, game_id: int) -> Response:
        """The whole game as a score sheet (players by id)."""
        game = self.game(request, game_id)
        return _with_etag(Response(services.game_sheet(game, by="id")), game)

    @extend_schema(request=SheetUpdateSerializer, parameters=[IF_MATCH, ETAG],
                   responses={200: GameSerializer, 400: INVALID_INPUT, **GAME_WRITE})
    def put(self, request: Request, game_id: int) -> Response:
        """Replace every hand from a score sheet naming players by id (its players and ruleset must match)."""
        game, version = self.writing(request, game_id)
        data = request.data if isinstance(request.data, dict) else {}
        problems = services.sheet_header_problems(game, data)
        if problems:
            return _errors(InvalidInput(problems))
        return _written(lambda: services.game_put_sheet(
            game_id=game.pk, hands=list(data.get("hands", [])), user=request.user, version=version,
            start=data.get("start", {}), ended_by_time=data.get("end") == "time"))


class GameHistoryView(_GameView):
    @extend_schema(responses={200: HandChangeSerializer(many=True), 401: NOT_AUTHENTICATED,
                              403: detail_response("the history is for the event's organisers"), 404: NOT_FOUND})
    def get(self, request: Request, game_id: int) -> Response:
        """Every change to the game's hands; for the event's organisers."""
        game = self.game(request, game_id)
        if not game.event.is_organiser(request.user):
            self.permission_denied(request, message="the history is for the event's organisers")
        changes = HandChange.objects.filter(game=game).select_related("user")
        return Response([{"at": c.at, "user": c.user.get_username() if c.user else None, "action": c.action,
                          "index": c.index, "before": c.before, "after": c.after, "version": c.version}
                         for c in changes])


class StandingSerializer(serializers.ModelSerializer[Standing]):
    """A player's line in the event's ranking (points as numbers)."""

    player = PlayerRefSerializer(read_only=True)
    points = serializers.FloatField(read_only=True)
    table_points = serializers.FloatField(read_only=True, allow_null=True, help_text="MCR table points; null "
                                          "otherwise")
    average_rank = serializers.FloatField(read_only=True, allow_null=True)
    penalties = serializers.FloatField(read_only=True)

    class Meta:
        model = Standing
        fields = ("rank", "player", "points", "table_points", "score", "games", "average_rank", "penalties")
        read_only_fields = fields


class StandingsView(APIView):
    """The stored standings: one query, whatever the event's size."""

    permission_classes = (permissions.AllowAny,)

    @extend_schema(responses={200: StandingSerializer(many=True), 404: NOT_FOUND})
    def get(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(visible_events(request.user), slug=slug)
        rows = Standing.objects.filter(event=event).select_related("player")
        return Response(StandingSerializer(rows, many=True).data)


class SeatingSerializer(serializers.Serializer[Any]):
    method = serializers.ChoiceField(choices=("random", "swiss"))
    seed = serializers.IntegerField(required=False, allow_null=True, default=None)


class RoundSeatingView(APIView):
    """Seat a round: tables with their seats (East first) and a game per table."""

    permission_classes = (permissions.IsAuthenticatedOrReadOnly,)

    @extend_schema(responses={200: RoundTablesSerializer, 404: NOT_FOUND})
    def get(self, request: Request, slug: str, number: int) -> Response:
        event = get_object_or_404(visible_events(request.user), slug=slug)
        round_ = get_object_or_404(event.rounds, number=number)
        return Response(_round_tables(round_))

    @extend_schema(request=SeatingSerializer, responses={
        201: RoundTablesSerializer, 400: BAD_REQUEST, 401: NOT_AUTHENTICATED, 403: NOT_ORGANISER, 404: NOT_FOUND})
    def post(self, request: Request, slug: str, number: int) -> Response:
        event = organised_event(request, slug, "seat rounds")
        serializer = SeatingSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            services.round_seat(event=event, number=number, method=serializer.validated_data["method"],
                       seed=serializer.validated_data["seed"])
        except InvalidInput as exc:
            return _errors(exc)
        return Response(_round_tables(event.rounds.get(number=number)), status=status.HTTP_201_CREATED)


class ScheduleSerializer(serializers.Serializer[Any]):
    csv = serializers.CharField(trim_whitespace=False, help_text="header round,table then one column per seat "
                                "(east,south,west,north or seat1..seatN), one line per table, player ids")


class EventScheduleView(APIView):
    """Seat every round from a predefined schedule (CSV): all rounds or none."""

    permission_classes = (permissions.IsAuthenticatedOrReadOnly,)

    @extend_schema(request=ScheduleSerializer, responses={
        201: RoundTablesSerializer(many=True), 400: BAD_REQUEST, 401: NOT_AUTHENTICATED, 403: NOT_ORGANISER,
        404: NOT_FOUND})
    def post(self, request: Request, slug: str) -> Response:
        event = organised_event(request, slug, "seat rounds")
        serializer = ScheduleSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            services.schedule_import(event=event, text=serializer.validated_data["csv"])
        except InvalidInput as exc:
            return _errors(exc)
        rounds = event.rounds.filter(tables__isnull=False).distinct()
        return Response([_round_tables(r) for r in rounds], status=status.HTTP_201_CREATED)


def _round_tables(round_: Round) -> dict[str, Any]:
    winds = round_.event.ruleset().seat_winds
    tables = round_.tables.prefetch_related("seats__player").select_related("game")
    return {"round": round_.number, "tables": [
        {"number": t.number, "game": getattr(getattr(t, "game", None), "pk", None),
         "seats": [{"wind": winds[s.position], "player": {"id": s.player_id, "name": s.player.name}}
                   for s in t.seats.all()]}
        for t in tables]}
