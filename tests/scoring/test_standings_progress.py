"""Rank movement since the previous round, points per round, team standings and the standings CSVs, traced
through real games (wrc-2025: start and return 30000, uma +15/+5/−5/−15, tied places share their uma).

Round 1, table 1 (Ann East): Ann rons Cy, dealer 3 han 40 fu = 7700: Ann +7.7+15 = +22.7, Bo and Di 30000
  share 2nd/3rd (0), Cy −22.7. Table 2 (Ed East): Fay rons Hal, 3 han 40 fu = 5200: Fay +20.2, Ed and Gus 0,
  Hal −20.2.
  After round 1: Ann 1, Fay 2, Bo/Di/Ed/Gus =3, Hal 7, Cy 8; Ivy, Jo and Kim (no game yet) unranked.
Round 2, table 1 (Cy East): Cy rons Ann, dealer 4 han 30 fu, rounded up to a mangan (WRC: kiriage) = 12000:
  Cy +12+15 = +27.0, Ed and Gus 0, Ann −27.0.
  Table 2 (Bo East): Hal rons Fay, 5200: Hal +20.2, Bo and Di 0, Fay −20.2. Table 3 (Ivy East): the substitute
  Sub rons Ivy, 5200: Sub +20.2 (not ranked: a substitute), Jo and Kim 0, Ivy −20.2.
  Totals: Cy −22.7 + 27 = +4.3; Bo, Di, Ed, Fay, Gus, Hal, Jo, Kim 0.0; Ann 22.7 − 27 = −4.3; Ivy −20.2.
  Ranks: Cy 1; the eight on 0.0 share 2; Ann 10; Ivy 11.
  Movement (rank after round 1 − rank now): Cy 8 → 1: up 7; Ann 1 → 10: down 9; Fay 2 → 2: 0;
  Bo, Di, Ed, Gus 3 → 2: up 1; Hal 7 → 2: up 5; Ivy, Jo, Kim: new.
Teams: Red = Ann, Cy, Ed (Sub is Red's substitute); Blue = Bo, Di, Fay, Hal; Green = Ivy, Jo.
  Sum: Red −4.3 + 4.3 + 0 = 0.0, Blue 0.0 (they share rank 1), Green −20.2.
  Best 2: Red Cy 4.3 + Ed 0 = 4.3 (1); Blue 0.0 (2); Green Jo 0 + Ivy −20.2 = −20.2 (3).
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from scoring.models import Standing
from scoring.services.games import game_create
from scoring.services.hands import game_put_sheet
from scoring.services.standings import RoundPoints, standings_progress, standings_recompute
from scoring.services.standings_export import FEDERATION_COLUMNS, federation_csv, standings_table_csv, teams_csv
from scoring.services.teams import team_standings
from scoring.sheet.record import HandRecord
from tests.factories import EventFactory, RoundFactory, TableFactory, registered
from tournament.models import Event, Player, Registration, Team

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim")
TEAMS = {"Red": ("Ann", "Cy", "Ed"), "Blue": ("Bo", "Di", "Fay", "Hal"), "Green": ("Ivy", "Jo")}


def ron(winner: Player, loser: Player, han: int = 3, fu: int = 40) -> HandRecord:
    return {"result": "ron", "winner": winner.pk, "loser": loser.pk, "han": han, "fu": fu}


def play(
    event: Event,
    number: int,
    table: int,
    seats: list[Player],
    hands: list[HandRecord],
    substitutes: tuple[Player, ...] = (),
) -> None:
    round_ = event.rounds.filter(number=number).first() or RoundFactory.create(event=event, number=number)
    game = game_create(
        event=event,
        player_ids=[p.pk for p in seats],
        substitutes=[p.pk for p in substitutes],
        table=TableFactory.create(round=round_, number=table),
    )
    game_put_sheet(game_id=game.pk, hands=hands, user=None, version=None, ended_by_time=True)


def two_rounds(**options: Any) -> tuple[Event, dict[str, Player]]:
    event = EventFactory.create(slug="two-rounds", **options)
    p = {player.name: player for player in registered(event, *NAMES)}
    sub = registered(event, "Sub", substitute=True)[0]
    for name, members in TEAMS.items():
        team = Team.objects.create(event=event, name=name)
        Registration.objects.filter(event=event, player__name__in=members).update(team=team)
    Registration.objects.filter(player=sub).update(team=Team.objects.get(event=event, name="Red"))
    play(event, 1, 1, [p["Ann"], p["Bo"], p["Cy"], p["Di"]], [ron(p["Ann"], p["Cy"])])
    play(event, 1, 2, [p["Ed"], p["Fay"], p["Gus"], p["Hal"]], [ron(p["Fay"], p["Hal"])])
    standings_recompute(event)
    return event, p


def second_round(event: Event, p: dict[str, Player]) -> None:
    play(event, 2, 1, [p["Cy"], p["Ann"], p["Ed"], p["Gus"]], [ron(p["Cy"], p["Ann"], han=4, fu=30)])
    play(event, 2, 2, [p["Bo"], p["Fay"], p["Di"], p["Hal"]], [ron(p["Hal"], p["Fay"])])
    sub = Player.objects.get(name="Sub")
    play(event, 2, 3, [p["Ivy"], p["Jo"], p["Kim"], sub], [ron(sub, p["Ivy"])], substitutes=(sub,))
    standings_recompute(event)


def test_after_one_round_there_is_no_movement_yet():
    event, p = two_rounds()
    progress = standings_progress(event)
    assert progress.previous_round is None
    assert progress.movement(p["Ann"].pk, 1) is None
    assert not progress.is_new(p["Ann"].pk, 1)
    assert progress.rounds[p["Ann"].pk] == [RoundPoints(round=1, points=Decimal("22.70"), table_points=None)]


def test_movement_and_points_per_round_after_round_two():
    event, p = two_rounds()
    second_round(event, p)
    rows = {s.player.name: (s.rank, s.points) for s in Standing.objects.filter(event=event).select_related("player")}
    assert rows["Cy"] == (1, Decimal("4.30"))
    assert rows["Ann"] == (10, Decimal("-4.30"))
    assert rows["Ivy"] == (11, Decimal("-20.20"))
    assert {rows[n] for n in ("Bo", "Di", "Ed", "Fay", "Gus", "Hal", "Jo", "Kim")} == {(2, Decimal("0.00"))}
    assert "Sub" not in rows  # a substitute is not ranked
    progress = standings_progress(event)
    assert progress.previous_round == 1
    moved = {name: progress.movement(p[name].pk, rows[name][0]) for name in NAMES}
    assert moved == {
        "Cy": 7,
        "Ann": -9,
        "Fay": 0,
        "Bo": 1,
        "Di": 1,
        "Ed": 1,
        "Gus": 1,
        "Hal": 5,
        "Ivy": None,
        "Jo": None,
        "Kim": None,
    }
    assert [name for name in NAMES if progress.is_new(p[name].pk, rows[name][0])] == ["Ivy", "Jo", "Kim"]
    assert [(r.round, r.points) for r in progress.rounds[p["Ann"].pk]] == [
        (1, Decimal("22.70")),
        (2, Decimal("-27.00")),
    ]
    assert [(r.round, r.points) for r in progress.rounds[p["Ivy"].pk]] == [(2, Decimal("-20.20"))]
    assert Player.objects.get(name="Sub").pk not in progress.rounds  # its game counts for nobody


def test_a_substitutes_game_counts_at_the_events_substitute_points_per_round():
    event, p = two_rounds(substitute_points=Decimal("-5"))
    second_round(event, p)
    sub = Player.objects.get(name="Sub")
    assert [(r.round, r.points) for r in standings_progress(event).rounds[sub.pk]] == [(2, Decimal("-5"))]


def team_table(event: Event) -> list[tuple[int, str, Decimal, list[str]]]:
    return [(t.rank, t.name, t.points, [m.name for m in t.members if m.counted]) for t in team_standings(event)]


def test_team_standings_by_sum_and_by_best_members():
    event, p = two_rounds(team_ranking="sum")
    second_round(event, p)
    assert team_table(event) == [
        (1, "Blue", Decimal("0.00"), ["Bo", "Di", "Fay", "Hal"]),
        (1, "Red", Decimal("0.00"), ["Cy", "Ed", "Ann"]),  # Sub, Red's substitute, is no member here
        (3, "Green", Decimal("-20.20"), ["Jo", "Ivy"]),
    ]
    assert team_standings(event)[0].shared
    event.team_ranking, event.team_best = "best", 2
    event.save()
    table = team_table(event)
    assert [(rank, name, points) for rank, name, points, _m in table] == [
        (1, "Red", Decimal("4.30")),
        (2, "Blue", Decimal("0.00")),
        (3, "Green", Decimal("-20.20")),
    ]
    assert table[0][3] == ["Cy", "Ed"]  # Ann's −4.3 is the third best: not counted


def test_no_team_standings_unless_the_event_asks():
    event, _p = two_rounds()
    assert team_standings(event) == []
    assert table(teams_csv(event)) == []


def test_best_members_needs_n():
    event = EventFactory.create(team_ranking="best", team_best=None)
    with pytest.raises(ValidationError) as caught:
        event.full_clean()
    assert list(caught.value.message_dict) == ["team_best"]


def table(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_standings_csv_has_movement_federation_team_and_rounds():
    event, p = two_rounds()
    Player.objects.filter(pk=p["Cy"].pk).update(federation_id="04-120034", country="France")
    second_round(event, p)
    rows = {row["player"]: row for row in table(standings_table_csv(event))}
    assert list(rows) == ["Cy", "Bo", "Di", "Ed", "Fay", "Gus", "Hal", "Jo", "Kim", "Ann", "Ivy"]
    cy = rows["Cy"]
    assert (cy["rank"], cy["previous_rank"], cy["movement"], cy["federation_id"], cy["country"], cy["team"]) == (
        "1",
        "8",
        "7",
        "04-120034",
        "France",
        "Red",
    )
    assert (cy["round_1"], cy["round_2"], cy["points"]) == ("-22.70", "27.00", "4.30")
    assert (rows["Ann"]["movement"], rows["Jo"]["movement"], rows["Jo"]["round_1"]) == ("-9", "new", "")


def test_the_teams_csv():
    event, p = two_rounds(team_ranking="best", team_best=2)
    second_round(event, p)
    assert [(r["rank"], r["team"], r["points"], r["counted"]) for r in table(teams_csv(event))] == [
        ("1", "Red", "4.30", "Cy; Ed"),
        ("2", "Blue", "0.00", "Bo; Di"),
        ("3", "Green", "-20.20", "Jo; Ivy"),
    ]


def test_the_federation_csv_lists_the_ranked_players_in_order():
    event, p = two_rounds()
    Player.objects.filter(pk=p["Ann"].pk).update(federation_id="04-120001", country="France", club="Paris MJ")
    standings_recompute(event)
    rows = table(federation_csv(event))
    assert tuple(rows[0]) == FEDERATION_COLUMNS
    assert rows[0] == {
        "rank": "1",
        "federation_id": "04-120001",
        "name": "Ann",
        "country": "France",
        "club": "Paris MJ",
        "games": "1",
        "points": "22.70",
        "score": "37700",
        "table_points": "",
    }
    assert [r["name"] for r in rows] == ["Ann", "Fay", "Bo", "Di", "Ed", "Gus", "Hal", "Cy"]  # ranked only


def test_the_new_csvs_are_inert_in_a_spreadsheet():
    event, p = two_rounds(team_ranking="sum")
    Player.objects.filter(pk=p["Ann"].pk).update(
        name="=HYPERLINK(1)", federation_id="+1", country="@SUM(A1)", club="-2+3"
    )
    Team.objects.filter(event=event, name="Red").update(name="=cmd|' /C calc'!A0")
    standings_recompute(event)
    line = table(standings_table_csv(event))[0]
    assert (line["player"], line["federation_id"], line["country"], line["team"]) == (
        "'=HYPERLINK(1)",
        "'+1",
        "'@SUM(A1)",
        "'=cmd|' /C calc'!A0",
    )
    assert table(federation_csv(event))[0]["club"] == "'-2+3"
    assert any(
        row["team"] == "'=cmd|' /C calc'!A0" and row["members"].startswith("'=HYPERLINK")
        for row in table(teams_csv(event))
    )
    assert table(federation_csv(event))[-1]["points"] == "-22.70"  # a negative number stays a number


def test_mcr_teams_rank_on_table_points_and_rounds_carry_them():
    """MCR. Round 1: Ann wins 10 fan self-drawn (+54, the others −18): table points 4, 1, 1, 1 (three share 2+1+0).
    Round 2: Bo wins 8 fan on Cy's discard: Bo +32, Cy −16, Ann −8, Di −8: table points Bo 4, Ann and Di 1.5, Cy 0.
    Totals Ann 5.5 (46), Bo 5 (14), Di 2.5 (−26), Cy 1 (−34). After round 1 Ann 1 and the other three =2:
    Ann stays (0), Bo 2 → 2 (0), Di 2 → 3 (−1), Cy 2 → 4 (−2).
    Teams Ann + Cy and Bo + Di. Sum: 6.5 (12) against 7.5 (−12): table points first, Bo + Di lead.
    Best 1: Ann 5.5 against Bo 5: Ann + Cy lead."""
    event = EventFactory.create(slug="mcr-teams", ruleset_key="mcr", team_ranking="sum")
    ann, bo, cy, di = registered(event, "Ann", "Bo", "Cy", "Di")
    for name, members in (("Sun", (ann, cy)), ("Moon", (bo, di))):
        Registration.objects.filter(event=event, player__in=members).update(
            team=Team.objects.create(event=event, name=name)
        )
    play(event, 1, 1, [ann, bo, cy, di], [{"result": "tsumo", "winner": ann.pk, "fan": 10}])
    play(event, 2, 1, [ann, bo, cy, di], [{"result": "ron", "winner": bo.pk, "loser": cy.pk, "fan": 8}])
    standings_recompute(event)
    progress = standings_progress(event)
    ranks = {s.player_id: s.rank for s in Standing.objects.filter(event=event)}
    assert [progress.movement(p.pk, ranks[p.pk]) for p in (ann, bo, di, cy)] == [0, 0, -1, -2]
    assert progress.rounds[bo.pk] == [
        RoundPoints(round=1, points=Decimal(-18), table_points=Decimal(1)),
        RoundPoints(round=2, points=Decimal(32), table_points=Decimal(4)),
    ]
    assert [(t.rank, t.name, t.table_points, t.points) for t in team_standings(event)] == [
        (1, "Moon", Decimal("7.50"), Decimal("-12.00")),
        (2, "Sun", Decimal("6.50"), Decimal("12.00")),
    ]
    event.team_ranking, event.team_best = "best", 1
    event.save()
    assert [(t.rank, t.name, t.table_points) for t in team_standings(event)] == [
        (1, "Sun", Decimal("5.50")),
        (2, "Moon", Decimal("5.00")),
    ]


def test_the_movement_is_measured_from_the_last_round_played_before_the_latest():
    """Rounds 1 and 3 played, round 2 not (a gap): the movement is since round 1. Round 1: Ann rons Cy 3 han
    40 fu as dealer, 7700 (Ann 1st); round 3: Cy rons Ann, dealer mangan 12000 with kiriage (Cy 1st)."""
    event = EventFactory.create()
    ann, bo, cy, di = registered(event, "Ann", "Bo", "Cy", "Di")
    for number, east, hand in ((1, ann, ron(ann, cy)), (3, cy, ron(cy, ann, han=4, fu=30))):
        table = TableFactory.create(round=RoundFactory.create(event=event, number=number), number=1)
        seats = [east, *(p for p in (ann, bo, cy, di) if p != east)]
        game = game_create(event=event, player_ids=[p.pk for p in seats], table=table)
        game_put_sheet(game_id=game.pk, hands=[hand], user=None, version=None, ended_by_time=True)
    RoundFactory.create(event=event, number=2)
    standings_recompute(event)
    progress = standings_progress(event)
    assert progress.previous_round == 1
    assert progress.previous_ranks[ann.pk] == 1
    assert progress.movement(cy.pk, Standing.objects.get(event=event, player=cy).rank) == 3  # 4th -> 1st
