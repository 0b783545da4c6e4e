"""Standings: totals, shared ranks, league options, substitutes, event penalties, MCR table points."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from scoring.models import GamePlayer, Penalty, Standing
from scoring.services import game_create, game_put_sheet, standings_recompute
from tournament.models import Event, Player, Registration

pytestmark = pytest.mark.django_db


def league(**options: Any) -> tuple[Event, list[int]]:
    event = Event.objects.create(name="League", slug="league", kind="league", **options)
    players = [Player.objects.create(name=name) for name in ("Ann", "Bo", "Cy", "Di", "Ed")]
    Registration.objects.bulk_create([Registration(event=event, player=p) for p in players])
    return event, [p.pk for p in players]


def play(event: Event, seats: list[int], hands: list[dict[str, Any]], substitute: int | None = None) -> None:
    """A game ended by the clock after ``hands``."""
    game = game_create(event=event, player_ids=seats, substitutes=[substitute] if substitute else ())
    game_put_sheet(game_id=game.pk, hands=hands, user=None, version=None, ended_by_time=True)


def table(event: Event) -> list[tuple[int | None, str, Decimal, int]]:
    standings_recompute(event)
    return [(s.rank, s.player.name, s.points, s.games) for s in Standing.objects.filter(event=event)]


def ron(winner: int, loser: int, han: int = 3, fu: int = 40) -> dict[str, Any]:
    return {"result": "ron", "winner": winner, "loser": loser, "han": han, "fu": fu}


def test_totals_and_shared_ranks():
    event, (ann, bo, cy, di, _ed) = league()
    # wrc-2025: 7700 from Cy. Ann 37700 (+7.7 + 15), Bo and Di tie at 30000 (share +5 and −5), Cy 22300 (−7.7 − 15).
    play(event, [ann, bo, cy, di], [ron(ann, cy)])
    assert table(event) == [(1, "Ann", Decimal("22.70"), 1), (2, "Bo", Decimal("0.00"), 1),
                            (2, "Di", Decimal("0.00"), 1), (4, "Cy", Decimal("-22.70"), 1),
                            (None, "Ed", Decimal("0.00"), 0)]


def test_min_games_best_games_and_average():
    event, (ann, bo, cy, di, ed) = league(min_games=2, best_games=1)
    play(event, [ann, bo, cy, di], [ron(ann, cy)])
    play(event, [ann, bo, cy, ed], [ron(cy, ann)])
    rows = {name: (rank, points, games) for rank, name, points, games in table(event)}
    # Ann's best game of her two counts (dealer ron 7700: +22.7); Cy's best is his non-dealer 5200 (+20.2);
    # Di played once: not ranked yet.
    assert rows["Ann"] == (1, Decimal("22.70"), 2)
    assert rows["Cy"] == (2, Decimal("20.20"), 2)
    assert rows["Di"][0] is None
    event.best_games, event.ranking = None, "average"
    event.save()
    rows = {name: (rank, points, games) for rank, name, points, games in table(event)}
    assert rows["Ann"] == (1, Decimal("1.25"), 2)  # (22.7 − 20.2) / 2
    assert rows["Bo"] == (2, Decimal("0.00"), 2)
    assert rows["Cy"] == (3, Decimal("-1.25"), 2)


def test_substitute_results_and_event_penalties():
    event, (ann, bo, cy, _di, ed) = league()
    play(event, [ann, bo, cy, ed], [ron(ed, cy)], substitute=ed)
    Penalty.objects.create(event=event, player=Player.objects.get(pk=bo), points=Decimal("-5"), reason="late")
    rows = {name: (points, games) for _rank, name, points, games in table(event)}
    assert rows["Ed"] == (Decimal("0"), 0)  # a substitute's game is not ranked as theirs
    assert rows["Bo"] == (Decimal("-5.00"), 1)  # 0 in the game, −5 for the event
    event.substitute_points = Decimal("-10")
    event.save()
    rows = {name: (points, games) for _rank, name, points, games in table(event)}
    assert rows["Ed"] == (Decimal("-10.00"), 1)
    assert GamePlayer.objects.filter(substitute=True).count() == 1


def test_mcr_ranks_by_table_points_then_score():
    event = Event.objects.create(name="MCR", slug="mcr", ruleset_key="mcr")
    players = [Player.objects.create(name=name) for name in ("Ann", "Bo", "Cy", "Di")]
    ids = [p.pk for p in players]
    # Game 1: Ann wins 10 fan self-drawn (+54, others −18): table points 4, 1, 1, 1 (three-way tie shares 2+1+0).
    play(event, ids, [{"result": "tsumo", "winner": ids[0], "fan": 10}])
    # Game 2: Bo wins 8 fan on Cy's discard: Bo +32, Cy −16, Ann −8, Di −8 -> Bo 4, Ann/Di 1.5, Cy 0.
    play(event, ids, [{"result": "ron", "winner": ids[1], "loser": ids[2], "fan": 8}])
    standings_recompute(event)
    rows = [(s.rank, s.player.name, s.table_points, s.points) for s in Standing.objects.filter(event=event)]
    assert rows == [(1, "Ann", Decimal("5.50"), Decimal("46.00")), (2, "Bo", Decimal("5.00"), Decimal("14.00")),
                    (3, "Di", Decimal("2.50"), Decimal("-26.00")), (4, "Cy", Decimal("1.00"), Decimal("-34.00"))]
