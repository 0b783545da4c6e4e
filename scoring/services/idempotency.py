"""Creating requests made at most once: an ``Idempotency-Key`` claims its request in the write's transaction.

``claim`` runs inside the transaction that makes the write: the key's row and
the write commit together or not at all. A second request with the key waits
for the first to commit (the row's unique constraint), then gets its answer
back; one that failed left no row, so trying again is safe. Keys live a day.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.utils import timezone

from rules.errors import Problem
from scoring.models import IdempotentRequest
from tournament.errors import InvalidInput
from tournament.users import Writer, account

KEY_LIFETIME = timedelta(hours=24)
KEY_LENGTH = 255  # the column's length


class KeyReused(InvalidInput):
    """The key was used for a different request (another body or another path); the API answers 422."""


@dataclass(frozen=True, slots=True)
class Answered:
    """The first request's answer, to give again."""

    status: int
    body: Any
    headers: dict[str, str]


def fingerprint(*parts: Any) -> str:
    """What a request asked for, as a short hash of its method, path, query parameters and parsed body."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def claim(*, user: Writer | None, key: str, asked: str) -> IdempotentRequest | Answered:
    """Claim ``key`` for this request (in the caller's transaction), or the answer the key already got."""
    if not key or len(key) > KEY_LENGTH or not key.isprintable() or not key.isascii():
        raise InvalidInput([Problem("Idempotency-Key", f"must be 1 to {KEY_LENGTH} printable ASCII characters")])
    owner = account(user)
    row, created = IdempotentRequest.objects.get_or_create(user=owner, key=key, defaults={"fingerprint": asked})
    if created:
        return row
    if row.created_at < timezone.now() - KEY_LIFETIME:  # a day old: the key is free again
        row.delete()
        return IdempotentRequest.objects.create(user=owner, key=key, fingerprint=asked)
    if row.fingerprint != asked or row.status is None:
        raise KeyReused([Problem("Idempotency-Key", "was already used for another request; send a new key "
                                 "with each new request")])
    return Answered(status=row.status, body=row.body, headers=dict(row.headers))


def remember(row: IdempotentRequest, *, status: int, body: Any, headers: dict[str, str]) -> None:
    """Keep the answer the claimed request got (in the same transaction as its write)."""
    row.status, row.body, row.headers = status, body, headers
    row.save(update_fields=["status", "body", "headers"])
