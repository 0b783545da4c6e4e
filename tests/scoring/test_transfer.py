"""Events in and out: import_sheets, export_event (json, csv, sheets), and the round trip between them."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from scoring.models import Penalty, Standing
from scoring.services import chain
from scoring.services.games import game_create
from scoring.services.hands import game_put_sheet
from scoring.services.standings import standings_recompute
from scoring.sheet.record import HandRecord
from tournament.models import Event, Game, Player, Registration

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Bo", "Cy", "Di")


def event_with_players(slug: str, names: tuple[str, ...] = NAMES) -> tuple[Event, list[int]]:
    event = Event.objects.create(name=slug.title(), slug=slug, ruleset_key="wrc-2025")
    players = [Player.objects.create(name=name) for name in names]
    Registration.objects.bulk_create([Registration(event=event, player=p) for p in players])
    return event, [p.pk for p in players]


def sheet(hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"ruleset": "wrc-2025", "players": list(NAMES), "hands": hands, "end": "time", **extra}


def write(folder: Path, files: dict[str, Any]) -> Path:
    folder.mkdir(exist_ok=True)
    for name, content in files.items():
        (folder / name).write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return folder


def standings(event: Event) -> list[tuple[int | None, str, Decimal, int]]:
    standings_recompute(event)
    return [(s.rank, s.player.name, s.points, s.games) for s in Standing.objects.filter(event=event)]


def test_import_sheets_loads_every_game_with_its_penalties(tmp_path: Path, capsys: Any):
    event, _ = event_with_players("spring")
    folder = write(
        tmp_path / "sheets",
        {
            # wrc-2025: Ann (dealer) 3 han 40 fu from Cy is 7700; Di's −2 is a penalty in the game.
            "1.json": sheet(
                [{"result": "ron", "winner": "Ann", "loser": "Cy", "han": 3, "fu": 40}],
                penalties=[{"player": "Di", "points": -2, "reason": "late"}],
            ),
            "2.json": sheet([{"result": "draw", "tenpai": ["Bo"]}]),
        },
    )
    call_command("import_sheets", "spring", str(folder))
    assert "imported 2 game(s) into spring (2 finished)" in capsys.readouterr().out
    assert Penalty.objects.get(event=event).points == Decimal("-2.00")
    # Game 1: Ann +22.7, Bo and Di share 2nd/3rd (0), Di −2 for the penalty, Cy −22.7.
    # Game 2: Bo tenpai alone takes 3000 (33000: +3 + 15); the other three tie at 29000 (−1 and share −5 each).
    assert standings(event) == [
        (1, "Bo", Decimal("18.00"), 2),
        (2, "Ann", Decimal("16.70"), 2),
        (3, "Di", Decimal("-8.00"), 2),
        (4, "Cy", Decimal("-28.70"), 2),
    ]


def test_one_bad_sheet_imports_nothing_and_names_file_and_field(tmp_path: Path, capsys: Any):
    event, _ = event_with_players("spring")
    folder = write(
        tmp_path / "sheets",
        {
            "1.json": sheet([{"result": "draw", "tenpai": []}]),
            "2.json": sheet([{"result": "ron", "winner": "Ann", "loser": "Zed", "han": 1, "fu": 30}]),
            "3.json": "{not json",
        },
    )
    with pytest.raises(SystemExit) as exited:
        call_command("import_sheets", "spring", str(folder))
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "3.json: not valid JSON at line 1, column 2" in err
    assert "nothing imported" in err
    assert Game.objects.filter(event=event).count() == 0
    folder.joinpath("3.json").unlink()
    with pytest.raises(SystemExit):
        call_command("import_sheets", "spring", str(folder))
    assert "2.json: hands[0].loser" in capsys.readouterr().err
    assert Game.objects.filter(event=event).count() == 0


def test_unknown_players_and_other_rules_are_refused(tmp_path: Path, capsys: Any):
    event, _ = event_with_players("spring", NAMES[:3])
    folder = write(
        tmp_path / "sheets",
        {"1.json": sheet([{"result": "draw", "tenpai": []}]), "2.json": sheet([], ruleset="ema-2016")},
    )
    with pytest.raises(SystemExit):
        call_command("import_sheets", "spring", str(folder))
    err = capsys.readouterr().err
    assert "1.json: players: 'Di' is not registered in this event" in err
    assert "2.json: ruleset: the event plays 'wrc-2025'" in err
    folder.joinpath("2.json").unlink()
    call_command("import_sheets", "spring", str(folder), "--create-players")
    assert set(event.registrations.values_list("player__name", flat=True)) == set(NAMES)


def played_event() -> Event:
    event, (ann, bo, cy, di) = event_with_players("autumn")
    hands: list[list[HandRecord]] = [
        [{"result": "ron", "winner": ann, "loser": cy, "han": 3, "fu": 40}],
        [{"result": "tsumo", "winner": di, "han": 2, "fu": 30, "riichi": [di]}, {"result": "draw", "tenpai": [bo, cy]}],
    ]
    for records in hands:
        game = game_create(event=event, player_ids=[ann, bo, cy, di])
        game_put_sheet(game_id=game.pk, hands=records, user=None, version=None, ended_by_time=True)
    game_create(event=event, player_ids=[di, cy, bo, ann])  # still being played: exported, not ranked
    standings_recompute(event)
    return event


def test_exported_sheets_import_into_another_event_with_the_same_standings(tmp_path: Path):
    source = played_event()
    call_command("export_event", "autumn", "--format", "sheets", "--output", str(tmp_path / "out"))
    assert len(list((tmp_path / "out").glob("*.json"))) == 3
    copy, _ = event_with_players("copy")
    call_command("import_sheets", "copy", str(tmp_path / "out"))
    assert standings(copy) == standings(source)
    assert [g.status for g in copy.games.order_by("pk")] == ["finished", "finished", "playing"]


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda sheet: sheet["hands"][0].update(han=4), "the hands differ from what the history says they are"),
        (
            lambda sheet: sheet["history"]["entries"][0]["after"]["hands"][0].update(han=4),
            "history entry 1 (sheet, version 2, at ",
        ),
        (lambda sheet: sheet["history"]["entries"].pop(0), "the history was cut short"),
    ],
)
def test_an_exported_sheet_carries_its_chain_and_a_changed_one_is_refused(
    tmp_path: Path, capsys: Any, tamper: Any, message: str
):
    source = played_event()
    call_command("export_event", "autumn", "--format", "sheets", "--output", str(tmp_path / "out"))
    first = sorted((tmp_path / "out").glob("*.json"))[0]
    sheet = json.loads(first.read_text(encoding="utf-8"))
    game = source.games.order_by("pk").first()
    assert game is not None
    assert sheet["history"]["head"] == game.changes.order_by("id").last().hash  # type: ignore[union-attr]
    tamper(sheet)
    first.write_text(json.dumps(sheet), encoding="utf-8")
    copy, _ = event_with_players("copy")
    with pytest.raises(SystemExit):
        call_command("import_sheets", "copy", str(tmp_path / "out"))
    err = capsys.readouterr().err
    assert f"{first.name}: history: " in err
    assert message in err
    assert copy.games.count() == 0


def test_export_json_and_csv(tmp_path: Path, capsys: Any):
    event = played_event()
    call_command("export_event", "autumn")
    data = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in data["players"]] == list(NAMES)
    assert [g["status"] for g in data["games"]] == ["finished", "finished", "playing"]
    assert data["games"][0]["sheet"]["players"] == list(NAMES)
    assert chain.verify_entries(data["games"][0]["history"]["entries"]).intact
    assert [s["player"]["name"] for s in data["standings"]] == [
        s.player.name for s in Standing.objects.filter(event=event)
    ]

    call_command("export_event", "autumn", "--format", "csv", "--output", str(tmp_path))
    lines = list(csv.DictReader(io.StringIO((tmp_path / "autumn-standings.csv").read_text(encoding="utf-8"))))
    assert [(row["rank"], row["player"]) for row in lines] == [
        (str(s.rank), s.player.name) for s in Standing.objects.filter(event=event)
    ]
    results = list(csv.DictReader(io.StringIO((tmp_path / "autumn-results.csv").read_text(encoding="utf-8"))))
    assert len(results) == 12  # four seats in each of three games
    first = [r for r in results if r["game"] == str(data["games"][0]["id"])]
    assert [(r["wind"], r["player"], r["score"]) for r in first] == [
        ("East", "Ann", "37700"),
        ("South", "Bo", "30000"),
        ("West", "Cy", "22300"),
        ("North", "Di", "30000"),
    ]
