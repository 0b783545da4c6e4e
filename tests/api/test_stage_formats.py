"""Real event formats in stages, through the API contract only (tests/api/stage_flow.py drives it).

Each test is one published format: its cut sizes and carry rule are the real ones, cited where they are used;
where the scores are not the published ones (a field scaled down, games simulated) the test says so and the
expected figures are worked out beside them.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from scoring.models import EventChange
from tests.api.stage_flow import WINDS, Flow
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


# --- WRC: qualifying → best 32 → best 16 → best 8 → final -----------------------------------------------------------
#
# WRC 2025 (Tokyo), the individual event's regulation as mj-news reported it (https://mj-news.net/news/
# 20250707242985, section "個人戦レギュレーション"): 256 players play 10 qualifying hanchan and the top 32 go on;
# the best 32, 16 and 8 are knockouts where the same four play 2 hanchan and the top 2 of each table go on, on the
# total of those two games alone (the report's best-8 table after game 1 is that running total): nothing is
# carried in. The final is 4 players over 2 hanchan. WRC session points: (end score − 30,000)/1,000 + uma
# 15/5/−5/−15 (the wrc-2025 preset).
#
# Scaled: 48 players and one qualifying hanchan, one hanchan per knockout (the final keeps its two). The product
# cuts on a stage's standings as a whole, not table by table: the simulated knockout scores put each table's top
# two above every table's third and fourth, so that the overall top N is exactly WRC's top 2 of each table.
# How WRC drew its knockout tables is not in the sources found; here they are seated by rank.

GROUPS = "ABCD"  # the qualifying place of a player: A01 won qualifying table 1, D01 was fourth there


def qualifying_scores(t: int) -> list[int]:
    """Table t's end scores, East (the A) first: A 30 − 0.1t, B 8 − 0.1t, C −9 − 0.1t, D −29 + 0.3t points."""
    return [45000 - 100 * t, 33000 - 100 * t, 26000 - 100 * t, 16000 + 300 * t]


def knockout_scores(t: int) -> list[int]:
    """Table t's end scores East to North: South wins (33 + 0.1t), North second (11 − 0.1t), East third
    (−13 − 0.1t), West fourth (−31 + 0.1t): every table's top two (South, North) above every third and fourth."""
    return [22000 - 100 * t, 48000 + 100 * t, 14000 + 100 * t, 36000 - 100 * t]


def names(group: str, tables: range) -> list[str]:
    return [f"{group}{t:02d}" for t in tables]


# The knockouts: the stage, its cut, the through order (the stage before's ranking) and what its games give:
# South of tables n..1 (the 1st places, best total first), then North of 1..n, East of 1..n, West of n..1.
KNOCKOUTS = [
    ("Best 32", 32, names("A", range(1, 13)) + names("B", range(1, 13)) + names("C", range(1, 9))),
    (
        "Best 16",
        16,
        [
            "C06",
            "C02",
            "B10",
            "B06",
            "B02",
            "A10",
            "A06",
            "A02",
            "A04",
            "A08",
            "A12",
            "B04",
            "B08",
            "B12",
            "C04",
            "C08",
        ],
    ),
    ("Best 8", 8, ["B12", "A08", "A10", "C02", "B06", "A02", "B04", "C08"]),
    ("Final", 4, ["A02", "A08", "C02", "C08"]),
]


def test_wrc_2025_qualifying_then_knockouts_carry_nothing(organiser: User) -> None:
    # Registered table by table (A01, B01, C01, D01, A02, ...): player ids are not the qualifying order.
    flow = Flow.start(organiser, [f"{g}{t:02d}" for t in range(1, 13) for g in GROUPS], ruleset_key="wrc-2025")
    qualifying = flow.schedule([(1, t, [f"{g}{t:02d}" for g in GROUPS]) for t in range(1, 13)])
    flow.play(qualifying[1], [qualifying_scores(t) for t in range(1, 13)])
    ranked = [row[1] for row in flow.table(1)]
    assert ranked == KNOCKOUTS[0][2] + names("C", range(9, 13)) + names("D", range(12, 0, -1))
    # Ranks 1, 9, 17, 25, 33, 41: A01 30 − 0.1, A09, B05 8 − 0.5, C01 −9 − 0.1, C09, D08 −29 + 2.4.
    assert [row[3] for row in flow.table(1)][::8] == [29.9, 29.1, 7.5, -9.1, -9.9, -26.6]

    for name, top, through in KNOCKOUTS:
        number = flow.add_stage(name=name, entry={"top": top}, carry="none", seating="rank")
        preview = flow.cut(number)
        assert (preview["through"], preview["tied_at_line"], preview["decided"]) == (through, [], True)
        assert set(preview["carried"].values()) == {0.0}  # WRC carries nothing into a knockout
        flow.confirm(number)
        tables = flow.seat(flow.add_round(number))
        # By rank: table 1 takes ranks 1-4, the best of them East; table 2 ranks 5-8, ...
        assert [[n for _, n in t["seats"]] for t in tables] == [through[i : i + 4] for i in range(0, top, 4)]
        assert [w for w, _ in tables[0]["seats"]] == list(WINDS)
        flow.play(tables, [knockout_scores(t) for t in range(1, len(tables) + 1)])
        stage = flow.table(number)
        assert {row[2] for row in stage} == {0.0}  # each stage stands on its own games
        assert stage[0][3] == round(33 + 0.1 * len(tables), 1)

    # The final's second hanchan, seated by the final's standings after the first: A08 won it at table 1 (South,
    # 33.1), C08 second (North, 10.9), A02 third (East, −13.1), C02 fourth (West, −30.9).
    final_stage = number
    final = flow.seat(flow.add_round(final_stage))
    assert final[0]["seats"] == list(zip(WINDS, ["A08", "C08", "A02", "C02"], strict=True))
    # A08 18,000 (−12 − 15), C08 35,000 (+5 + 5), A02 46,000 (+16 + 15), C02 21,000 (−9 − 5).
    flow.play(final, [[18000, 35000, 46000, 21000]])
    assert flow.table(final_stage) == [
        (1, "C08", 0.0, 20.9, 5),
        (2, "A02", 0.0, 17.9, 5),
        (3, "A08", 0.0, 6.1, 5),
        (4, "C02", 0.0, -44.9, 5),
    ]

    # The final ranking: the final's four, then each stage's players cut there in their order in it, stage by
    # stage back to the qualifying: A01, first of the qualifying, ends 17th below everyone who reached the top 16.
    ranking = flow.table()
    assert [row[0] for row in ranking] == list(range(1, 49))
    assert [(row[1], row[4]) for row in ranking[:9]] == [
        ("C08", 5),
        ("A02", 5),
        ("A08", 5),
        ("C02", 5),
        ("B12", 4),
        ("B06", 4),
        ("B04", 4),
        ("A10", 4),
        ("C06", 3),
    ]
    assert [(row[1], row[4]) for row in ranking[16:18]] == [("A01", 2), ("A05", 2)]
    assert [(row[1], row[4]) for row in ranking[32:]] == [
        (name, 1) for name in names("C", range(9, 13)) + names("D", range(12, 0, -1))
    ]


# --- M.League: regular season → semi-final (half) → final (half) ----------------------------------------------------
#
# M.League's post-season: the top 6 teams of the regular season play a semi-final carrying half their points
# (2020-21: Abemas' +654.7 went in as +327.4, https://mleaguewatch.com/2021/04/12/m-league-2020-semifinals-the-
# teams), the top 4 of it a final carrying half their semi-final totals (2020-21's final started from the halved
# semi-final points, https://mleaguewatch.com/2021/05/08/m-league-2020-finals-what-you-need-to-know).
#
# The regular season's totals are the published 2023-24 ones (https://majan.co.jp/?p=21662, "チームランキング
# (レギュラーシーズン全日程終了時)"; also https://mleaguewatch.com/2024/04/05/m-league-2023-24-semifinals-the-teams,
# Pirates +887.6). A team plays as one entrant here (its games are the team's): the stage rules are the same for a
# team league's teams (tests/api/test_team_league.py), and one entrant per team keeps the season to 27 games.
# The 27 games (placements in order, end scores under the m-league preset: 25,000/30,000, uma +30/+10/−10/−30,
# oka +20, so points = score/1,000 + 20, −20, −40, −60 by place) were solved to add up to those totals exactly;
# the real season had 96 games a team. The semi-final and final games are illustrative.
#
# The league publishes carried points rounded to a tenth (2020-21: Abemas +654.7 → +327.4 into the semi-final,
# Sakura Knights +497.3 → +248.7, https://mleaguewatch.com/2021/04/12/m-league-2020-semifinals-the-teams); the
# product carries the exact half to the hundredth: Drivens' 345.3 brings 172.65.

MLEAGUE_2023_24 = {
    "Pirates": 887.6,
    "Drivens": 345.3,
    "Sakura": 247.2,
    "KONAMI": 46.9,
    "Fuurinkazan": -16.6,
    "ABEMAS": -22.1,
    "BEAST": -378.7,
    "RAIDEN": -484.5,
    "Phoenix": -625.1,
}
REGULAR_SEASON = [  # first to fourth, their end scores
    (("Sakura", "Fuurinkazan", "BEAST", "Phoenix"), (45000, 44000, 19000, -8000)),
    (("Drivens", "KONAMI", "ABEMAS", "RAIDEN"), (37500, 36500, 19000, 7000)),
    (("Pirates", "KONAMI", "ABEMAS", "RAIDEN"), (48500, 47500, 19000, -15000)),
    (("Pirates", "Fuurinkazan", "Sakura", "Phoenix"), (45000, 33700, 19000, 2300)),
    (("Drivens", "BEAST", "RAIDEN", "Phoenix"), (37500, 36500, 19000, 7000)),
    (("ABEMAS", "Fuurinkazan", "KONAMI", "BEAST"), (45000, 29000, 19000, 7000)),
    (("Pirates", "Drivens", "Sakura", "Phoenix"), (59000, 17500, 16500, 7000)),
    (("KONAMI", "RAIDEN", "Sakura", "ABEMAS"), (45000, 29000, 19000, 7000)),
    (("Pirates", "Drivens", "Fuurinkazan", "BEAST"), (45000, 28200, 19000, 7800)),
    (("KONAMI", "Drivens", "ABEMAS", "RAIDEN"), (45700, 28300, 19000, 7000)),
    (("Pirates", "Fuurinkazan", "Phoenix", "BEAST"), (56000, 29000, 8000, 7000)),
    (("Sakura", "ABEMAS", "Fuurinkazan", "BEAST"), (37500, 36500, 19000, 7000)),
    (("Pirates", "Drivens", "RAIDEN", "Phoenix"), (80000, 7700, 6700, 5600)),
    (("Pirates", "Sakura", "KONAMI", "RAIDEN"), (45000, 29000, 19000, 7000)),
    (("Drivens", "KONAMI", "ABEMAS", "Fuurinkazan"), (31200, 30200, 29200, 9400)),
    (("Sakura", "Drivens", "BEAST", "Phoenix"), (45000, 29000, 28000, -2000)),
    (("Pirates", "Fuurinkazan", "Phoenix", "BEAST"), (56000, 29000, 8000, 7000)),
    (("ABEMAS", "Sakura", "KONAMI", "RAIDEN"), (49200, 29000, 19000, 2800)),
    (("Pirates", "KONAMI", "Sakura", "BEAST"), (45000, 29000, 19000, 7000)),
    (("Drivens", "ABEMAS", "RAIDEN", "Phoenix"), (37500, 36500, 19000, 7000)),
    (("Sakura", "BEAST", "Fuurinkazan", "KONAMI"), (37500, 36500, 19000, 7000)),
    (("Pirates", "ABEMAS", "RAIDEN", "Phoenix"), (67000, 29000, 19000, -15000)),
    (("Drivens", "Fuurinkazan", "KONAMI", "RAIDEN"), (32000, 31000, 30000, 7000)),
    (("Pirates", "Sakura", "Phoenix", "ABEMAS"), (56000, 29000, 8000, 7000)),
    (("Drivens", "Fuurinkazan", "ABEMAS", "BEAST"), (30000, 29000, 21500, 19500)),
    (("Sakura", "Fuurinkazan", "KONAMI", "RAIDEN"), (41700, 32300, 19000, 7000)),
    (("Pirates", "Drivens", "BEAST", "Phoenix"), (45100, 28900, 19000, 7000)),
]
# Illustrative semi-final: three games of four of the six, by a schedule (M.League fixes its fixtures in advance).
# Drivens 41,000 (+61), Sakura 29,000 (+9), KONAMI 18,000 (−22), Pirates 12,000 (−48);
# ABEMAS 52,000 (+72), Fuurinkazan 23,000 (+3), Drivens 17,000 (−23), Pirates 8,000 (−52);
# ABEMAS 38,000 (+58), Sakura 31,000 (+11), Fuurinkazan 22,000 (−18), KONAMI 9,000 (−51).
SEMI_FINAL = [
    (["Pirates", "Drivens", "Sakura", "KONAMI"], [12000, 41000, 29000, 18000]),
    (["Fuurinkazan", "ABEMAS", "Pirates", "Drivens"], [23000, 52000, 8000, 17000]),
    (["Sakura", "KONAMI", "Fuurinkazan", "ABEMAS"], [31000, 9000, 22000, 38000]),
]


def test_mleague_2023_24_season_then_semi_final_and_final_on_half_the_points(organiser: User) -> None:
    flow = Flow.start(organiser, list(MLEAGUE_2023_24), ruleset_key="m-league")
    for teams, scores in REGULAR_SEASON:
        flow.league_game(list(teams), list(scores))
    assert [(row[0], row[1], row[3]) for row in flow.table(1)] == [
        (rank, team, points) for rank, (team, points) in enumerate(MLEAGUE_2023_24.items(), start=1)
    ]

    semi = flow.add_stage(name="Semi-final", entry={"top": 6}, carry="half", rounds_planned=3)
    final = flow.add_stage(name="Final", entry={"top": 4}, carry="half", seating="rank", rounds_planned=2)
    preview = flow.cut(semi)
    assert (preview["through"], preview["tied_at_line"]) == (list(MLEAGUE_2023_24)[:6], [])
    assert preview["carried"] == {
        "Pirates": 443.8,
        "Drivens": 172.65,
        "Sakura": 123.6,
        "KONAMI": 23.45,
        "Fuurinkazan": -8.3,
        "ABEMAS": -11.05,
    }
    flow.confirm(semi)
    for _ in SEMI_FINAL:
        flow.add_round(semi)
    seated = flow.schedule([(n, 1, teams) for n, (teams, _) in enumerate(SEMI_FINAL, start=1)])
    for n, (_, semi_scores) in enumerate(SEMI_FINAL, start=1):
        flow.play(seated[n], [semi_scores])
    # Carried + own: Pirates 443.8 − 100, Drivens 172.65 + 38, Sakura 123.6 + 20, ABEMAS −11.05 + 130,
    # Fuurinkazan −8.3 − 15, KONAMI 23.45 − 73.
    assert flow.table(semi) == [
        (1, "Pirates", 443.8, 343.8, 2),
        (2, "Drivens", 172.65, 210.65, 2),
        (3, "Sakura", 123.6, 143.6, 2),
        (4, "ABEMAS", -11.05, 118.95, 2),
        (5, "Fuurinkazan", -8.3, -23.3, 2),
        (6, "KONAMI", 23.45, -49.55, 2),
    ]

    # Half of the semi-final totals, to the hundredth (half up): 105.325 → 105.33, 59.475 → 59.48.
    preview = flow.cut(final)
    assert preview["carried"] == {"Pirates": 171.9, "Drivens": 105.33, "Sakura": 71.8, "ABEMAS": 59.48}
    flow.confirm(final)
    tables = flow.seat(flow.add_round(final))
    assert tables[0]["seats"] == list(zip(WINDS, ["Pirates", "Drivens", "Sakura", "ABEMAS"], strict=True))
    flow.play(tables, [[14000, 27000, 20000, 39000]])  # −46, +7, −20, +59
    tables = flow.seat(flow.add_round(final))  # by the final's standings: 125.9, 118.48, 112.33, 51.8
    assert tables[0]["seats"] == list(zip(WINDS, ["Pirates", "ABEMAS", "Drivens", "Sakura"], strict=True))
    flow.play(tables, [[8000, 44000, 23000, 25000]])  # −52, +64, −17, +5
    assert flow.table(final) == [
        (1, "ABEMAS", 59.48, 182.48, 3),
        (2, "Drivens", 105.33, 95.33, 3),
        (3, "Pirates", 171.9, 73.9, 3),
        (4, "Sakura", 71.8, 56.8, 3),
    ]
    # The final ranking: the final's four, the semi-final's other two, then the season's last three.
    assert [(row[0], row[1], row[3], row[4]) for row in flow.table()] == [
        (1, "ABEMAS", 182.48, 3),
        (2, "Drivens", 95.33, 3),
        (3, "Pirates", 73.9, 3),
        (4, "Sakura", 56.8, 3),
        (5, "Fuurinkazan", -23.3, 2),
        (6, "KONAMI", -49.55, 2),
        (7, "BEAST", -378.7, 1),
        (8, "RAIDEN", -484.5, 1),
        (9, "Phoenix", -625.1, 1),
    ]


def test_mleague_a_tie_at_the_semi_final_line_waits_for_the_organiser(organiser: User) -> None:
    """Illustrative: eight teams, and the 6th and 7th end level (M.League's own tiebreak is not modelled: the
    organiser decides). Team A 48,000 (+68) and 30,000 (+10); E 42,000 (+62) and 12,000 (−28); H 12,000 (−48)
    and 50,000 (+70); F 32,000 (+12); B 30,000 (+10); C and G both 14,000 (−26); D 8,000 twice (−104)."""
    flow = Flow.start(organiser, [f"Team {c}" for c in "ABCDEFGH"], ruleset_key="m-league")
    flow.league_game(["Team A", "Team B", "Team C", "Team D"], [48000, 30000, 14000, 8000])
    flow.league_game(["Team E", "Team F", "Team G", "Team H"], [42000, 32000, 14000, 12000])
    flow.league_game(["Team H", "Team A", "Team E", "Team D"], [50000, 30000, 12000, 8000])
    semi = flow.add_stage(name="Semi-final", entry={"top": 6}, carry="half")
    preview = flow.cut(semi)
    assert (preview["through"], preview["tied_at_line"], preview["places"], preview["decided"]) == (
        ["Team A", "Team E", "Team H", "Team F", "Team B"],
        ["Team C", "Team G"],
        1,
        False,
    )
    refused = flow.api.post(f"/api/v1/events/{flow.slug}/stages/{semi}/cut", {}, format="json")
    assert refused.status_code == 409
    assert refused.json()["errors"] == [
        {
            "field": "through",
            "code": "",
            "message": ("2 are tied at the line for 1 place (Team C, Team G): name who goes on"),
        }
    ]
    decided = flow.confirm(semi, through=["Team A", "Team E", "Team H", "Team F", "Team B", "Team G"])
    assert (decided["through"][-1], decided["confirmed"], decided["carried"]["Team G"]) == ("Team G", True, -13.0)
    assert [(row[1], row[2]) for row in flow.table(semi)][-1] == ("Team G", -13.0)
    assert [(row[0], row[1], row[4]) for row in flow.table()][5:] == [
        (6, "Team G", 2),
        (7, "Team C", 1),
        (8, "Team D", 1),
    ]


# --- MCR: a final table on table points ------------------------------------------------------------------------------
#
# MCR events rank on table points, 4/2/1/0 by place at each table (shared on ties), then on score points (the mcr
# preset; the MES MCR tournament of March 2021 gives 4, 2, 1 and 0 table points from the highest score down and
# ranks players equal on table points by their overall score, https://mahjongtime.blogspot.com/2021/03/). Here the
# four best of a qualifying go to a final table bringing their table points (carry all, carry_table_points) and
# none of their score points: the final decides between close table-point totals. The scores are illustrative;
# each game's add up to zero.

MCR_QUALIFYING = [  # (round, table, East to North) and their scores
    ((1, 1, ["M1", "M2", "M3", "M4"]), [60, 25, -35, -50]),
    ((1, 2, ["M5", "M6", "M7", "M8"]), [90, -10, -30, -50]),
    ((2, 1, ["M1", "M6", "M3", "M8"]), [12, -40, 48, -20]),
    ((2, 2, ["M5", "M2", "M7", "M4"]), [-8, 30, 14, -36]),
]


def test_mcr_final_table_brings_the_qualifying_table_points(organiser: User) -> None:
    flow = Flow.start(organiser, [f"M{n}" for n in range(1, 9)], ruleset_key="mcr")
    seated = flow.schedule([table for table, _ in MCR_QUALIFYING])
    for (round_number, table, _), scores in MCR_QUALIFYING:
        flow.play([seated[round_number][table - 1]], [scores])
    # Table points then score: M1 4+2 (72), M2 2+4 (55), M5 4+1 (82), M3 1+4 (13), M7 1+2, M6 2+0, M8 0+1, M4 0+0.
    # M5 has the most score points and ranks third; M3 goes on with 13 points ahead of M7's −16.
    qualifying = flow.standings(1)
    assert [(r["rank"], r["player"]["name"], r["table_points"], r["points"]) for r in qualifying] == [
        (1, "M1", 6.0, 72.0),
        (2, "M2", 6.0, 55.0),
        (3, "M5", 5.0, 82.0),
        (4, "M3", 5.0, 13.0),
        (5, "M7", 3.0, -16.0),
        (6, "M6", 2.0, -50.0),
        (7, "M8", 1.0, -70.0),
        (8, "M4", 0.0, -86.0),
    ]

    final = flow.add_stage(name="Final table", entry={"top": 4}, carry="all", carry_table_points=True, seating="rank")
    preview = flow.cut(final)
    assert preview["through"] == ["M1", "M2", "M5", "M3"]
    assert preview["carried_table_points"] == {"M1": 6.0, "M2": 6.0, "M5": 5.0, "M3": 5.0}
    assert set(preview["carried"].values()) == {0.0}  # the score points start afresh
    flow.confirm(final)
    tables = flow.seat(flow.add_round(final))
    assert tables[0]["seats"] == list(zip(WINDS, ["M1", "M2", "M5", "M3"], strict=True))
    flow.play(tables, [[-20, 8, -36, 48]])  # M3 wins the table (4), M2 2, M1 1, M5 0
    in_final = flow.standings(final)
    assert [
        (r["rank"], r["player"]["name"], r["carried_table_points"], r["table_points"], r["carried"], r["points"])
        for r in in_final
    ] == [
        (1, "M3", 5.0, 9.0, 0.0, 48.0),
        (2, "M2", 6.0, 8.0, 0.0, 8.0),
        (3, "M1", 6.0, 7.0, 0.0, -20.0),
        (4, "M5", 5.0, 5.0, 0.0, -36.0),
    ]
    assert [(r["rank"], r["player"]["name"], r["stage"]) for r in flow.standings()] == [
        (1, "M3", 2),
        (2, "M2", 2),
        (3, "M1", 2),
        (4, "M5", 2),
        (5, "M7", 1),
        (6, "M6", 1),
        (7, "M8", 1),
        (8, "M4", 1),
    ]


# --- A club season with playoffs --------------------------------------------------------------------------------------
#
# A league (games outside rounds, any four members at a time) whose top 4 then play a final table from zero
# (carry none), seated by their season rank: "There may be a playoff for the top 4 or top 8 players after the
# preliminary rounds" (https://www.mjstars.net/intermediate-lesson-5, "Event Formats"). The club plays the WRC
# rules a club league such as the Victorian Riichi Mahjong League uses (https://www.vicriichi.org/vic-league):
# (end − 30,000)/1,000 + uma 15/5/−5/−15. The scores are illustrative.
#
# Ana 42,000 (+27), Ben 33,000 (+8), Cas 26,000 (−9), Dov 19,000 (−26);
# Eli 38,000 (+23), Fay 31,000 (+6), Ana 29,000 (−6), Ben 22,000 (−23);
# Cas 44,000 (+29), Dov 28,000 (+3), Eli 27,000 (−8), Fay 21,000 (−24).
# Ana 21, Cas 20, Eli 15, Ben −15 | Fay −18, Dov −23.
CLUB = ["Ana", "Ben", "Cas", "Dov", "Eli", "Fay"]
SEASON = [
    (["Ana", "Ben", "Cas", "Dov"], [42000, 33000, 26000, 19000]),
    (["Eli", "Fay", "Ana", "Ben"], [38000, 31000, 29000, 22000]),
    (["Cas", "Dov", "Eli", "Fay"], [44000, 28000, 27000, 21000]),
]
PLAYOFF = {"name": "Playoffs", "entry": {"top": 4}, "carry": "none", "seating": "rank"}


def club_season(organiser: User, **event: object) -> tuple[Flow, list[int]]:
    flow = Flow.start(organiser, CLUB, **event)
    return flow, [flow.league_game(seats, scores) for seats, scores in SEASON]


def test_club_season_then_a_playoff_table_from_zero(organiser: User) -> None:
    flow, _ = club_season(organiser)
    assert [(row[0], row[1], row[3]) for row in flow.table(1)] == [
        (1, "Ana", 21.0),
        (2, "Cas", 20.0),
        (3, "Eli", 15.0),
        (4, "Ben", -15.0),
        (5, "Fay", -18.0),
        (6, "Dov", -23.0),
    ]
    playoffs = flow.add_stage(**PLAYOFF)
    assert flow.cut(playoffs)["through"] == ["Ana", "Cas", "Eli", "Ben"]
    flow.confirm(playoffs)
    assert {row[1:] for row in flow.table(playoffs)} == {(name, 0.0, 0.0, 2) for name in ["Ana", "Cas", "Eli", "Ben"]}
    tables = flow.seat(flow.add_round(playoffs))
    assert tables[0]["seats"] == list(zip(WINDS, ["Ana", "Cas", "Eli", "Ben"], strict=True))
    # Ana 24,000 (−11), Cas 31,000 (+6), Eli 21,000 (−24), Ben 44,000 (+29): the season's fourth wins.
    flow.play(tables, [[24000, 31000, 21000, 44000]])
    assert flow.table(playoffs) == [
        (1, "Ben", 0.0, 29.0, 2),
        (2, "Cas", 0.0, 6.0, 2),
        (3, "Ana", 0.0, -11.0, 2),
        (4, "Eli", 0.0, -24.0, 2),
    ]
    assert [(row[0], row[1], row[4]) for row in flow.table()] == [
        (1, "Ben", 2),
        (2, "Cas", 2),
        (3, "Ana", 2),
        (4, "Eli", 2),
        (5, "Fay", 1),
        (6, "Dov", 1),
    ]


def test_a_cut_is_undone_until_its_stage_begins(organiser: User) -> None:
    flow, _ = club_season(organiser)
    playoffs = flow.add_stage(**PLAYOFF)
    flow.confirm(playoffs)
    flow.seat(round_number := flow.add_round(playoffs))
    undone = flow.api.delete(f"/api/v1/events/{flow.slug}/stages/{playoffs}/cut")
    assert undone.status_code == 200, undone.json()
    assert (undone.json()["confirmed"], flow.named(undone.json()["through"])) == (False, ["Ana", "Cas", "Eli", "Ben"])
    # The seated round is unseated with it: it seats again once the cut is confirmed again.
    flow.confirm(playoffs)
    tables = flow.seat(round_number)
    flow.play(tables, [[24000, 31000, 21000, 44000]])
    refused = flow.api.delete(f"/api/v1/events/{flow.slug}/stages/{playoffs}/cut")
    assert refused.status_code == 409
    assert refused.json()["errors"][0]["field"] == "stage"
    assert "stage 2 has begun" in refused.json()["errors"][0]["message"]
    assert flow.cut(playoffs)["confirmed"] is True
    assert list(EventChange.objects.filter(event=flow.event).values_list("action", flat=True)) == [
        "stage",
        "cut",
        "cut",
        "cut",
    ]


# The season's second game corrected: Fay 36,000 (+11) and Ben 17,000 (−28): Fay −13 passes Ben −20 for 4th.
CORRECTED = [38000, 36000, 29000, 17000]


def test_a_correction_before_the_playoffs_are_seated_undoes_their_cut(organiser: User) -> None:
    flow, games = club_season(organiser)
    playoffs = flow.add_stage(**PLAYOFF)
    flow.confirm(playoffs)
    kept = flow.write(games[0], [42000, 33500, 25500, 19000])  # Ben +8.5, Cas −9.5: the same four go on
    assert kept.status_code == 200
    assert flow.cut(playoffs)["confirmed"] is True
    changed = flow.write(games[1], CORRECTED)
    assert changed.status_code == 200, changed.json()
    preview = flow.cut(playoffs)
    assert (preview["confirmed"], preview["through"]) == (False, ["Ana", "Cas", "Eli", "Fay"])
    last = EventChange.objects.filter(event=flow.event).latest("id")
    assert (last.action, last.before, last.after) == (
        "cut",
        {"stage": 2, "through": [flow.ids[n] for n in ["Ana", "Cas", "Eli", "Ben"]]},
        None,
    )


def test_a_correction_after_the_playoffs_began_is_kept_only_by_an_organiser(organiser: User, referee: User) -> None:
    flow, games = club_season(organiser, referees=[referee])
    playoffs = flow.add_stage(**PLAYOFF)
    flow.confirm(playoffs)
    tables = flow.seat(flow.add_round(playoffs))
    flow.play(tables, [[24000, 31000, 21000, 44000]])
    season_game = flow.api.get(f"/api/v1/games/{games[1]}/").json()["version"]

    refused = flow.write(games[1], CORRECTED)
    assert refused.status_code == 409
    assert refused.json()["errors"][0]["field"] == "stage"
    assert refused.json()["errors"][0]["message"].startswith(
        "this correction changes who went on to stage 2 (Playoffs), which has begun"
    )
    by_referee = flow.write(games[1], CORRECTED, api=client_for(referee), query="?confirm_cut_change=true")
    assert by_referee.status_code == 409  # only an organiser keeps a played cut
    assert flow.api.get(f"/api/v1/games/{games[1]}/").json()["version"] == season_game  # nothing was written

    kept = flow.write(games[1], CORRECTED, query="?confirm_cut_change=true")
    assert kept.status_code == 200, kept.json()
    last = EventChange.objects.filter(event=flow.event).latest("id")
    assert (last.action, last.after) == (
        "cut_kept",
        {"stage": 2, "through": [flow.ids[n] for n in ["Ana", "Cas", "Eli", "Ben"]], "game": games[1]},
    )
    assert last.author == organiser.username
    # The season's standings change; the playoffs stay as they were played, Ben in them and Fay not.
    assert [row[1] for row in flow.table(1)][3:5] == ["Fay", "Ben"]
    assert flow.cut(playoffs)["through"] == ["Ana", "Cas", "Eli", "Ben"]
    assert [(row[1], row[4]) for row in flow.table()] == [
        ("Ben", 2),
        ("Cas", 2),
        ("Ana", 2),
        ("Eli", 2),
        ("Fay", 1),
        ("Dov", 1),
    ]


# --- refusals, each naming its field ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "field", "message"),
    [
        ({"carry": "most"}, 400, "carry", 'must be "all", "half", "none" or a fraction from 0 to 1'),
        ({"carry": "3/2"}, 400, "carry", 'must be "all", "half", "none" or a fraction from 0 to 1'),
        ({"carry": -0.5}, 400, "carry", 'must be "all", "half", "none" or a fraction from 0 to 1'),
        ({"entry": {"top": 0}}, 400, "entry.top", "must be a whole number of at least 1"),
        ({"entry": {"top": 2, "also": [0]}}, 400, "entry.also", "player 0 is not registered in this event"),
        ({"entry": "some"}, 400, "entry", 'must be "all" or {"top": N, "also": [player ids]}'),
        ({"carry_table_points": True}, 400, "carry_table_points", "only MCR has table points to carry"),
        ({"seating": "snake"}, 400, "seating", '"snake" is not a valid choice.'),
    ],
)
def test_a_stage_is_refused_naming_the_field(
    organiser: User, body: dict[str, object], status: int, field: str, message: str
) -> None:
    flow = Flow.start(organiser, CLUB)
    answer = flow.api.post(f"/api/v1/events/{flow.slug}/stages/", {"name": "Playoffs", **body}, format="json")
    assert answer.status_code == status
    assert [(e["field"], e["message"]) for e in answer.json()["errors"]] == [(field, message)]
    assert [s["number"] for s in flow.api.get(f"/api/v1/events/{flow.slug}/stages/").json()] == [1]


def test_a_top_larger_than_the_stage_before_is_refused(organiser: User) -> None:
    flow, _ = club_season(organiser)
    # The first stage's size is known only at its end (players register until then): the cut names it.
    too_many = flow.add_stage(name="Top 8", entry={"top": 8})
    refused = flow.api.get(f"/api/v1/events/{flow.slug}/stages/{too_many}/cut")
    assert refused.status_code == 400
    assert refused.json()["errors"] == [
        {
            "field": "entry.top",
            "code": "stage_top_over",
            "message": "the stage before ranks only 6 players, fewer than 8",
        }
    ]
    changed = flow.api.patch(f"/api/v1/events/{flow.slug}/stages/{too_many}/", {"entry": {"top": 4}}, format="json")
    assert changed.status_code == 200, changed.json()
    # A later stage's size is known from the one before it: a top past it is refused when the stage is added.
    answer = flow.api.post(f"/api/v1/events/{flow.slug}/stages/", {"name": "Final", "entry": {"top": 8}}, format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"] == [
        {"field": "entry.top", "code": "", "message": "stage 2 sends on at most 4 players, fewer than 8"}
    ]
    # And the stage before cannot shrink below what the stage after takes.
    flow.add_stage(name="Final", entry={"top": 4})
    answer = flow.api.patch(f"/api/v1/events/{flow.slug}/stages/{too_many}/", {"entry": {"top": 2}}, format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"] == [
        {
            "field": "entry.top",
            "code": "",
            "message": "stage 3 takes the top 4, more than the 2 this stage would send on",
        }
    ]


@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_the_first_stage_has_no_cut(organiser: User, method: str) -> None:
    flow, _ = club_season(organiser)
    answer = getattr(flow.api, method)(f"/api/v1/events/{flow.slug}/stages/1/cut")
    assert answer.status_code == 409
    assert answer.json()["errors"][0]["field"] == "stage"


def test_a_cut_waits_for_the_stage_before(organiser: User) -> None:
    flow, _ = club_season(organiser)
    playoffs = flow.add_stage(**PLAYOFF)
    final = flow.add_stage(name="Final", entry={"top": 2}, carry="half")
    for method in ("get", "post"):
        answer = getattr(flow.api, method)(f"/api/v1/events/{flow.slug}/stages/{final}/cut")
        assert answer.status_code == 409
        assert answer.json()["errors"] == [
            {"field": "stage", "code": "", "message": "stage 2 is not entered yet: confirm its cut first"}
        ]
    # A season game still playing (opened, no result): the preview shows it, the cut waits for it.
    playing = flow.api.post(
        "/api/v1/games/", {"event": flow.slug, "players": [flow.ids[n] for n in CLUB[:4]]}, format="json"
    )
    assert playing.status_code == 201
    assert flow.cut(playoffs)["unfinished_games"] == 1
    answer = flow.api.post(f"/api/v1/events/{flow.slug}/stages/{playoffs}/cut", {}, format="json")
    assert answer.status_code == 409
    assert answer.json()["errors"] == [
        {"field": "stage", "code": "", "message": ("stage 1 has 1 game not finished: the cut waits for its last game")}
    ]
    assert flow.cut(playoffs)["confirmed"] is False


def test_a_seated_stage_is_not_deleted(organiser: User) -> None:
    flow, _ = club_season(organiser)
    playoffs = flow.add_stage(**PLAYOFF)
    flow.confirm(playoffs)
    flow.seat(flow.add_round(playoffs))
    answer = flow.api.delete(f"/api/v1/events/{flow.slug}/stages/{playoffs}/")
    assert answer.status_code == 409
    assert answer.json()["errors"] == [
        {"field": "stage", "code": "", "message": ("stage 2 has a seated round: unseat its rounds first")}
    ]
    assert [s["number"] for s in flow.api.get(f"/api/v1/events/{flow.slug}/stages/").json()] == [1, 2]


def test_a_schedule_seats_a_later_stage_only_with_its_entrants(organiser: User) -> None:
    flow, _ = club_season(organiser)
    playoffs = flow.add_stage(**PLAYOFF)
    flow.confirm(playoffs)
    first = flow.add_round(playoffs)
    refused = flow.schedule_csv([(first, 1, ["Ana", "Cas", "Eli", "Fay"])])  # Fay was cut after the season
    assert refused.status_code == 400
    assert refused.json()["errors"] == [
        {
            "field": "schedule",
            "code": "",
            "message": (f"round {first} is of stage 2: player {flow.ids['Fay']} did not enter it"),
        }
    ]
    # A round the schedule adds after the playoffs' first belongs to the playoffs too.
    seated = flow.schedule([(first, 1, ["Ana", "Cas", "Eli", "Ben"]), (first + 1, 1, ["Ben", "Eli", "Cas", "Ana"])])
    assert sorted(seated) == [first, first + 1]
    rounds = flow.api.get(f"/api/v1/events/{flow.slug}/rounds/").json()["results"]
    assert [(r["number"], r["stage"]) for r in rounds] == [(first, 2), (first + 1, 2)]
