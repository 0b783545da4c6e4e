"""Games, their hands and sheets, and their history.

A game's version is its ETag. A write that changes existing hands (PUT,
PATCH, DELETE of a hand, PUT of the sheet, PATCH of the game) must send
``If-Match`` with the version it read, and gets 409 if the game changed
since; adding a hand may send it too. Refused input is a 400 whose
``errors`` name each field with the score sheet's message; nothing is saved
then.
"""

from __future__ import annotations

from typing import Any, cast

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.generics import GenericAPIView, ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import (
    CONFLICT,
    INVALID,
    NOT_AUTHENTICATED,
    NOT_FOUND,
    NOT_SCORER,
    PRECONDITION_REQUIRED,
    error_response,
)
from api.idempotency import IDEMPOTENCY_KEY, KEY_REUSED, idempotent
from api.openapi import ETAG, IF_MATCH
from api.serializers.games import (
    ChainSerializer,
    GameCreateSerializer,
    GameSerializer,
    GameUpdateSerializer,
    HandChangePageSerializer,
    HandChangeSerializer,
    HandRecordSerializer,
    HandSerializer,
    SheetSerializer,
    SheetUpdateSerializer,
)
from api.views.game_access import answer, game_for, version_of, writable
from rules.errors import Refusal
from scoring.models import Hand, HandChange
from scoring.services import chain, hands
from scoring.services.games import game_create
from scoring.services.replay import game_sheet
from scoring.services.stage_checks import cut_change_confirmed
from scoring.sheet.record import HandRecord
from scoring.sheet.schema import BY_ID, schema_problems
from scoring.sheet.solo import with_results
from tournament.models import Game
from tournament.selectors import (
    SLUG_PATTERN,
    is_slug,
    visible_events,
    visible_games,
    with_seats,
)

# A write to an existing game: who may, which game, and the version it is based on.
GAME_WRITE: dict[int, Any] = {
    401: NOT_AUTHENTICATED,
    403: NOT_SCORER,
    404: NOT_FOUND,
    409: CONFLICT,
    428: PRECONDITION_REQUIRED,
}


def hand_record(request: Request) -> HandRecord:
    """The body as a hand record; ``index`` (as the GET shows it) is the URL's business, not the record's. Its
    fields are the replay's to check (the schema of scoring.sheet.record): a wrong one is refused there."""
    if not isinstance(request.data, dict):
        raise Refusal.one("", "a hand is a JSON object")
    return cast(HandRecord, {key: value for key, value in request.data.items() if key != "index"})


@extend_schema_view(
    get=extend_schema(
        parameters=[OpenApiParameter("event", str, description="an event's slug", pattern=SLUG_PATTERN)],
        responses={200: GameSerializer(many=True), 400: INVALID, 404: NOT_FOUND},
    )
)
class GamesView(ListAPIView[Game]):
    """Games (newest first), of one event with ``?event=``; referees and organisers create them."""

    serializer_class = GameSerializer

    def get_queryset(self) -> QuerySet[Game]:
        games = with_seats(visible_games(self.request.user))
        if "event" in self.request.query_params:
            slug = self.request.query_params["event"]
            if not is_slug(slug):  # a NUL or a surrogate would reach the query (PostgreSQL refuses them)
                raise Refusal.one("event", "must be an event's slug: letters, digits, - and _")
            games = games.filter(event__slug=slug)
        return games.order_by("-created_at", "-id")

    @extend_schema(
        request=GameCreateSerializer,
        parameters=[ETAG, IDEMPOTENCY_KEY],
        responses={
            201: GameSerializer,
            400: INVALID,
            401: NOT_AUTHENTICATED,
            403: NOT_SCORER,
            404: NOT_FOUND,
            422: KEY_REUSED,
        },
    )
    @idempotent
    def post(self, request: Request) -> Response:
        serializer = GameCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        event = get_object_or_404(visible_events(request.user), slug=data["event"])
        if not event.can_score(request.user):
            raise PermissionDenied("only the event's organisers and referees create games")
        game = game_create(
            event=event, player_ids=data["players"], substitutes=data["substitutes"], played_on=data.get("played_on")
        )
        return answer(game, status.HTTP_201_CREATED)


CONFIRM_CUT = OpenApiParameter(
    "confirm_cut_change",
    bool,
    required=False,
    description="an organiser's "
    "confirmation of a correction to an earlier stage that changes who went on to a "
    "stage already seated: the cut is kept as played and the decision recorded",
)


class _GameView(GenericAPIView[Game]):
    def game(self, *, write: bool = False) -> Game:
        return game_for(self.request, self.kwargs["game_id"], write=write)

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        # Asked for here; whether the writer may (an organiser) is the service's to say.
        if request.GET.get("confirm_cut_change", "").lower() in {"1", "true", "yes"}:
            with cut_change_confirmed():
                return super().dispatch(request, *args, **kwargs)
        return super().dispatch(request, *args, **kwargs)


class GameView(_GameView):
    @extend_schema(parameters=[ETAG], responses={200: GameSerializer, 404: NOT_FOUND})
    def get(self, request: Request, game_id: int) -> Response:
        return answer(self.game())

    @extend_schema(
        request=GameUpdateSerializer,
        parameters=[IF_MATCH, ETAG],
        responses={200: GameSerializer, 400: INVALID, **GAME_WRITE},
    )
    def patch(self, request: Request, game_id: int) -> Response:
        """End the game by the clock (or take it back), or set who played as a substitute."""
        version = version_of(request, required=False)
        serializer = GameUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        return answer(
            hands.game_update(
                game_id=game_id,
                user=request.user,
                version=version,
                ended_by_time=(data["end"] == "time") if "end" in data else None,
                substitutes=data.get("substitutes"),
                locate=writable(request, game_id, version=version, required=True),
            )
        )


class GameHandsView(_GameView):
    serializer_class = HandSerializer

    @extend_schema(parameters=[ETAG], responses={200: HandSerializer(many=True), 404: NOT_FOUND})
    def get(self, request: Request, game_id: int) -> Response:
        game = self.game()
        page = self.paginate_queryset(Hand.objects.filter(game=game).order_by("index"))  # type: ignore[arg-type]
        response = self.get_paginated_response(
            HandSerializer([{"index": h.index, **h.record} for h in page or []], many=True).data
        )
        response["ETag"] = f'"{game.version}"'
        return response

    @extend_schema(
        request=HandRecordSerializer,
        parameters=[IF_MATCH, ETAG, IDEMPOTENCY_KEY, CONFIRM_CUT],
        responses={
            201: GameSerializer,
            400: INVALID,
            401: NOT_AUTHENTICATED,
            403: NOT_SCORER,
            404: NOT_FOUND,
            409: CONFLICT,
            422: KEY_REUSED,
        },
    )
    @idempotent
    def post(self, request: Request, game_id: int) -> Response:
        """Add the next hand: a score-sheet hand record naming players by id."""
        version = version_of(request, required=False)
        written = hands.game_record_hand(
            game_id=game_id,
            record=hand_record(request),
            user=request.user,
            version=version,
            locate=writable(request, game_id, version=version, required=False),
        )
        return answer(written, status.HTTP_201_CREATED)


class GameHandView(_GameView):
    @extend_schema(parameters=[ETAG], responses={200: HandSerializer, 404: NOT_FOUND})
    def get(self, request: Request, game_id: int, index: int) -> Response:
        game = self.game()
        hand = get_object_or_404(game.hands, index=index)
        response = Response(HandSerializer({"index": hand.index, **hand.record}).data)
        response["ETag"] = f'"{game.version}"'
        return response

    @extend_schema(
        request=HandRecordSerializer,
        parameters=[IF_MATCH, ETAG, CONFIRM_CUT],
        responses={200: GameSerializer, 400: INVALID, **GAME_WRITE},
    )
    def put(self, request: Request, game_id: int, index: int) -> Response:
        """Replace a hand; every later hand is replayed. An ``index`` in the body (as GET shows it) is ignored."""
        return self._change(request, index, merge=False)

    @extend_schema(
        request=HandRecordSerializer,
        parameters=[IF_MATCH, ETAG, CONFIRM_CUT],
        responses={200: GameSerializer, 400: INVALID, **GAME_WRITE},
    )
    def patch(self, request: Request, game_id: int, index: int) -> Response:
        """Change some fields of a hand (a null value removes the field)."""
        return self._change(request, index, merge=True)

    @extend_schema(
        parameters=[IF_MATCH, ETAG, CONFIRM_CUT], responses={200: GameSerializer, 400: INVALID, **GAME_WRITE}
    )
    def delete(self, request: Request, game_id: int, index: int) -> Response:
        version = version_of(request, required=False)
        locate = writable(request, game_id, version=version, required=True)
        return answer(
            hands.game_delete_hand(game_id=game_id, index=index, user=request.user, version=version, locate=locate)
        )

    def _change(self, request: Request, index: int, *, merge: bool) -> Response:
        game_id: int = self.kwargs["game_id"]
        version = version_of(request, required=False)
        locate = writable(request, game_id, version=version, required=True)
        record = hand_record(request)
        if merge:  # the hand as stored, read before the write: a PATCH costs a read more than a PUT
            hand = get_object_or_404(self.game(write=True).hands, index=index)
            # The stored fields the body leaves out, less those it sets to null; the replay checks the result.
            record = cast(HandRecord, {k: v for k, v in {**hand.record, **record}.items() if v is not None})
        written = hands.game_change_hand(
            game_id=game_id, index=index, record=record, user=request.user, version=version, locate=locate
        )
        return answer(written)


def sheet_body(request: Request, game: Game) -> dict[str, Any]:
    """A sheet PUT's body, checked before anything is written: what it may not change against the game, and its
    start and hands against the score sheet's schema, so that the write only ever sees objects where it expects
    them (the replay then checks the rules)."""
    data = request.data
    if not isinstance(data, dict):  # not an empty sheet: a body that is no sheet must not wipe the game's hands
        raise Refusal.one("", "a score sheet is a JSON object")
    problems = hands.sheet_header_problems(game, data)
    written = {key: data[key] for key in ("start", "hands") if key in data}
    named = {p.field for p in problems}
    problems += [
        p
        for p in schema_problems(with_results({**game_sheet(game, []), **written}), players=BY_ID)
        if p.field not in named
    ]
    if problems:
        raise Refusal(problems)
    return data


class GameSheetView(_GameView):
    @extend_schema(parameters=[ETAG], responses={200: SheetSerializer, 404: NOT_FOUND})
    def get(self, request: Request, game_id: int) -> Response:
        """The whole game as a score sheet (players by id)."""
        game = self.game()
        response = Response(SheetSerializer(game_sheet(game)).data)
        response["ETag"] = f'"{game.version}"'
        return response

    @extend_schema(
        request=SheetUpdateSerializer,
        parameters=[IF_MATCH, ETAG, CONFIRM_CUT],
        responses={200: GameSerializer, 400: INVALID, **GAME_WRITE},
    )
    def put(self, request: Request, game_id: int) -> Response:
        """Replace every hand from a score sheet naming players by id (its players and ruleset must match)."""
        game, version = self.game(write=True), version_of(request, required=True)
        data = sheet_body(request, game)
        return answer(
            hands.game_put_sheet(
                game_id=game.pk,
                hands=list(data.get("hands", [])),
                user=request.user,
                version=version,
                start=data.get("start", {}),
                ended_by_time=data.get("end") == "time",
            )
        )


VERIFY = OpenApiParameter(
    "verify",
    bool,
    description="answer only whether the history's hash chain holds, "
    "with its head and the event's; public for a public event",
)
KEPT = OpenApiParameter(
    "head",
    str,
    description="with verify=1: a head kept from the game page, the confirmation "
    "or the printed result (8 or more of its first hex digits), looked for in the history",
)


@extend_schema_view(
    get=extend_schema(
        description="Every change to the game's hands, each sealed onto a hash chain; for the event's organisers. "
        "With verify=1: whether the chain holds, for anyone who may see the game.",
        parameters=[VERIFY, KEPT],
        responses={
            200: PolymorphicProxySerializer(
                component_name="GameHistoryAnswer",
                resource_type_field_name=None,
                serializers=[HandChangePageSerializer, ChainSerializer],
            ),
            401: NOT_AUTHENTICATED,
            403: error_response("the history is for the event's organisers"),
            404: NOT_FOUND,
        },
    )
)
class GameHistoryView(GenericAPIView[HandChange]):
    serializer_class = HandChangeSerializer

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if request.query_params.get("verify", "").lower() in ("1", "true"):
            game = game_for(request, kwargs["game_id"])
            if not game.event.public and not game.event.is_organiser(request.user):
                self.permission_denied(request, message="the history of a private event is for its organisers")
            report, head = chain.verify_game(game), request.query_params.get("head")
            kept = chain.kept_head(game, head) if head is not None else None
            return Response(
                ChainSerializer(
                    {
                        "head": report.head,
                        "event_head": chain.event_head(game.event),
                        "entries": report.entries,
                        "intact": report.intact,
                        "problem": report.problem,
                        "unsealed": report.unsealed,
                        "kept": kept,
                    }
                ).data
            )
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    def get_queryset(self) -> QuerySet[HandChange]:
        game = game_for(self.request, self.kwargs["game_id"])
        if not game.event.is_organiser(self.request.user):
            # 401 for a visitor who has not signed in (who might be an organiser), 403 for anyone else.
            self.permission_denied(self.request, message="the history is for the event's organisers")
        return HandChange.objects.filter(game=game).order_by("id")
