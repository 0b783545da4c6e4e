"""Table codes: the players at a table enter their own hands without an account (for events short of referees).

A table's code is derived from the server's secret, the table and a salt
stored on it (HMAC-SHA256), so the organiser can print it again at any time
and a new salt revokes it. Wrong codes limit the guesser, never the table
(``scoring.services.codes``); the history names "table N's code" as the author.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.utils.translation import gettext as _

from rules.errors import Refusal
from scoring.services.codes import code_attempt
from scoring.services.hands import TableCodeWriter
from tournament.models import Game, Round, Table

CODE_LENGTH = 10  # 50 bits in base32: scoring.services.codes says why that is enough
SESSION_KEY = "table_codes"  # game id -> the salt of the code the session was opened with


def table_code(table: Table) -> str:
    """The table's code, written XXXXX-XXXXX; blank when it has none."""
    if not table.code_salt:
        return ""
    message = f"table:{table.pk}:{table.code_salt}".encode()
    code = base64.b32encode(hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).digest()).decode()
    return f"{code[:5]}-{code[5:CODE_LENGTH]}"


def round_codes_issue(*, round_: Round) -> int:
    """A code for every table of the round that has none; how many were issued."""
    with transaction.atomic():
        tables = list(round_.tables.select_for_update().filter(code_salt=""))
        for table in tables:
            table.code_salt = secrets.token_hex(8)
            table.save(update_fields=["code_salt"])
    return len(tables)


def table_code_revoke(*, table: Table, renew: bool = False) -> Table:
    """The table's code stops working at once (sessions opened with it too); ``renew`` gives it a new one."""
    table.code_salt = secrets.token_hex(8) if renew else ""
    table.save(update_fields=["code_salt"])
    return table


def table_code_open(*, game: Game, code: str, session: SessionBase, guesser: str) -> None:
    """Let this browser session enter the game's hands if ``code`` is its table's; wrong codes are counted
    against ``guesser`` (scoring.services.codes.guesser_of), and the right one is accepted from anyone."""
    table = game.table
    if table is None or not table.code_salt:
        raise Refusal.one("code", _("this game's table has no code: ask the organiser or a referee"))
    code_attempt(
        scope=f"table:{table.pk}",
        guesser=guesser,
        given=code,
        expected=[table_code(table)],
        too_many=_("too many wrong codes for this table: try again in %(minutes)s minutes"),
        wrong=_("this is not the table's code"),
    )
    opened = dict(session.get(SESSION_KEY, {}))
    opened[str(game.pk)] = table.code_salt
    session[SESSION_KEY] = opened


def table_code_writer(*, game: Game, session: SessionBase) -> TableCodeWriter | None:
    """Who writes for this session at this game, if it was opened with the table's current code."""
    salt = session.get(SESSION_KEY, {}).get(str(game.pk))
    table = game.table
    if not salt or table is None or not table.code_salt or not hmac.compare_digest(salt, table.code_salt):
        return None
    return TableCodeWriter(table_number=table.number, game_id=game.pk)


def table_code_lapsed(*, game: Game, session: SessionBase) -> bool:
    """This session opened the game with a code that no longer works (renewed or withdrawn since)."""
    return str(game.pk) in session.get(SESSION_KEY, {}) and table_code_writer(game=game, session=session) is None
