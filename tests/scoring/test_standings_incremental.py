"""Standings that cost what changed: the incremental recompute agrees with the full one, rows are updated in
place, recomputes are coalesced, and the version caches are keyed by moves only when the rows changed."""

from __future__ import annotations

import random
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from scoring.models import Penalty, Standing, StandingsState
from scoring.selectors import standings_version
from scoring.services import standings as standings_service
from scoring.services.hands import game_change_hand, game_delete_hand, game_put_sheet
from scoring.services.standings import standings_catch_up, standings_changed, standings_recompute, standings_rows
from scoring.services.standings_store import LINE_FIELDS, recompute
from scoring.sheet.record import HandRecord
from tests.factories import registered
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db

VALUES = ((1, 30), (2, 30), (3, 40), (4, 30), (5, None), (1, 40))


def riichi_hand(rng: random.Random, ids: list[int]) -> HandRecord:
    kind = rng.choice(("ron", "ron", "tsumo", "draw"))
    if kind == "draw":
        return {"result": "draw", "tenpai": sorted(rng.sample(ids, rng.randrange(5)))}
    winner = rng.choice(ids)
    han, fu = rng.choice(VALUES)
    hand: dict[str, Any] = {"result": kind, "winner": winner, "han": han}
    if fu is not None:
        hand["fu"] = fu
    if kind == "ron":
        hand["loser"] = rng.choice([p for p in ids if p != winner])
    return hand  # type: ignore[return-value]


def mcr_hand(rng: random.Random, ids: list[int]) -> HandRecord:
    winner = rng.choice(ids)
    if rng.random() < 0.4:
        return {"result": "tsumo", "winner": winner, "fan": rng.randrange(8, 25)}
    loser = rng.choice([p for p in ids if p != winner])
    return {"result": "ron", "winner": winner, "loser": loser, "fan": rng.randrange(8, 25)}


def stored(event: Event) -> list[tuple[Any, ...]]:
    rows = Standing.objects.filter(event=event).order_by("player_id")
    return [(row.player_id, *(getattr(row, name) for name in LINE_FIELDS)) for row in rows]


def full(event: Event) -> list[tuple[Any, ...]]:
    rows = sorted(standings_rows(event).standings, key=lambda row: row.player_id)
    return [(row.player_id, *(getattr(row, name) for name in LINE_FIELDS)) for row in rows]


# The leagues of tests/scoring/test_standings.py: the plain sum, best N with a minimum, the average with
# tiebreaks, substitutes at fixed points, a date range, and MCR.
SETTINGS: dict[str, dict[str, Any]] = {
    "sum": {},
    "best_games_min_games": {"best_games": 2, "min_games": 2},
    "average_tiebreaks": {"ranking": "average", "tiebreaks": ["average_rank", "first_places", "best_game"]},
    "substitute_points": {"substitute_points": Decimal("-10")},
    "date_range": {"starts_on": date(2026, 11, 1), "ends_on": date(2026, 11, 30)},
    "mcr": {"ruleset_key": "mcr"},
}
DATES = (date(2026, 10, 31), date(2026, 11, 2), date(2026, 11, 15), date(2026, 12, 1))


def random_write(rng: random.Random, event: Event, ids: list[int], mcr: bool) -> None:
    """One write a referee makes: a new game ended by the clock, a corrected hand, or a removed one."""
    make = mcr_hand if mcr else riichi_hand
    games = list(Game.objects.filter(event=event, status=Game.Status.FINISHED))
    action = rng.choice(("new", "new", "change", "delete")) if games else "new"
    if action == "new":
        seats = rng.sample(ids, 4)
        substitutes = [seats[0]] if rng.random() < 0.2 else []
        game = standings_service_game(event, seats, substitutes, rng.choice(DATES))
        hands = [make(rng, seats) for _ in range(rng.randrange(1, 4))]
        game_put_sheet(game_id=game.pk, hands=hands, user=None, version=None, ended_by_time=True)
        return
    game = rng.choice(games)
    seats = list(game.seats.order_by("position").values_list("player_id", flat=True))
    count = game.hands.count()
    if action == "delete" and count > 1:
        game_delete_hand(game_id=game.pk, index=rng.randrange(count), user=None, version=None)
    else:
        game_change_hand(game_id=game.pk, index=rng.randrange(count), record=make(rng, seats), user=None, version=None)


def standings_service_game(event: Event, seats: list[int], substitutes: list[int], played_on: date) -> Game:
    from scoring.services.games import game_create

    return game_create(event=event, player_ids=seats, substitutes=substitutes, played_on=played_on)


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_the_incremental_recompute_agrees_with_the_full_one_over_random_writes(name: str):
    options = SETTINGS[name]
    event = Event.objects.create(name="League", slug="league", kind="league", **options)
    ids = [p.pk for p in registered(event, *(f"P{i}" for i in range(9)))]
    Penalty.objects.create(event=event, player_id=ids[1], points=Decimal("-5"), reason="late")
    standings_recompute(event)
    rng = random.Random(f"standings-{name}")
    incremental = 0
    for _ in range(25):
        random_write(rng, event, ids, mcr="ruleset_key" in options)
        done = standings_catch_up(event)
        assert done is not None, "a change to a finished game is counted by the next recompute"
        incremental += done.incremental
        assert stored(event) == full(event)
    assert incremental == 25  # every write touched one game's players: none fell back to the full recompute
    assert StandingsState.objects.get(event=event).touched == {}


def test_a_substitute_players_game_adds_their_line_and_a_removed_game_takes_it_away():
    # A substitute's game counts at fixed points: the substitute is listed only while they have one.
    event = Event.objects.create(name="League", slug="league", kind="league", substitute_points=Decimal("-10"))
    ids = [p.pk for p in registered(event, "Ann", "Bo", "Cy")]
    guest = registered(event, "Guest", substitute=True)[0].pk
    standings_recompute(event)
    game = standings_service_game(event, [*ids, guest], [guest], date(2026, 11, 2))
    game_put_sheet(
        game_id=game.pk, hands=[{"result": "ron", "winner": guest, "loser": ids[0], "han": 3, "fu": 40}],
        user=None, version=None, ended_by_time=True,
    )  # fmt: skip
    assert standings_catch_up(event) is not None
    assert guest in {row[0] for row in stored(event)}
    assert stored(event) == full(event)
    game.delete()
    standings_changed(event.pk, [*ids, guest])
    done = standings_catch_up(event)
    assert done is not None
    assert done.incremental
    assert guest not in {row[0] for row in stored(event)}
    assert stored(event) == full(event)


def league_with_a_game() -> tuple[Event, list[int]]:
    event = Event.objects.create(name="League", slug="league", kind="league")
    ids = [p.pk for p in registered(event, "Ann", "Bo", "Cy", "Di", "Ed")]
    game = standings_service_game(event, ids[:4], [], date(2026, 11, 2))
    hand: HandRecord = {"result": "ron", "winner": ids[0], "loser": ids[2], "han": 3, "fu": 40}
    game_put_sheet(game_id=game.pk, hands=[hand], user=None, version=None, ended_by_time=True)
    standings_recompute(event)
    return event, ids


def test_rows_are_updated_in_place_and_only_where_they_changed():
    event, ids = league_with_a_game()
    before = dict(Standing.objects.filter(event=event).values_list("player_id", "pk"))
    version = standings_version(event)[0]
    game = Game.objects.get(event=event)
    game_change_hand(
        game_id=game.pk, index=0, record={"result": "ron", "winner": ids[1], "loser": ids[2], "han": 3, "fu": 40},
        user=None, version=None,
    )  # fmt: skip
    assert standings_catch_up(event) is not None
    assert dict(Standing.objects.filter(event=event).values_list("player_id", "pk")) == before  # none re-inserted
    assert standings_version(event)[0] != version  # the rows changed: the cached tables are new
    version = standings_version(event)[0]
    standings_changed(event.pk, ids[:4])  # a change that changes no line (a confirmation, say)
    assert standings_version(event)[0] != version  # "being updated" is shown ...
    done = standings_catch_up(event)
    assert done is not None
    assert not done.changed
    assert standings_version(event)[0] == version  # ... and, nothing changed, the cached tables are current again
    assert standings_recompute(event) == 5
    assert standings_version(event)[0] == version


def test_recomputes_are_coalesced_and_skipped_when_every_change_is_counted():
    event, ids = league_with_a_game()
    recomputes = StandingsState.objects.get(event=event).recomputes
    standings_changed(event.pk, ids[:2])
    standings_changed(event.pk, ids[2:4])
    first = standings_catch_up(event)
    assert first is not None
    assert first.incremental
    assert standings_catch_up(event) is None  # ... and the one queued after it finds nothing to do
    state = StandingsState.objects.get(event=event)
    assert (state.updating, state.recomputes) == (False, recomputes)  # nothing changed: same version


def test_a_change_made_while_a_recompute_runs_is_left_for_the_next():
    event, ids = league_with_a_game()
    standings_changed(event.pk, [ids[0]])
    read = StandingsState.objects.get(event=event)  # what the recompute read under the event's lock
    standings_changed(event.pk, [ids[4]])  # committed after that read
    Penalty.objects.create(event=event, player_id=ids[4], points=Decimal("-3"), reason="late")
    recompute(event, read)
    state = StandingsState.objects.get(event=event)
    assert (state.updating, state.touched) == (True, {str(ids[4]): state.changes})
    assert stored(event) != full(event)  # Ed's penalty is not in the rows yet ...
    done = standings_catch_up(event)
    assert done is not None
    assert done.incremental
    assert stored(event) == full(event)  # ... and the next recompute counts it
    assert StandingsState.objects.get(event=event).updating is False


def test_a_change_of_every_line_falls_back_to_the_full_recompute():
    event, ids = league_with_a_game()
    standings_changed(event.pk, [ids[0]])
    standings_changed(event.pk, None)  # a setting, a registration: any line may change
    done = standings_catch_up(event)
    assert done is not None
    assert not done.incremental
    assert StandingsState.objects.get(event=event).all_from == 0


def test_one_recompute_is_queued_at_a_time(monkeypatch: pytest.MonkeyPatch):
    event, ids = league_with_a_game()
    queued: list[object] = []
    monkeypatch.setattr(standings_service, "queue", lambda work, argument: queued.append(argument))
    for _ in range(3):
        standings_changed(event.pk, ids[:4])
        standings_service._queue_recompute(event.pk)
    assert queued == [event.pk]  # the later changes wait for the one queued: it reads them when it starts
    assert standings_catch_up(event) is not None  # it starts: the mark is cleared
    standings_changed(event.pk, ids[:4])
    standings_service._queue_recompute(event.pk)
    assert queued == [event.pk, event.pk]
