"""Writes from outside made at most once: a key (the API's ``Idempotency-Key``, the entry form's hidden key)
claims its request in the write's transaction.

``once`` is the one way a keyed write is made, by the API and the web alike:
the key's row and the write commit together or not at all. A second request
with the key waits for the first to commit (the row's unique constraint),
then gets its answer back; the same key asking something else is refused
(``KeyReused``); one that failed left no row, so trying again is safe. Keys
live a day: a periodic task purges those past it (``purge``), and so does one
write in ``PURGE_EVERY``, so that a site without the task's scheduler keeps
the table bounded too.

An answer is kept as a reference where it can be (``Answered.resource`` and
``version``, the game a write answered with): its body is rebuilt from the
resource when the key is sent again, so a game's hundred hands do not keep a
hundred copies of the game.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.db import connection, transaction
from django.utils import timezone

from rules.errors import Problem, Refusal
from scoring.models import IdempotentRequest
from scoring.services import plain_rows
from scoring.services.hand_write import in_whole_transaction
from scoring.services.standings import standings_counted_last
from tournament.users import Writer, account

Done = TypeVar("Done")

KEY_LIFETIME = timedelta(hours=24)
KEY_LENGTH = 255  # the column's length
PURGE_EVERY = 64  # one claim in this many purges the keys past their day


class KeyReused(Refusal):
    """The key was used for a different request (another body or another path); the API answers 422."""


@dataclass(frozen=True, slots=True)
class Answered:
    """The first request's answer, to give again: a ``resource`` (``game:<id>``) at ``version`` that the caller
    shows again, or a ``body`` kept as it was."""

    status: int
    body: Any
    headers: dict[str, str]
    resource: str = ""
    version: int | None = None


def once(
    *,
    writer: Writer | None,
    key: str | None,
    asked: str,
    write: Callable[[], Done],
    kept: Callable[[Done], Answered | None],
) -> Done | Answered:
    """``write`` made at most once for ``key``: what it returned, or the answer an earlier request with the key got.

    Without a key, ``write`` as it is. With one, in one transaction: the key
    is claimed for what was ``asked`` (``fingerprint``), or refused
    (``KeyReused``) if it asked something else; a key already answered gives
    that answer back and nothing is written. Otherwise ``write`` runs and
    ``kept`` says what to answer the next time; ``None`` (a refusal the caller
    answers instead of raising it) rolls the write back and leaves the key
    free for the corrected request, as a raised refusal does.
    """
    if key is None:
        return write()
    # The write's standings change is counted after the key's answer is kept, just before the commit.
    with transaction.atomic(), standings_counted_last():
        claimed = claim(user=writer, key=key, asked=asked)
        if isinstance(claimed, Answered):
            return claimed
        with in_whole_transaction():  # a refusal leaves this block, and the claim goes with the write
            done = write()
        answer = kept(done)
        if answer is None:
            transaction.set_rollback(True)
            return done
        remember(claimed, answer)
    return done


def fingerprint(*parts: Any) -> str:
    """What a request asked for, as a short hash of its method, path, query parameters and parsed body."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def claim(*, user: Writer | None, key: str, asked: str) -> IdempotentRequest | Answered:
    """Claim ``key`` for this request (in the caller's transaction), or the answer the key already got."""
    if not key or len(key) > KEY_LENGTH or not key.isprintable() or not key.isascii():
        raise Refusal([Problem("Idempotency-Key", f"must be 1 to {KEY_LENGTH} printable ASCII characters")])
    owner = account(user)
    now = timezone.now()
    claimed = _claimed(owner.pk if owner is not None else None, key, asked, now)
    if claimed is not None:
        if claimed % PURGE_EVERY == 0:
            purge(now)
        return IdempotentRequest(pk=claimed, user=owner, key=key, fingerprint=asked, created_at=now)
    row = IdempotentRequest.objects.get(user=owner, key=key)  # the row that held the claim back
    if row.created_at < now - KEY_LIFETIME:  # a day old: the key is free again
        row.delete()
        return IdempotentRequest.objects.create(user=owner, key=key, fingerprint=asked)
    if row.fingerprint != asked or row.status is None:
        raise KeyReused(
            [Problem("Idempotency-Key", "was already used for another request; send a new key with each new request")]
        )
    return Answered(
        status=row.status, body=row.body, headers=dict(row.headers), resource=row.resource, version=row.version
    )


def _claimed(owner: int | None, key: str, asked: str, now: datetime) -> int | None:
    """The new row's id, in one statement; None if the key already has a row. A second request with the key waits
    here for the first one's transaction (the unique row), then finds its row."""
    quote = connection.ops.quote_name
    table = quote(IdempotentRequest._meta.db_table)
    columns = ", ".join(map(quote, ("user_id", "key", "fingerprint", "resource", "headers", "created_at")))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({columns}) VALUES (%s, %s, %s, '', '{{}}', %s) ON CONFLICT DO NOTHING RETURNING id",
            [owner, key, asked, connection.ops.adapt_datetimefield_value(now)],
        )
        row = cursor.fetchone()
    return None if row is None else int(row[0])


def purge(now: datetime | None = None) -> int:
    """Delete the keys past their day (their requests may be sent again as new ones); how many were deleted."""
    expired = (now or timezone.now()) - KEY_LIFETIME
    return IdempotentRequest.objects.filter(created_at__lt=expired).delete()[0]


def remember(row: IdempotentRequest, answer: Answered) -> None:
    """Keep the answer the claimed request got (in the same transaction as its write): a reference to its resource
    where it has one, else its body."""
    row.status, row.resource, row.version = answer.status, answer.resource, answer.version
    row.body, row.headers = None if answer.resource else answer.body, answer.headers
    plain_rows.update(row, ("status", "resource", "version", "body", "headers"))
