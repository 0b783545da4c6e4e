"""Bad files for `manage.py score_sheet` and `import_sheets`: exit 2, one `path: message` line per problem on
standard error, nothing on standard output, no traceback, and (for the import) nothing written."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tests.written import snapshot
from tournament.models import Event, Player, Registration

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Ann", "Bo", "Cy", "Di"]
GOOD: dict[str, Any] = {
    "ruleset": "wrc-2025",
    "players": NAMES,
    "hands": [{"result": "ron", "winner": "Ann", "loser": "Cy", "han": 3, "fu": 40}],
    "penalties": [{"player": "Di", "points": -2, "reason": "late"}],
}
# "path: message", or "(sheet): message" for the file as a whole; the import puts the file's name first.
LINE = re.compile(r"^(\(sheet\)|[A-Za-z_][\w\[\].]*): \S.*$")


def text(sheet: dict[str, Any]) -> str:
    return json.dumps(sheet)


def changed(**fields: Any) -> str:
    return text({**GOOD, **fields})


def hand(**fields: Any) -> str:
    return text({**GOOD, "hands": [{"result": "tsumo", "winner": "Bo", **fields}]})


def start(**fields: Any) -> str:
    return text({**GOOD, "start": fields})


GOOD_TEXT = text(GOOD)
FILES: list[tuple[str, bytes | str, str]] = [
    ("binary", b"\x89PNG\r\n\x1a\n\x00\x00\xff", "(sheet): not UTF-8 text (byte 0 is 0x89)"),
    ("deep", "[" * 100_000 + "]" * 100_000, "(sheet): nested 100000 levels deep; at most 20 levels are allowed"),
    (
        "NaN penalty",
        GOOD_TEXT.replace('"points": -2', '"points": NaN'),
        "penalties[0].points: NaN is not a number JSON allows",
    ),
    (
        "Infinity penalty",
        GOOD_TEXT.replace('"points": -2', '"points": Infinity'),
        "penalties[0].points: Infinity is not a number JSON allows",
    ),
    (
        "-Infinity penalty",
        GOOD_TEXT.replace('"points": -2', '"points": -Infinity'),
        "penalties[0].points: -Infinity is not a number JSON allows",
    ),
    (
        "overflowing penalty",
        GOOD_TEXT.replace('"points": -2', '"points": -1e400'),
        "penalties[0].points: is too large to be a number",
    ),
    (
        "5,000 digits",
        GOOD_TEXT.replace('"han": 3', '"han": ' + "9" * 5000),
        "hands[0].han: is too large (5000 digits): numbers are limited to ±9,007,199,254,740,991",
    ),
    (
        "escaped lone surrogate",
        GOOD_TEXT.replace('"Ann", "Bo"', '"\\ud800", "Bo"'),
        "players[0]: contains a lone surrogate (\\ud800)",
    ),
    (
        "escaped lone surrogate in a reason",
        GOOD_TEXT.replace('"late"', '"l\\udfffate"'),
        "penalties[0].reason: contains a lone surrogate (\\udfff)",
    ),
    (
        "NUL in a name",
        GOOD_TEXT.replace('"Cy", "Di"]', '"Cy", "D\\u0000i"]'),
        "players[3]: contains a NUL character (\\u0000)",
    ),
    (
        "a name of 101 characters",
        changed(players=["A" * 101, "Bo", "Cy", "Di"]),
        "players[0]: is longer than 100 characters",
    ),
    (
        "a name with a control character",
        changed(players=["Ann\x1b[2J", "Bo", "Cy", "Di"]),
        "players[0]: must be printable text (no control characters such as line breaks or tabs)",
    ),
    ("han 100", hand(han=100, fu=30), "hands[0].han: must be at most 99"),
    ("yakuman 7", hand(yakuman=7), "hands[0].yakuman: must be at most 6"),
    (
        "a penalty beyond 10,000",
        GOOD_TEXT.replace('"points": -2', '"points": -10001'),
        "penalties[0].points: must be at least -10000",
    ),
    ("a start score beyond 10,000,000", start(scores=[10**12, 0, 0, 0]), "start.scores[0]: must be at most 10000000"),
    ("honba 101", start(honba=101), "start.honba: must be at most 100"),
    (
        "a round with a superscript",
        start(round="E²"),
        "start.round: 'E²' is not a round: a wind letter (E, S, W, N) and a hand number, such as E1",
    ),
    (
        "start_points 10**12",
        changed(overrides={"start_points": 10**12, "return_points": 10**12}),
        "overrides.start_points: must be at most 10000000",
    ),
    ("301 hands", changed(hands=[{"result": "draw"}] * 301), "hands: takes at most 300 entries"),
]


def score(tmp_path: Path, content: bytes | str) -> tuple[int, str, str]:
    path = tmp_path / "sheet.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
    stdout, stderr = StringIO(), StringIO()
    try:
        call_command("score_sheet", str(path), stdout=stdout, stderr=stderr)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, stdout.getvalue(), stderr.getvalue()


@pytest.mark.parametrize(("what", "content", "line"), FILES, ids=[row[0] for row in FILES])
def test_score_sheet_refuses_a_bad_file_with_path_and_message(
    tmp_path: Path, what: str, content: bytes | str, line: str
):
    code, out, err = score(tmp_path, content)
    lines = err.splitlines()
    assert (code, out) == (2, ""), err
    assert line in lines
    assert all(LINE.match(each) for each in lines), lines


def test_the_good_sheet_scores(tmp_path: Path):
    assert score(tmp_path, GOOD_TEXT)[0] == 0  # the rows above break one thing each of a sheet that works


def test_the_real_command_reads_binary_standard_input_without_a_traceback():
    proc = subprocess.run(
        [sys.executable, "manage.py", "score_sheet", "-"],
        cwd=ROOT,
        input=b"\xff\xfe\x00{",
        capture_output=True,
        check=False,
    )
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert proc.stderr.decode() == "(sheet): not UTF-8 text (byte 0 is 0xff)\n"


# --- import_sheets -----------------------------------------------------------------------------------------------

IMPORTS: list[tuple[str, bytes | str, str]] = [
    (
        "a NUL in a name",
        changed(players=["Ann", "Bo", "Cy", "Zed\x00"]),
        "players[3]: contains a NUL character (\\u0000)",
    ),
    (
        "a name of 101 characters",
        changed(players=["Ann", "Bo", "Cy", "Z" * 101]),
        "players[3]: is longer than 100 characters",
    ),
    ("a start score for no database", start(scores=[2**40, 0, 0, 0]), "start.scores[0]: must be at most 10000000"),
    (
        "a penalty for no database",
        GOOD_TEXT.replace('"points": -2', '"points": 1e12'),
        "penalties[0].points: must be at most 10000",
    ),
    ("yakuman 10**9", hand(yakuman=10**9), "hands[0].yakuman: must be at most 6"),
    (
        "a reason of 201 characters",
        GOOD_TEXT.replace('"late"', json.dumps("x" * 201)),
        "penalties[0].reason: is longer than 200 characters",
    ),
    ("binary", b"\x00\xff", "not UTF-8 text (byte 1 is 0xff)"),
    ("deep", "{}" + "[" * 50, "nested 50 levels deep; at most 20 levels are allowed"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("what", "content", "line"), IMPORTS, ids=[row[0] for row in IMPORTS])
def test_import_sheets_refuses_a_bad_file_and_writes_nothing(
    tmp_path: Path, what: str, content: bytes | str, line: str
):
    event = Event.objects.create(name="Import", slug="import", ruleset_key="wrc-2025")
    for name in NAMES[:3]:
        Registration.objects.create(event=event, player=Player.objects.create(name=name))
    folder = tmp_path / "sheets"
    folder.mkdir()
    (folder / "a-good.json").write_text(GOOD_TEXT)
    (folder / "b-bad.json").write_bytes(content if isinstance(content, bytes) else content.encode())
    before = snapshot()
    stdout, stderr = StringIO(), StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("import_sheets", "import", str(folder), "--create-players", stdout=stdout, stderr=stderr)
    lines = stderr.getvalue().splitlines()
    assert (exited.value.code, stdout.getvalue()) == (2, "")
    assert f"b-bad.json: {line}" in lines, lines
    assert all(re.match(r"b-bad\.json: \S", each) for each in lines[:-1]), lines  # one line per problem
    assert lines[-1].startswith("nothing imported")
    assert snapshot() == before
