"""Writes from outside made at most once: a key (the API's ``Idempotency-Key``, the entry form's hidden key)
claims its request in the write's transaction.

``once`` is the one way a keyed write is made, by the API and the web alike:
the key's row and the write commit together or not at all. A second request
with the key waits for the first to commit (the row's unique constraint),
then gets its answer back; the same key asking something else is refused
(``KeyReused``); one that failed left no row, so trying again is safe. Keys
live a day.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypeVar

from django.db import transaction
from django.utils import timezone

from rules.errors import Problem, Refusal
from scoring.models import IdempotentRequest
from scoring.services.hands import TableCodeWriter, game_lock
from tournament.users import Writer, account

Done = TypeVar("Done")

KEY_LIFETIME = timedelta(hours=24)
KEY_LENGTH = 255  # the column's length


class KeyReused(Refusal):
    """The key was used for a different request (another body or another path); the API answers 422."""


@dataclass(frozen=True, slots=True)
class Answered:
    """The first request's answer, to give again."""

    status: int
    body: Any
    headers: dict[str, str]


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
    with transaction.atomic():
        if isinstance(writer, TableCodeWriter):
            # Writers without an account own their keys as nobody, and a unique row with a NULL owner makes no one
            # wait: two copies of one form take turns on the game's row instead.
            game_lock(writer.game_id)
        claimed = claim(user=writer, key=key, asked=asked)
        if isinstance(claimed, Answered):
            return claimed
        done = write()
        answer = kept(done)
        if answer is None:
            transaction.set_rollback(True)
            return done
        remember(claimed, status=answer.status, body=answer.body, headers=answer.headers)
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
    row, created = IdempotentRequest.objects.get_or_create(user=owner, key=key, defaults={"fingerprint": asked})
    if created:
        return row
    if row.created_at < timezone.now() - KEY_LIFETIME:  # a day old: the key is free again
        row.delete()
        return IdempotentRequest.objects.create(user=owner, key=key, fingerprint=asked)
    if row.fingerprint != asked or row.status is None:
        raise KeyReused(
            [Problem("Idempotency-Key", "was already used for another request; send a new key with each new request")]
        )
    return Answered(status=row.status, body=row.body, headers=dict(row.headers))


def remember(row: IdempotentRequest, *, status: int, body: Any, headers: dict[str, str]) -> None:
    """Keep the answer the claimed request got (in the same transaction as its write)."""
    row.status, row.body, row.headers = status, body, headers
    row.save(update_fields=["status", "body", "headers"])
