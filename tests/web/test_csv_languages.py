"""The CSVs the pages offer speak the reader's language; programs keep the English keys.

A wrc-2025 event in two rounds (the one of tests/web/test_standings_page.py, with Eve sitting in for Ann in
round 2, so that Eve is new in the table): the header of each download from the pages, in English, Korean,
Japanese and Simplified Chinese, against ``?header=keys``, the services' own output and the command's export.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from scoring.services import leaderboards, results_export, standings_export
from scoring.services.csv_cells import header
from scoring.services.standings import standings_recompute
from tests.factories import EventFactory, RoundFactory, TableFactory, played, registered
from tournament.models import Event, Registration, Team

pytestmark = pytest.mark.django_db

BOM = "\ufeff"
LANGUAGES = ("en", "ko", "ja", "zh-hans")


@pytest.fixture
def team_event() -> Event:
    event = EventFactory.create(name="Team Open", slug="team-open", status=Event.Status.RUNNING, team_ranking="sum")
    ann, bo, cy, di, eve = registered(event, "Ann", "Bo", "Cy", "Di", "Eve")
    for number, seats, hand in (
        (1, [ann, bo, cy, di], {"winner": ann.pk, "loser": cy.pk}),
        (2, [bo, cy, di, eve], {"winner": di.pk, "loser": eve.pk}),
    ):
        table = TableFactory.create(round=RoundFactory.create(event=event, number=number), number=1)
        played(event, seats, [{"result": "ron", "han": 3, "fu": 40, **hand}], table=table, end=True)
    east, west = (Team.objects.create(event=event, name=name) for name in ("East", "West"))
    Registration.objects.filter(player__in=[ann, bo]).update(team=east)
    Registration.objects.filter(player__in=[cy, di, eve]).update(team=west)
    standings_recompute(event)
    return event


def download(path: str, language: str = "en") -> str:
    response = Client().get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return response.getvalue().decode("utf-8")


def table(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


# Each CSV of the pages, its keys' service output, and the header's first cells, then its last, per language.
CSVS: dict[str, tuple[str, Any]] = {
    "standings": ("/events/team-open/standings.csv", standings_export.standings_table_csv),
    "teams": ("/events/team-open/standings.csv?format=teams", standings_export.teams_csv),
    "federation": ("/events/team-open/standings.csv?format=federation", standings_export.federation_csv),
    "results": ("/events/team-open/results.csv", results_export.results_csv),
    "leaderboards": ("/events/team-open/leaderboards.csv", leaderboards.leaderboards_csv),
}
HEADERS = {
    ("standings", "en"): (["Rank", "Previous rank", "Movement", "Player ID", "Player"], ["Round 1", "Round 2"]),
    ("standings", "ko"): (["순위", "이전 순위", "순위 변동", "선수 ID", "선수"], ["1회전", "2회전"]),
    ("standings", "ja"): (["順位", "前回順位", "順位変動", "選手ID", "選手"], ["第1回戦", "第2回戦"]),
    ("standings", "zh-hans"): (["名次", "上轮名次", "名次变化", "选手编号", "选手"], ["第1轮", "第2轮"]),
    ("teams", "en"): (["Rank", "Team", "Points"], ["Members", "Members counted"]),
    ("teams", "ko"): (["순위", "팀", "포인트"], ["멤버", "합산 멤버"]),
    ("teams", "ja"): (["順位", "チーム", "ポイント"], ["メンバー", "集計対象メンバー"]),
    ("teams", "zh-hans"): (["名次", "队伍", "得分"], ["队员", "计分队员"]),
    ("federation", "en"): (["Rank", "Federation ID", "Name", "Country"], ["Score", "Table points"]),
    ("federation", "ko"): (["순위", "연맹 ID", "이름", "국가"], ["점수", "순위점"]),
    ("federation", "ja"): (["順位", "連盟ID", "名前", "国"], ["素点", "順位点"]),
    ("federation", "zh-hans"): (["名次", "协会编号", "姓名", "国家/地区"], ["点数", "标准分"]),
    ("results", "en"): (["Game", "Round", "Table", "Played on", "Finished", "Seat", "Seat wind"], ["Table points"]),
    ("results", "ko"): (["대국", "회전", "탁", "대국 날짜", "종료", "자리", "자풍"], ["순위점"]),
    ("results", "ja"): (["対局", "回戦", "卓", "対局日", "終了", "席", "自風"], ["順位点"]),
    ("results", "zh-hans"): (["对局", "轮次", "桌号", "对局日期", "已结束", "座位", "门风"], ["标准分"]),
    ("leaderboards", "en"): (["Player ID", "Player", "Games", "Online games", "Hands"], ["Placed 3", "Placed 4"]),
    ("leaderboards", "ko"): (["선수 ID", "선수", "대국 수", "온라인 대국", "국 수"], ["3위 횟수", "4위 횟수"]),
    ("leaderboards", "ja"): (["選手ID", "選手", "対局数", "オンライン対局", "局数"], ["3位回数", "4位回数"]),
    ("leaderboards", "zh-hans"): (["选手编号", "选手", "对局数", "线上对局", "局数"], ["第3名次数", "第4名次数"]),
}


@pytest.mark.parametrize(("kind", "language"), list(HEADERS))
def test_the_pages_csv_header_is_in_the_readers_language(team_event: Event, kind: str, language: str):
    path, service = CSVS[kind]
    text = download(path, language)
    assert text.startswith(BOM)  # a spreadsheet reads Korean, Japanese and Chinese as UTF-8
    labels, keys = table(text[1:])[0], table(service(team_event))[0]
    first, last = HEADERS[kind, language]
    assert labels[: len(first)] == first
    assert labels[-len(last) :] == last
    assert len(labels) == len(keys)  # the column order unchanged: one label per key
    assert len(set(labels)) == len(labels)


@pytest.mark.parametrize("kind", list(CSVS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_header_keys_is_todays_csv_exactly(team_event: Event, kind: str, language: str):
    path, service = CSVS[kind]
    keys = download(path + ("&" if "?" in path else "?") + "header=keys", language)
    assert keys == service(team_event)  # no byte order mark, the English keys, the values as programs read them
    assert not keys.startswith(BOM)
    if kind not in ("standings", "results"):  # no word cells ("new", yes/no, winds): only the header differs
        assert table(download(path, language)[1:])[1:] == table(keys)[1:]


def test_the_commands_export_keeps_the_keys(team_event: Event, tmp_path: Path):
    with translation.override("ko"):
        call_command("export_event", "team-open", "--format", "csv", "--output", str(tmp_path))
    standings = (tmp_path / "team-open-standings.csv").read_bytes().decode()
    results = (tmp_path / "team-open-results.csv").read_bytes().decode()
    assert standings == download("/events/team-open/standings.csv?header=keys", "ko")
    assert results == download("/events/team-open/results.csv?header=keys", "ko")
    assert standings.startswith("rank,previous_rank,movement,player_id,player,")
    assert results.startswith("game,round,table,played_on,finished,seat,wind,player_id,player,substitute,")


@pytest.mark.parametrize(
    ("language", "new", "yes", "no", "east", "south"),
    [
        ("en", "new", "yes", "no", "East", "South"),
        ("ko", "신규", "예", "아니요", "동", "남"),
        ("ja", "新規", "はい", "いいえ", "東", "南"),
        ("zh-hans", "新进", "是", "否", "东", "南"),
    ],
)
def test_word_cells_follow_the_header(
    team_event: Event, language: str, new: str, yes: str, no: str, east: str, south: str
):
    standings = table(download("/events/team-open/standings.csv", language)[1:])
    assert [row[2] for row in standings if row[4] == "Eve"] == [new]
    # Bo: South in round 1, East in round 2; both games finished, Bo no substitute.
    results = table(download("/events/team-open/results.csv", language)[1:])
    assert [(row[4], row[6], row[9]) for row in results[1:] if row[8] == "Bo"] == [(yes, south, no), (yes, east, no)]
    keys = table(download("/events/team-open/results.csv?header=keys", language))
    assert [(row[4], row[6], row[9]) for row in keys[1:] if row[8] == "Bo"] == [
        ("True", "South", "False"),
        ("True", "East", "False"),
    ]
    assert [
        row[2] for row in table(download("/events/team-open/standings.csv?header=keys", language)) if row[4] == "Eve"
    ] == ["new"]


@pytest.mark.parametrize("asked", ["labels%20", "KEYS", "xlsx", ""])
def test_an_unknown_header_form_is_refused_by_name(team_event: Event, asked: str):
    for path, _ in CSVS.values():
        response = Client().get(path + ("&" if "?" in path else "?") + f"header={asked}")
        assert response.status_code == 400
        assert response.content.decode() == "header: must be one of labels, keys"


def test_every_column_has_a_label_in_each_language():
    columns = {
        "standings": (
            standings_export.LABELS,
            [
                "rank",
                "previous_rank",
                "movement",
                "player_id",
                "player",
                "federation_id",
                "country",
                "team",
                "stage",
                "carried",
                "own",
                "points",
                "table_points",
                "score",
                "games",
                "average_rank",
                "penalties",
                "first_places",
                "best_game",
                "draws",
                "round_12",
            ],
        ),
        "teams": (standings_export.LABELS, list(standings_export.TEAM_COLUMNS)),
        "federation": (standings_export.LABELS, list(standings_export.FEDERATION_COLUMNS)),
        "results": (results_export.RESULT_LABELS, list(results_export.RESULT_COLUMNS)),
        "leaderboards": (
            leaderboards.LABELS,
            [
                "player_id",
                "player",
                *leaderboards.CSV_FIGURES,
                "place_1",
                *(f"mcr_{name}" for name in leaderboards.CSV_MCR),
            ],
        ),
    }
    for labels, keys in columns.values():
        english = header(keys, labels, localised=True)
        assert len(set(english)) == len(keys)
        for language in LANGUAGES[1:]:
            with translation.override(language):
                translated = header(keys, labels, localised=True)
            assert len(set(translated)) == len(keys)
            # Every label translated (names and numbers alike are the same in every language: none here).
            assert [k for k, a, b in zip(keys, english, translated, strict=True) if a == b] == []
    with translation.override("zh-hans"):
        assert header(
            ["mcr_false_wins", "mcr_average_fan", "round_3"],
            leaderboards.LABELS | {"round_{n}": standings_export.LABELS["round_{n}"]},
            localised=True,
        ) == ["国标错和", "国标平均番数", "第3轮"]
