"""The schedule services (tournament/services/schedule.py): a whole schedule from CSV, and one round typed by name.

Both seat everything or nothing: a refusal names its field and every problem at once, and leaves no round, table,
game or seat behind.
"""

from __future__ import annotations

import pytest

from rules.errors import Refusal
from tests.factories import EventFactory, PlayerFactory, RegistrationFactory, RoundFactory, registered
from tournament.models import Event, Game, Round, Seat, Stage, Table
from tournament.services.schedule import seat_named, seat_schedule

pytestmark = pytest.mark.django_db

HEADER = "round,table,east,south,west,north\n"


def eight() -> tuple[Event, list[int]]:
    event = EventFactory.create(name="Scheduled")
    return event, [p.pk for p in registered(event, *(f"P{i}" for i in range(8)))]


def csv(rows: list[tuple[int, int, list[int]]]) -> str:
    return HEADER + "".join(f"{r},{t},{','.join(map(str, seats))}\n" for r, t, seats in rows)


def seating(event: Event) -> list[list[list[int]]]:
    """Per round, per table, its players East first, as stored."""
    return [
        [
            list(Seat.objects.filter(game__table=table).order_by("position").values_list("player_id", flat=True))
            for table in Table.objects.filter(round=round_).order_by("number")
        ]
        for round_ in Round.objects.filter(event=event).order_by("number")
    ]


def nothing_written(event: Event, rounds: int) -> None:
    assert Round.objects.filter(event=event).count() == rounds
    assert not Table.objects.filter(round__event=event).exists()
    assert not Game.objects.filter(event=event).exists()


def test_a_schedule_seats_every_round_adding_the_missing_ones():
    event, p = eight()
    rows = [(1, 1, p[0:4]), (1, 2, p[4:8]), (2, 1, [p[0], p[4], p[1], p[5]]), (2, 2, [p[2], p[6], p[3], p[7]])]
    games = seat_schedule(event=event, text=csv(rows))
    assert len(games) == 4
    assert seating(event) == [[p[0:4], p[4:8]], [[p[0], p[4], p[1], p[5]], [p[2], p[6], p[3], p[7]]]]
    assert list(Round.objects.filter(event=event).order_by("number").values_list("stage", flat=True)) == [1, 1]


def test_a_schedule_given_twice_seats_nobody_twice():
    event, p = eight()
    text = csv([(1, 1, p[0:4]), (1, 2, p[4:8]), (2, 1, [p[0], p[4], p[1], p[5]]), (2, 2, [p[2], p[6], p[3], p[7]])])
    seat_schedule(event=event, text=text)
    with pytest.raises(Refusal) as refused:
        seat_schedule(event=event, text=text)
    assert [(q.field, q.message) for q in refused.value.problems] == [
        ("schedule", "round 1 is already seated"),
        ("schedule", "round 2 is already seated"),
    ]
    assert Game.objects.filter(event=event).count() == 4


def test_a_schedule_with_an_unknown_player_names_every_line_and_writes_nothing():
    event, p = eight()
    rows = [
        (1, 1, p[0:4]),
        (1, 2, [*p[4:7], 999999]),
        (2, 1, [p[0], p[4], p[1], p[5]]),
        (2, 2, [*p[2:4], 999999, p[6]]),
    ]
    with pytest.raises(Refusal) as refused:
        seat_schedule(event=event, text=csv(rows))
    assert [(q.field, q.message) for q in refused.value.problems] == [
        ("line 3", "north: player 999999 is not in this tournament"),
        ("line 5", "west: player 999999 is not in this tournament"),
    ]
    nothing_written(event, rounds=0)


def test_a_round_the_schedule_adds_after_a_later_stage_round_is_of_that_stage_and_seats_its_entrants_only():
    """Round 2 exists in stage 2, whose cut let four players through: round 3, added by the schedule, is of stage 2
    too, and a player who did not enter stage 2 is refused in both."""
    event, p = eight()
    RoundFactory.create(event=event, number=2, stage=2)
    Stage.objects.create(event=event, number=2, name="Final", through=p[0:4])
    rows = [(1, 1, p[0:4]), (1, 2, p[4:8]), (2, 1, p[0:4]), (3, 1, [p[1], p[2], p[3], p[4]])]
    with pytest.raises(Refusal) as refused:
        seat_schedule(event=event, text=csv(rows))
    assert [(q.field, q.message) for q in refused.value.problems] == [
        ("schedule", f"round 3 is of stage 2: player {p[4]} did not enter it")
    ]
    nothing_written(event, rounds=1)
    rows[-1] = (3, 1, [p[1], p[2], p[3], p[0]])
    seat_schedule(event=event, text=csv(rows))
    assert list(Round.objects.filter(event=event).order_by("number").values_list("number", "stage")) == [
        (1, 1),
        (2, 2),
        (3, 2),
    ]


def named_event() -> tuple[Event, dict[str, int]]:
    """Eight players; two named Ann (told apart by federation id), one withdrawn (Wes)."""
    event = EventFactory.create(name="Typed")
    players = registered(event, "Bo", "Cy", "Di", "Ed", "Flo", "Gus")
    anns = [PlayerFactory.create(name="Ann", federation_id=fid) for fid in ("10-001", "10-002")]
    for ann in anns:
        RegistrationFactory.create(event=event, player=ann)
    wes = PlayerFactory.create(name="Wes")
    RegistrationFactory.create(event=event, player=wes, withdrawn=True)
    RoundFactory.create(event=event, number=1)
    ids = {p.name: p.pk for p in players} | {"10-001": anns[0].pk, "10-002": anns[1].pk, "Wes": wes.pk}
    return event, ids


def test_a_round_typed_by_name_and_id_is_seated_east_first_whatever_the_separator():
    event, ids = named_event()
    games = seat_named(event=event, number=1, text="10-001, bo, CY, Di\n\n  \nEd;Flo;Gus;10-002\n")
    assert len(games) == 2
    assert seating(event) == [
        [
            [ids["10-001"], ids["Bo"], ids["Cy"], ids["Di"]],
            [ids["Ed"], ids["Flo"], ids["Gus"], ids["10-002"]],
        ]
    ]
    tabbed, _ = named_event()
    seat_named(event=tabbed, number=1, text="10-001\tBo\tCy\tDi\nEd\tFlo\tGus\t10-002")
    assert len(seating(tabbed)[0]) == 2


# Each typed round and every problem it is refused with (field "tables"), in order: rule by rule of seat_named.
REFUSED = [
    ("", ["no tables: one line per table, its players East first"]),
    ("Bo,Cy,Di,Zed", ["line 1: 'Zed' is not a registered player"]),
    ("Bo,Cy,Di,Wes", ["line 1: 'Wes' is not a registered player"]),  # withdrawn: not seated
    ("Ann,Bo,Cy,Di", ["line 1: 'Ann' names 2 players: use the id"]),
    ("Bo,Cy,Di,Ed\nFlo,Gus,10-001,bo", ["line 2: bo is already at the table of line 1"]),
    ("Bo,Cy,Di", ["line 1: 3 players, a table has 4"]),
    (
        'Bo,Cy,Di,"Ed\nFlo,Gus,Zed,10-002,10-001',
        [
            'line 1: a quote (") is left open: quotes go in pairs, around a whole value',
            "line 2: 'Zed' is not a registered player",
            "line 2: 5 players, a table has 4",
        ],
    ),
]


@pytest.mark.parametrize(("text", "problems"), REFUSED, ids=[p[0] for _, p in REFUSED])
def test_a_typed_round_is_refused_with_every_problem_by_line_and_nothing_seated(text: str, problems: list[str]):
    event, _ = named_event()
    with pytest.raises(Refusal) as refused:
        seat_named(event=event, number=1, text=text)
    assert [(q.field, q.message) for q in refused.value.problems] == [("tables", m) for m in problems]
    nothing_written(event, rounds=1)


@pytest.mark.parametrize("number", [1, 2], ids=["already seated", "no such round"])
def test_a_typed_round_needs_a_round_with_no_tables(number: int):
    event, _ = named_event()
    seat_named(event=event, number=1, text="10-001,Bo,Cy,Di\nEd,Flo,Gus,10-002")
    with pytest.raises(Refusal) as refused:
        seat_named(event=event, number=number, text="10-001,Bo,Cy,Di\nEd,Flo,Gus,10-002")
    assert [(q.field, q.message) for q in refused.value.problems] == [
        ("tables", f"round {number} does not exist or is already seated")
    ]
    assert Game.objects.filter(event=event).count() == 2
