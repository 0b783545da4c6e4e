"""One log file's bytes, whatever its format: gzip or not, mjlog XML or tenhou.net/6 JSON."""

from __future__ import annotations

import gzip
import hashlib
import io
import zlib
from pathlib import PurePath

from rules.errors import Refusal
from scoring.logs.mjlog import TENHOU_LOG_ID, read_mjlog
from scoring.logs.model import OnlineGame
from scoring.logs.tenhou6 import read_tenhou6
from scoring.sheet.document import read_json

GZIP_MAGIC = b"\x1f\x8b"
MAX_LOG_BYTES = 4 * 1024 * 1024  # a long real game is under 100 kB; more is not a game log


def read_log(data: bytes, *, name: str = "", ruleset: str | None = None) -> OnlineGame:
    """The game in ``data``; ``name`` (a file name, or a Tenhou log id) gives its id when the log holds none.

    ``ruleset``: the preset to score it with where the log cannot say (a Mahjong Soul export); Tenhou's
    mjlog always names its own rules.
    """
    data = _unpacked(data)
    log_id = _log_id(name, data)
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if head == b"<":
        if ruleset not in (None, "tenhou"):
            raise Refusal.one("ruleset", f"a Tenhou mjlog is scored by Tenhou's rules, not {ruleset!r}")
        return read_mjlog(data, log_id=log_id)
    if head in (b"{", b"["):
        try:
            parsed = read_json(data)
        except Refusal as exc:
            raise Refusal([p.moved(p.field or "log") for p in exc.problems]) from None
        return read_tenhou6(parsed, log_id=log_id, ruleset=ruleset)
    raise Refusal.one("log", "neither a Tenhou mjlog (XML) nor a tenhou.net/6 log (JSON)")


def _unpacked(data: bytes) -> bytes:
    if len(data) > MAX_LOG_BYTES:
        raise Refusal.one("log", f"over {MAX_LOG_BYTES // (1024 * 1024)} MB: not a game log")
    if not data.startswith(GZIP_MAGIC):
        return data
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as packed:
            out = packed.read(MAX_LOG_BYTES + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise Refusal.one("log", f"a broken gzip file ({exc})") from None
    if len(out) > MAX_LOG_BYTES:
        raise Refusal.one("log", f"unpacks to over {MAX_LOG_BYTES // (1024 * 1024)} MB: not a game log")
    return out


def _log_id(name: str, data: bytes) -> str:
    """Tenhou's id when the name holds one (2010060800gm-0061-0000-6d767860&tw=1.mjlog), else the content's."""
    match = TENHOU_LOG_ID.search(PurePath(name).name)
    if match:
        return match[0]
    return "sha256:" + hashlib.sha256(data).hexdigest()[:32]
