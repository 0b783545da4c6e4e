"""A log that cannot be read is refused with where and why, never half read and never an exception."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from rules.errors import Refusal
from scoring.logs.read import MAX_LOG_BYTES, read_log

FIXTURES = Path(__file__).parents[2] / "fixtures" / "online"
A_GAME = (FIXTURES / "tenhou" / "mjx-2010081709gm-00a9-0000-fe3371ad.xml").read_bytes()
BOMB = (
    b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>'
    b"<mjloggm><UN n0='&lol2;'/></mjloggm>"
)


def _cut_before_the_end(log: bytes) -> bytes:
    return log[: log.rindex(b"<INIT")] + b"</mjloggm>"


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        (b"", "log", "neither a Tenhou mjlog"),
        (b"hello", "log", "neither a Tenhou mjlog"),
        (b"<mjloggm><GO", "mjlog", "not a readable mjlog XML"),
        (b"<html><body>404</body></html>", "mjlog", "not <mjloggm>"),
        (BOMB, "mjlog", "not a readable mjlog XML"),
        # An external entity is never read (no file, no URL), nor is an entity the reader cannot see declared.
        (
            b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><mjloggm><UN n0="&e;"/></mjloggm>',
            "mjlog",
            "Forbidden",
        ),
        (
            b'<!DOCTYPE x SYSTEM "http://example.invalid/x.dtd"><mjloggm>&e;</mjloggm>',
            "mjlog",
            "undefined entity",
        ),
        (b"\x1f\x8b\x08\x00broken", "log", "a broken gzip file"),
        (b'{"log": ', "log", "not valid JSON"),
        (b'{"name": ["a"]}', "log", 'non-empty "log" list'),
        (b"[1, 2]", "log", 'non-empty "log" list'),
        (b'{"name": ["a", "b", "c", "d"], "log": [[[0, 0, 0]]]}', "log[0]", "a hand has 17 fields"),
        (b"<mjloggm><GO type='169'/><UN n0='a'/><RYUUKYOKU sc='1'/></mjloggm>", "mjlog", "before the first result"),
        (b" " * (MAX_LOG_BYTES + 1), "log", "not a game log"),
    ],
)
def test_unreadable_logs_name_the_place_and_the_reason(data, field, words):
    with pytest.raises(Refusal) as caught:
        read_log(data, name="upload")
    assert caught.value.problems[0].field == field
    assert words in caught.value.problems[0].message


def test_a_log_that_stops_before_the_end_is_refused():
    with pytest.raises(Refusal, match="no owari"):
        read_log(_cut_before_the_end(A_GAME))


def test_gzip_and_plain_read_alike_and_a_name_gives_the_id():
    plain = read_log(A_GAME, name="2010081709gm-00a9-0000-fe3371ad&tw=2.mjlog")
    packed = read_log(gzip.compress(A_GAME), name="x/2010081709gm-00a9-0000-fe3371ad.mjlog")
    assert plain.sheet() == packed.sheet()
    assert plain.log_id == packed.log_id == "2010081709gm-00a9-0000-fe3371ad"
    # Without an id in the name, the content's hash keeps a second import of the same file recognisable.
    assert read_log(A_GAME, name="upload").log_id == read_log(A_GAME).log_id
    assert read_log(A_GAME).log_id.startswith("sha256:")


def test_a_gzip_bomb_stops_at_the_limit():
    with pytest.raises(Refusal, match="unpacks to over"):
        read_log(gzip.compress(b" " * (MAX_LOG_BYTES + 1)))


def test_a_mjlog_is_scored_by_tenhou_rules_only():
    with pytest.raises(Refusal) as caught:
        read_log(A_GAME, ruleset="wrc-2025")
    assert caught.value.problems[0].field == "ruleset"


def test_a_three_player_mahjong_soul_game_needs_a_ruleset_named():
    log = json.loads((FIXTURES / "tenhou6" / "sanmaengine-2024010120gm-00b9-0000-e324b88a.json").read_text())
    log["rule"]["disp"] = "玉の間南喰"
    with pytest.raises(Refusal, match="three-player Mahjong Soul"):
        read_log(json.dumps(log).encode())


A_TENHOU6 = json.loads((FIXTURES / "tenhou6" / "mjlog2json-2019021004gm-00a9-0000-e2f6516d.json").read_text())
HUGE = "1e40000000"  # Fraction() of it builds a 40-million-digit integer: a worker held for minutes
DIGITS = "9" * 5000  # past int()'s 4300-digit limit


def _owari(points: str) -> bytes:
    return A_GAME.replace(b'owari="201,-20.0,', f'owari="201,{points},'.encode())


def _tenhou6(path: tuple[object, ...], value: object) -> bytes:
    log = json.loads(json.dumps(A_TENHOU6))
    *parents, last = path
    holder = log
    for key in parents:
        holder = holder[key]
    holder[last] = value
    return json.dumps(log).encode()


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        (_owari(HUGE), "owari", "not a number a game log holds"),
        (_owari(DIGITS), "owari", "5000 characters"),
        (A_GAME.replace(b'owari="201,', f'owari="{DIGITS},'.encode()), "owari", "not a number"),
        (A_GAME.replace(b'ten="250,250,250,250"', f'ten="{HUGE},250,250,250"'.encode(), 1), "INIT.ten", "not a number"),
        (_tenhou6(("sc", 1), HUGE), "sc", "not a number a game log holds"),
        (_tenhou6(("sc", 1), DIGITS), "sc", "not a number a game log holds"),
        (_tenhou6(("log", 0, 0, 1), "1e400"), "log[0][0]", "not a number"),
        (_tenhou6(("log", 0, 0, 1), 2**60), "log[0][0][1]", "too large"),
        (_tenhou6(("sc",), [1] * 7 + [1.5]).replace(b"1.5", HUGE.encode()), "sc[7]", "too large"),
        (_tenhou6(("sc", 0), 1).replace(b'"sc": [1', f'"sc": [{DIGITS}'.encode()), "sc[0]", "5000 digits"),
        (b'{"log": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "log", "levels"),
        (b'<?xml version="1.0" encoding="Shift_JIS"?><mjloggm></mjloggm>', "mjlog", "not a readable mjlog XML"),
        (b'<?xml version="1.0" encoding="x-nonesuch"?><mjloggm></mjloggm>', "mjlog", "not a readable mjlog XML"),
    ],
)
def test_hostile_numbers_and_documents_are_refused_before_any_arithmetic(data, field, words):
    """Every number is checked as text first: a log answers at once, refused, naming where (issue 25)."""
    with pytest.raises(Refusal) as caught:
        read_log(data, name="upload")
    assert caught.value.problems[0].field == field
    assert words in caught.value.problems[0].message


def test_a_tag_named_after_another_of_the_readers_methods_is_passed_over():
    """Only GO, UN, INIT, REACH, AGARI and RYUUKYOKU are read: <FINISH> once reached the reader's own method and
    raised a TypeError (a server error for an upload) instead of being passed over like any unknown tag."""
    odd = A_GAME.replace(b"<GO ", b"<FINISH/><STARTED/><WIN/><CLOSE_WINS/><GO ", 1)
    assert odd != A_GAME
    assert read_log(odd, name="upload").sheet() == read_log(A_GAME, name="upload").sheet()
