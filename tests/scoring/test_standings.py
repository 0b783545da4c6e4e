"""Standings: totals, shared ranks, league options, substitutes, event penalties, MCR table points."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from scoring.models import Penalty, Standing
from scoring.services.games import game_create
from scoring.services.hands import game_put_sheet
from scoring.services.standings import standings_recompute
from scoring.services.standings_export import standings_table_csv
from scoring.sheet.record import HandRecord
from tests.factories import EventFactory, played, registered
from tournament.models import Event, Player, Registration, Seat

pytestmark = pytest.mark.django_db


def league(**options: Any) -> tuple[Event, list[int]]:
    event = Event.objects.create(name="League", slug="league", kind="league", **options)
    players = [Player.objects.create(name=name) for name in ("Ann", "Bo", "Cy", "Di", "Ed")]
    Registration.objects.bulk_create([Registration(event=event, player=p) for p in players])
    return event, [p.pk for p in players]


def play(event: Event, seats: list[int], hands: list[HandRecord], substitute: int | None = None) -> None:
    """A game ended by the clock after ``hands``."""
    game = game_create(event=event, player_ids=seats, substitutes=[substitute] if substitute else ())
    game_put_sheet(game_id=game.pk, hands=hands, user=None, version=None, ended_by_time=True)


def table(event: Event) -> list[tuple[int | None, str, Decimal, int]]:
    standings_recompute(event)
    return [(s.rank, s.player.name, s.points, s.games) for s in Standing.objects.filter(event=event)]


def ron(winner: int, loser: int, han: int = 3, fu: int = 40) -> HandRecord:
    return {"result": "ron", "winner": winner, "loser": loser, "han": han, "fu": fu}


def test_totals_and_shared_ranks():
    event, (ann, bo, cy, di, _ed) = league()
    # wrc-2025: 7700 from Cy. Ann 37700 (+7.7 + 15), Bo and Di tie at 30000 (share +5 and −5), Cy 22300 (−7.7 − 15).
    play(event, [ann, bo, cy, di], [ron(ann, cy)])
    assert table(event) == [
        (1, "Ann", Decimal("22.70"), 1),
        (2, "Bo", Decimal("0.00"), 1),
        (2, "Di", Decimal("0.00"), 1),
        (4, "Cy", Decimal("-22.70"), 1),
        (None, "Ed", Decimal("0.00"), 0),
    ]


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
    assert Seat.objects.filter(substitute=True).count() == 1


def test_mcr_ranks_by_table_points_then_score():
    event = Event.objects.create(name="MCR", slug="mcr", ruleset_key="mcr")
    players = registered(event, "Ann", "Bo", "Cy", "Di")
    ids = [p.pk for p in players]
    # Game 1: Ann wins 10 fan self-drawn (+54, others −18): table points 4, 1, 1, 1 (three-way tie shares 2+1+0).
    play(event, ids, [{"result": "tsumo", "winner": ids[0], "fan": 10}])
    # Game 2: Bo wins 8 fan on Cy's discard: Bo +32, Cy −16, Ann −8, Di −8 -> Bo 4, Ann/Di 1.5, Cy 0.
    play(event, ids, [{"result": "ron", "winner": ids[1], "loser": ids[2], "fan": 8}])
    standings_recompute(event)
    rows = [(s.rank, s.player.name, s.table_points, s.points) for s in Standing.objects.filter(event=event)]
    assert rows == [
        (1, "Ann", Decimal("5.50"), Decimal("46.00")),
        (2, "Bo", Decimal("5.00"), Decimal("14.00")),
        (3, "Di", Decimal("2.50"), Decimal("-26.00")),
        (4, "Cy", Decimal("1.00"), Decimal("-34.00")),
    ]


def test_tiebreaks_split_equal_points_in_the_events_order():
    event, (ann, bo, cy, di, _ed) = league()
    # Bo wins 5200 from Cy, then Cy wins 5200 from Bo: ±20.2 each way; Ann and Di share 2nd/3rd twice (0).
    play(event, [ann, bo, cy, di], [ron(bo, cy)])
    play(event, [ann, bo, cy, di], [ron(cy, bo)])
    ranks = {name: rank for rank, name, _points, _games in table(event)}
    assert [ranks[n] for n in ("Ann", "Bo", "Cy", "Di")] == [1, 1, 1, 1]  # all on 0.00: shared
    event.tiebreaks = ["average_rank", "first_places"]  # all average 2.5; Bo and Cy each won once
    event.save()
    rows = table(event)
    assert [(rank, name) for rank, name, _p, _g in rows[:4]] == [(1, "Bo"), (1, "Cy"), (3, "Ann"), (3, "Di")]
    line = Standing.objects.get(event=event, player_id=bo)
    assert (line.first_places, line.best_game, line.average_rank) == (1, Decimal("20.20"), Decimal("2.50"))


def test_league_counts_the_games_in_its_date_range():
    event, (ann, bo, cy, di, _ed) = league(starts_on=date(2026, 11, 1), ends_on=date(2026, 11, 30))
    for played_on, winner in ((date(2026, 10, 31), cy), (date(2026, 11, 2), ann), (date(2026, 12, 1), bo)):
        game = game_create(event=event, player_ids=[ann, bo, cy, di], played_on=played_on)
        game_put_sheet(game_id=game.pk, hands=[ron(winner, di)], user=None, version=None, ended_by_time=True)
    rows = {name: (rank, points, games) for rank, name, points, games in table(event)}
    assert rows["Ann"] == (1, Decimal("22.70"), 1)  # only the game of 2 November counts
    assert rows["Bo"][2] == rows["Cy"][2] == 1


def test_bad_tiebreaks_are_refused_by_name():
    event, _ = league(tiebreaks=["score", "coin toss", "score"])
    with pytest.raises(ValidationError) as caught:
        event.full_clean()
    assert caught.value.message_dict["tiebreaks"] == [
        "unknown tiebreak 'coin toss'; choose from score, average_rank, first_places, best_game",
        "a tiebreak is listed twice",
    ]


def test_the_penalties_column_counts_a_chombo_inside_a_game():
    # wrc-2025: a chombo is −30 after the game (its points already hold it); outside penalties add to it.
    event = EventFactory.create(slug="chombo")
    players = registered(event, "Ann", "Bo", "Cy", "Di")
    played(event, players, [{"result": "chombo", "player": players[2].pk}], end=True)
    Penalty.objects.create(event=event, player=players[2], points=-2, reason="late")
    standings_recompute(event)
    cy = Standing.objects.get(event=event, player=players[2])
    assert cy.penalties == Decimal("-32.00")
    # A chombo and nothing else: every score stays 30000, the four share the uma (0), Cy then −30 and −2.
    assert cy.points == Decimal("-32.00")
    assert ",Cy,,,,-32.00," in standings_table_csv(event)  # no federation id, country or team
