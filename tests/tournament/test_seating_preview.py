"""The seating preview: the tables a round would get, per player the tables moved and the repeats; it writes nothing,
and seating with its seed gives its tables."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from rules.seating import next_round
from scoring.models import GameResult, Standing
from tests.conftest import client_for
from tests.factories import RoundFactory, registered
from tournament.models import Event, Game, Seat, Table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("round_one_by_id")]
API = "/api/v1/events/spring"


@pytest.fixture
def round_one_by_id(event: Event, organiser: User) -> None:
    """Sixteen players in the shared event; round 1 seated by id (tables 1-4, 5-8, …), the order a swiss round 2
    starts from when nobody has finished a game (everyone shares the rank, then id order)."""
    ids = [p.pk for p in registered(event, *(f"P{i:02}" for i in range(16)))]
    RoundFactory.create(event=event, number=2)
    csv = "round,table,east,south,west,north\n" + "".join(
        f"1,{t + 1}," + ",".join(map(str, ids[4 * t : 4 * t + 4])) + "\n" for t in range(4)
    )
    assert client_for(organiser).post(f"{API}/schedule", {"csv": csv}, format="json").status_code == 201


def preview(organiser: User, **query: Any) -> dict[str, Any]:
    response = client_for(organiser).get(f"{API}/rounds/2/seating/preview", query)
    assert response.status_code == 200, response.json()
    body: dict[str, Any] = response.json()
    return body


def first_tables(event: Event) -> dict[int, int]:
    return {
        seat.player_id: seat.game.table.number  # type: ignore[union-attr]
        for seat in Seat.objects.filter(game__table__round__number=1, game__event=event).select_related("game__table")
    }


def written() -> tuple[int, ...]:
    return (
        Table.objects.count(),
        Game.objects.count(),
        Seat.objects.count(),
        GameResult.objects.count(),
        Standing.objects.count(),
    )


def test_the_preview_writes_nothing_and_seating_with_its_seed_gives_its_tables(organiser: User, event: Event):
    before = written()
    shown = preview(organiser, method="swiss")
    assert isinstance(shown["seed"], int)
    assert preview(organiser, method="swiss", seed=shown["seed"]) == shown  # the same seed, the same tables
    assert written() == before
    seated = (
        client_for(organiser)
        .post(f"{API}/rounds/2/seating", {"method": "swiss", "seed": shown["seed"]}, format="json")
        .json()
    )
    assert [[s["player"] for s in t["seats"]] for t in seated["tables"]] == [
        [s["player"] for s in t["seats"]] for t in shown["tables"]
    ]


def test_swiss_within_one_table_says_who_moved_and_whom_they_meet_again(organiser: User, event: Event):
    shown = preview(organiser, method="swiss", seed=1)
    before = first_tables(event)
    seats = [seat for table in shown["tables"] for seat in table["seats"]]
    assert (shown["spread"], shown["method"], shown["byes"]) == (1, "swiss", [])
    for table in shown["tables"]:
        for seat in table["seats"]:
            me = seat["player"]["id"]
            assert seat["rank_table"] == before[me]  # the standings are round 1's order
            assert seat["moved"] == table["number"] - seat["rank_table"]
            assert abs(seat["moved"]) <= 1
            assert {p["id"] for p in seat["met"]} == {
                s["player"]["id"]
                for s in table["seats"]
                if s["player"]["id"] != me and before[s["player"]["id"]] == before[me]
            }
    # Table 1 can draw only on ranks 1-8 and table 4 on 9-16: 2 + 1 + 1 + 2 repeats at least, and proven.
    assert (shown["repeats"], shown["optimal"], shown["avoidable_at_most"]) == (6, True, 0)
    assert sum(len(seat["met"]) for seat in seats) == 2 * shown["repeats"]
    assert shown["moved"] == sum(abs(seat["moved"]) for seat in seats) > 0


@pytest.mark.parametrize(("spread", "repeats"), [(0, 24), (None, 0)])
def test_the_events_spread_bounds_the_moves(organiser: User, event: Event, spread: int | None, repeats: int):
    response = client_for(organiser).patch(f"{API}/", {"swiss_spread": spread}, format="json")
    assert (response.status_code, response.json()["swiss_spread"]) == (200, spread)
    shown = preview(organiser, method="swiss", seed=1)
    assert (shown["spread"], shown["repeats"]) == (spread, repeats)
    if spread == 0:  # strict pairing by rank: nothing else is allowed, so it is optimal
        assert shown["optimal"]
        assert shown["moved"] == 0


def test_random_tables_have_no_rank_table(organiser: User, event: Event):
    shown = preview(organiser, method="random", seed=5)
    seats = [seat for table in shown["tables"] for seat in table["seats"]]
    assert (shown["spread"], shown["moved"], shown["repeats"]) == (None, 0, 0)
    assert {(seat["rank_table"], seat["moved"]) for seat in seats} == {(None, 0)}
    assert [seat["wind"] for seat in shown["tables"][0]["seats"]] == ["East", "South", "West", "North"]


@pytest.mark.parametrize(
    ("query", "field", "message", "code"),
    [
        ({}, "method", "This field is required.", "required"),
        ({"method": "lottery"}, "method", '"lottery" is not a valid choice.', "invalid_choice"),
        ({"method": "swiss", "seed": "x"}, "seed", "A valid integer is required.", "invalid"),
    ],
)
def test_a_bad_query_names_the_field(
    organiser: User, event: Event, query: dict[str, str], field: str, message: str, code: str
):
    response = client_for(organiser).get(f"{API}/rounds/2/seating/preview", query)
    assert (response.status_code, response.json()["errors"]) == (
        400,
        [{"field": field, "message": message, "code": code}],
    )


def test_a_negative_spread_is_refused(organiser: User, event: Event):
    response = client_for(organiser).patch(f"{API}/", {"swiss_spread": -1}, format="json")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["swiss_spread"]


def test_only_organisers_preview_and_a_seated_round_has_none(organiser: User, referee: User, event: Event):
    assert client_for(referee).get(f"{API}/rounds/2/seating/preview", {"method": "swiss"}).status_code == 403
    assert client_for(None).get(f"{API}/rounds/2/seating/preview", {"method": "swiss"}).status_code == 401
    seated = client_for(organiser).get(f"{API}/rounds/1/seating/preview", {"method": "swiss"})
    assert (seated.status_code, seated.json()["errors"]) == (
        400,
        [{"field": "round", "message": "round 1 is already seated", "code": ""}],
    )


def test_a_round_the_clock_stops_says_it_is_not_optimal_and_how_many_repeats_might_go(
    organiser: User, event: Event, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(next_round, "time_limit_for", lambda players: 0.0)  # no time: the rank tables stay
    shown = preview(organiser, method="swiss", seed=1)
    # Round 1's tables again: every pair of them repeats, and nothing proves any repeat unavoidable (the best
    # round keeps 6: the bound is an upper one).
    assert (shown["optimal"], shown["repeats"], shown["avoidable_at_most"], shown["moved"]) == (False, 24, 24, 0)
