"""Real event formats in stages, through the API contract only (tests/api/stage_flow.py drives it).

Each test is one published format: its cut sizes and carry rule are the real ones, cited where they are used;
where the scores are not the published ones (a field scaled down, games simulated) the test says so and the
expected figures are worked out beside them.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.api.stage_flow import WINDS, Flow

pytestmark = pytest.mark.django_db


# --- WRC: qualifying → best 32 → best 16 → best 8 → final -----------------------------------------------------------
#
# WRC 2025 (Tokyo), the individual event's regulation as mj-news reported it (https://mj-news.net/news/
# 20250707242985, "個人戦レギュレーション"): 256 players play 10 qualifying hanchan and the top 32 go on; the best
# 32, 16 and 8 are knockouts where the same four play 2 hanchan and the top 2 of each table go on ("このあとの
# 2回戦までのトータル": a stage is decided by its own two games, nothing carried); the final is 4 players over
# 2 hanchan. WRC session points: (end score − 30,000)/1,000 + uma 15/5/−5/−15 (the wrc-2025 preset).
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
    ("Best 16", 16, ["C06", "C02", "B10", "B06", "B02", "A10", "A06", "A02",
                     "A04", "A08", "A12", "B04", "B08", "B12", "C04", "C08"]),
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
        assert [[n for _, n in t["seats"]] for t in tables] == [through[i:i + 4] for i in range(0, top, 4)]
        assert [w for w, _ in tables[0]["seats"]] == list(WINDS)
        flow.play(tables, [knockout_scores(t) for t in range(1, len(tables) + 1)])
        stage = flow.table(number)
        assert {row[2] for row in stage} == {0.0}  # each stage stands on its own games
        assert stage[0][3] == round(33 + 0.1 * len(tables), 1)

    # The final's second hanchan, seated by the final's standings after the first: A08 won it at table 1 (South,
    # 33.1), C08 second (North, 10.9), A02 third (East, −13.1), C02 fourth (West, −30.9).
    final = flow.seat(flow.add_round(5))
    assert final[0]["seats"] == list(zip(WINDS, ["A08", "C08", "A02", "C02"], strict=True))
    # A08 18,000 (−12 − 15), C08 35,000 (+5 + 5), A02 46,000 (+16 + 15), C02 21,000 (−9 − 5).
    flow.play(final, [[18000, 35000, 46000, 21000]])
    assert flow.table(5) == [(1, "C08", 0.0, 20.9, 5), (2, "A02", 0.0, 17.9, 5), (3, "A08", 0.0, 6.1, 5),
                             (4, "C02", 0.0, -44.9, 5)]

    # The final ranking: the final's four, then each stage's players cut there in their order in it, stage by
    # stage back to the qualifying: A01, first of the qualifying, ends 17th below everyone who reached the top 16.
    ranking = flow.table()
    assert [row[0] for row in ranking] == list(range(1, 49))
    assert [(row[1], row[4]) for row in ranking[:9]] == [
        ("C08", 5), ("A02", 5), ("A08", 5), ("C02", 5), ("B12", 4), ("B06", 4), ("B04", 4), ("A10", 4), ("C06", 3)]
    assert [(row[1], row[4]) for row in ranking[16:18]] == [("A01", 2), ("A05", 2)]
    assert [(row[1], row[4]) for row in ranking[32:]] == [
        (name, 1) for name in names("C", range(9, 13)) + names("D", range(12, 0, -1))]
