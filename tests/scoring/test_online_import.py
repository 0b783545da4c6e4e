"""``import_log``: real online logs into an event through the one write path, each checked against itself."""

from __future__ import annotations

import re
import shutil
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.models import GameResult, HandChange, Standing
from scoring.services.online import Outcome, log_import
from tests.factories import registered
from tournament.models import Event, Game, Player

pytestmark = pytest.mark.django_db
ONLINE = Path(__file__).parents[1] / "fixtures" / "online"
# 2010-08-17, houou hanchan; its owari: 20100 −20.0, 35800 +16.0, 5200 −45.0, 38900 +49.0.
GAME = ONLINE / "tenhou" / "mjx-2010081709gm-00a9-0000-fe3371ad.xml"
OWARI = [(20100, Decimal("-20.0")), (35800, Decimal("16.0")), (5200, Decimal("-45.0")), (38900, Decimal("49.0"))]
SANMA = ONLINE / "tenhou6" / "sanmaengine-2024010120gm-00b9-0000-e324b88a.json"
NAMES = [unquote(n) for n in re.findall(r'n\d="([^"]*)"', GAME.read_text(encoding="utf-8").split("<UN ", 1)[1])[:4]]


def run(*args: str) -> int:
    try:
        call_command("import_log", *args)
    except SystemExit as exited:
        return int(exited.code or 0)
    except CommandError as refused:
        return refused.returncode
    return 0


def tampered(tmp_path: Path) -> Path:
    """GAME with its first win recorded 400 higher for the winner and 400 lower for the discarder."""
    text = GAME.read_text(encoding="utf-8")
    match = re.search(r'<AGARI [^>]*?sc="([^"]*)"', text)
    assert match is not None
    values = [int(v) for v in match[1].split(",")]
    deltas = values[1::2]
    winner, loser = deltas.index(max(deltas)), deltas.index(min(deltas))
    values[2 * winner + 1] += 4
    values[2 * loser + 1] -= 4
    path = tmp_path / "2010081709gm-00a9-0000-fe3371ad.xml"
    path.write_text(text[: match.start(1)] + ",".join(map(str, values)) + text[match.end(1) :], encoding="utf-8")
    return path


def written() -> tuple[int, ...]:
    return Game.objects.count(), Player.objects.count(), HandChange.objects.count(), GameResult.objects.count()


def test_a_real_game_is_imported_finished_with_its_recorded_end(
    event: Event, capsys: Any, django_capture_on_commit_callbacks: Any
):
    with django_capture_on_commit_callbacks(execute=True):
        assert run("spring", str(GAME), "--create-players") == 0
    assert "imported as game" in capsys.readouterr().out
    game = Game.objects.get(event=event)
    assert (game.status, game.log_check, game.platform, game.log_id) == (
        Game.Status.FINISHED,
        Game.LogCheck.MATCHES,
        "tenhou",
        "2010081709gm-00a9-0000-fe3371ad",
    )
    assert game.played_on == date(2010, 8, 17)
    assert game.ruleset_key == "tenhou"  # scored by the platform's rules, not the event's WRC rules
    assert list(game.changes.values_list("action", flat=True)) == [HandChange.Action.IMPORT]
    results = {r.player.online_name: (r.score, r.points) for r in GameResult.objects.select_related("player")}
    assert [results[name] for name in NAMES] == OWARI
    assert Standing.objects.filter(event=event, games=1).count() == 4


def test_a_second_import_of_the_same_log_adds_nothing(event: Event, capsys: Any):
    assert run("spring", str(GAME), "--create-players") == 0
    before = written()
    assert run("spring", str(GAME)) == 0
    assert "already imported as game" in capsys.readouterr().out
    assert written() == before


def test_players_are_found_by_online_name_or_refused_by_name(event: Event, capsys: Any):
    before = written()
    assert run("spring", str(GAME)) == 2
    assert f"{GAME}: players: {NAMES[0]!r} is not a player of this event" in capsys.readouterr().err
    assert written() == before
    players = registered(event, "Ann", "Bo", "Cy", "Di")
    for player, name in zip(players, NAMES, strict=True):
        player.online_name = name
        player.save()
    assert run("spring", str(GAME)) == 0
    assert [s.player_id for s in Game.objects.get().seats.order_by("position")] == [p.pk for p in players]


def test_a_game_that_differs_from_its_log_is_refused_or_kept_marked(event: Event, tmp_path: Path, capsys: Any):
    path = tampered(tmp_path)
    before = written()
    assert run("spring", str(path), "--create-players") == 1
    err = capsys.readouterr().err
    assert re.search(rf"{re.escape(str(path))}: hand \d+ \(E\d-\d\): the log records .*, the rules give ", err)
    assert written() == before
    assert run("spring", str(path), "--create-players", "--keep-mismatches") == 1
    game = Game.objects.get()
    assert game.log_check == Game.LogCheck.DIFFERS
    assert game.log_differences
    assert "the log records" in game.log_differences[0]


def test_a_folder_imports_what_it_can_and_names_the_rest(event: Event, tmp_path: Path, capsys: Any):
    folder = tmp_path / "logs"
    folder.mkdir()
    shutil.copy(GAME, folder / GAME.name)
    shutil.copy(SANMA, folder / SANMA.name)
    (folder / "notes.txt").write_text("not a log")
    assert run("spring", str(folder), "--create-players") == 2
    out, err = capsys.readouterr()
    assert "2 game(s) imported, 0 already there, 1 refused" in out
    assert f"{folder / 'notes.txt'}: log: neither a Tenhou mjlog (XML) nor a tenhou.net/6 log (JSON)" in err
    sanma = Game.objects.get(log_id=SANMA.stem.removeprefix("sanmaengine-"))
    assert sanma.seats.count() == 3
    assert sanma.ruleset().players == 3


def test_an_unknown_event_or_an_empty_folder_exits_2(event: Event, tmp_path: Path):
    assert run("nope", str(GAME)) == 2
    assert run("spring", str(tmp_path)) == 2


def test_the_service_answers_each_log_alone(event: Event):
    bad = log_import(event=event, source="x.xml", data=b"<mjloggm></mjloggm>")
    assert bad.outcome == Outcome.UNREADABLE
    assert bad.problems
    good = log_import(event=event, source=GAME.name, data=GAME.read_bytes(), create_players=True)
    assert good.outcome == Outcome.IMPORTED
    assert good.game is not None


def test_two_players_of_one_name_are_not_guessed(event: Event, capsys: Any):
    registered(event, NAMES[0], NAMES[0], *NAMES[1:])
    before = written()
    assert run("spring", str(GAME)) == 2
    assert f"two players of this event are named {NAMES[0]!r}" in capsys.readouterr().err
    assert written() == before


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (GAME.read_bytes().replace(b'owari="201,-20.0,', b'owari="201,1e40000000,'), "owari: '1e40000000'"),
        (b'{"log": ' + b"[" * 5000 + b"]" * 5000 + b"}", "levels"),
        (b'{"log": [[' + b"9" * 5000 + b"]]}", "5000 digits"),
        (b'<?xml version="1.0" encoding="Shift_JIS"?><mjloggm/>', "not a readable mjlog XML"),
    ],
)
def test_a_hostile_log_is_refused_with_exit_2_not_1(
    event: Event, tmp_path: Path, capsys: Any, content: bytes, words: str
):
    """Exit 1 means "differs from its log"; a log that cannot be read is 2, one line naming where (issue 25)."""
    path = tmp_path / "hostile.log"
    path.write_bytes(content)
    assert run("spring", str(path), "--create-players") == 2
    assert words in capsys.readouterr().err
    assert written() == (0, 0, 0, 0)
