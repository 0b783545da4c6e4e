"""A game ended by time (issue 24): it ends after its last hand entered and takes no more until it is reopened; a
table that has not started is not ended by time; the end and the reopening are entries of the game's history; the
standings follow."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from scoring.models import GameResult, HandChange, Standing
from scoring.services import chain
from scoring.services.hands import (
    game_change_hand,
    game_delete_hand,
    game_preview_hand,
    game_put_sheet,
    game_record_hand,
    game_update,
)
from scoring.services.rounds import game_end_by_time, game_reopen, round_end_by_time
from scoring.sheet.record import HandRecord
from tests.factories import RoundFactory, TableFactory, played, registered
from tournament.errors import Conflict
from tournament.models import Event, Game, Player

pytestmark = pytest.mark.django_db


def ron(winner: Player, loser: Player, han: int = 3) -> HandRecord:
    return {"result": "ron", "winner": winner.pk, "loser": loser.pk, "han": han, "fu": 40}


def refused(call: Any) -> str:
    with pytest.raises(Conflict) as caught:
        call()
    [problem] = caught.value.problems
    assert problem.field == "end"
    return problem.message


@pytest.mark.parametrize(
    "end",
    [
        lambda game, user: game_update(game_id=game.pk, user=user, version=None, ended_by_time=True),
        lambda game, user: game_end_by_time(game=game, user=user),
        lambda game, user: game_put_sheet(game_id=game.pk, hands=[], user=user, version=None, ended_by_time=True),
    ],
)
def test_a_game_with_no_hand_is_not_ended_by_time(event: Event, players: list[Player], organiser: User, end: Any):
    game = played(event, players)
    message = refused(lambda: end(game, organiser))
    assert message == "no hand has been entered: a game that has not started cannot be ended by time"
    game.refresh_from_db()
    assert (game.status, game.ended_by_time, game.version) == (Game.Status.PLAYING, False, 1)
    assert not HandChange.objects.filter(game=game).exists()
    assert not GameResult.objects.filter(game=game, finished=True).exists()
    assert sum(Standing.objects.filter(event=event).values_list("games", flat=True)) == 0


def test_a_game_ended_by_time_takes_no_more_hands(event: Event, players: list[Player]):
    ann, bo, cy, di = players
    game = played(event, players, [ron(ann, cy), ron(bo, di)])
    game = game_end_by_time(game=game, user=None)
    final = game.result["final"]
    assert (game.status, game.result["end_reason"]) == (Game.Status.FINISHED, "time")
    for add in (
        lambda: game_record_hand(game_id=game.pk, record=ron(cy, ann), user=None, version=None),
        lambda: game_preview_hand(game_id=game.pk, record=ron(cy, ann)),
    ):
        assert refused(add) == (
            "this game was ended by time after hand 2: no more hands can be added until an organiser reopens it"
        )
    game.refresh_from_db()
    assert (game.hands.count(), game.result["final"]) == (2, final)
    # Its hands are corrected as a game ended by play's are: the game still ends after its last hand.
    corrected = game_change_hand(game_id=game.pk, index=1, record=ron(bo, di, 4), user=None, version=None)
    assert (corrected.status, corrected.result["end_reason"]) == (Game.Status.FINISHED, "time")
    deleted = game_delete_hand(game_id=game.pk, index=1, user=None, version=None)
    assert (deleted.status, len(deleted.result["hands"])) == (Game.Status.FINISHED, 1)
    assert refused(lambda: game_delete_hand(game_id=game.pk, index=0, user=None, version=None)) == (
        "this is the only hand of a game ended by time: reopen the game to delete it"
    )
    assert game.hands.count() == 1


def test_a_game_is_reopened_and_ended_again_on_its_verified_history(
    event: Event, players: list[Player], django_capture_on_commit_callbacks: Any
):
    ann, _bo, cy, _di = players
    game = played(event, players, [ron(ann, cy)])

    def games_counted() -> int:
        return sum(Standing.objects.filter(event=event).values_list("games", flat=True))

    with django_capture_on_commit_callbacks(execute=True):
        game_end_by_time(game=game, user=None)
    assert games_counted() == 4
    with django_capture_on_commit_callbacks(execute=True):
        reopened = game_reopen(game=Game.objects.get(pk=game.pk), user=None)
    assert (reopened.status, reopened.ended_by_time) == (Game.Status.PLAYING, False)
    assert games_counted() == 0  # the standings follow the reopening
    game_record_hand(game_id=game.pk, record=ron(cy, ann), user=None, version=None)
    with django_capture_on_commit_callbacks(execute=True):
        game_end_by_time(game=Game.objects.get(pk=game.pk), user=None)
    clock = [
        (c.before, c.after) for c in HandChange.objects.filter(game=game, action=HandChange.Action.GAME).order_by("id")
    ]
    ended: dict[str, Any] = {"end": "time", "substitutes": []}
    opened: dict[str, Any] = {"end": None, "substitutes": []}
    assert clock == [(opened, ended), (ended, opened), (opened, ended)]
    assert chain.verify_game(game).intact
    assert games_counted() == 4
    assert refused(lambda: game_reopen(game=played(event, players), user=None)) == "this game is not ended by time"


def test_a_game_finished_by_play_is_not_ended_by_time(event: Event, players: list[Player]):
    # Eight draws with nobody tenpai: the dealership passes each time and the East-South game is over.
    game = played(event, players, [{"result": "draw", "tenpai": []}] * 8)
    assert game.status == Game.Status.FINISHED
    assert refused(lambda: game_update(game_id=game.pk, user=None, version=None, ended_by_time=True)) == (
        "this game is already finished"
    )
    assert not Game.objects.get(pk=game.pk).ended_by_time


def test_the_round_ends_the_tables_that_played_and_leaves_the_others(event: Event):
    round_ = RoundFactory.create(event=event, number=1)
    names = [f"P{i}" for i in range(12)]
    everyone = registered(event, *names)
    games = [
        played(event, everyone[n : n + 4], table=TableFactory.create(round=round_, number=n // 4 + 1))
        for n in (0, 4, 8)
    ]
    game_record_hand(game_id=games[0].pk, record=ron(everyone[0], everyone[2]), user=None, version=None)
    game_record_hand(game_id=games[2].pk, record={"result": "draw", "tenpai": []}, user=None, version=None)
    done = round_end_by_time(round_=round_, user=None)
    assert [g.pk for g in done.ended] == [games[0].pk, games[2].pk]
    assert [g.pk for g in done.not_started] == [games[1].pk]
    assert list(
        Game.objects.filter(table__round=round_).order_by("table__number").values_list("ended_by_time", "status")
    ) == [(True, Game.Status.FINISHED), (False, Game.Status.PLAYING), (True, Game.Status.FINISHED)]


def test_a_game_recorded_by_its_end_scores_is_corrected_not_reopened(event: Event, players: list[Player]):
    ann, _bo, cy, _di = players
    game = played(event, players)
    game = game_put_sheet(
        game_id=game.pk,
        hands=[],
        user=None,
        version=None,
        ended_by_time=True,
        start={"scores": [38000, 30000, 22000, 30000], "deposits": 0},
    )
    assert game.recorded_by_scores
    assert refused(lambda: game_reopen(game=game, user=None)) == (
        "this game was recorded by its end scores: correct its scores instead of reopening it"
    )
    assert refused(lambda: game_record_hand(game_id=game.pk, record=ron(ann, cy), user=None, version=None)) == (
        "this game was recorded by its end scores: no hands can be added to it"
    )
    # Corrected: other end scores, or expanded into its hands.
    game = game_put_sheet(
        game_id=game.pk,
        hands=[],
        user=None,
        version=None,
        ended_by_time=True,
        start={"scores": [40000, 30000, 20000, 30000], "deposits": 0},
    )
    assert [row["score"] for row in game.result["final"]] == [40000, 30000, 30000, 20000]
    game = game_put_sheet(
        game_id=game.pk, hands=[ron(ann, cy, 4)], user=None, version=None, start={}, ended_by_time=True
    )
    assert not game.recorded_by_scores
    assert chain.verify_game(game).intact
