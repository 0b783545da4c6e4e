"""The keys that seal the history: held by the servers, never by the database (issue 25).

A plain hash over public content can be recomputed by anyone who can write the
database, so a database admin could rewrite a hand and rehash every entry after
it. Each entry is therefore sealed with HMAC-SHA256 under a key from the
environment (``HISTORY_KEY``; by default one derived from ``SECRET_KEY``, so a
server that sets only its SECRET_KEY is sealed too). Each entry names the key's
id, a fingerprint that reveals nothing of the key, so that the key can be
rotated: the new key seals new entries, and the keys in ``HISTORY_OLD_KEYS``
(and those derived from ``SECRET_KEY_FALLBACKS``) still verify the old ones.
"""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings

# Entries written before keyed sealing carry no key id: plain SHA-256, checked but not trusted.
UNKEYED = ""


def _derived(secret: str) -> bytes:
    # A key of its own, not SECRET_KEY itself: a leak of one use of SECRET_KEY tells nothing of the other.
    return hmac.new(secret.encode("utf-8"), b"mahjong-tournament history seal v1", hashlib.sha256).digest()


def key_id(key: bytes) -> str:
    """A key's public name: 16 hex digits of a hash of it, which cannot be turned back into the key."""
    return hashlib.sha256(b"history key id:" + key).hexdigest()[:16]


def _current() -> bytes:
    configured: str = getattr(settings, "HISTORY_KEY", "")
    return configured.encode("utf-8") if configured else _derived(settings.SECRET_KEY)


def _retired() -> list[bytes]:
    old: list[str] = list(getattr(settings, "HISTORY_OLD_KEYS", []))
    fallbacks: list[str] = list(getattr(settings, "SECRET_KEY_FALLBACKS", []))
    keys = [k.encode("utf-8") for k in old if k]
    keys.append(_derived(settings.SECRET_KEY))  # once HISTORY_KEY is set, what SECRET_KEY sealed still verifies
    keys.extend(_derived(secret) for secret in fallbacks if secret)
    return keys


def sealing_key() -> tuple[str, bytes]:
    """The key new entries are sealed with, and its id."""
    key = _current()
    return key_id(key), key


def verifying_key(name: str) -> bytes | None:
    """The key an entry names, when this server holds it."""
    for key in (_current(), *_retired()):
        if hmac.compare_digest(key_id(key).encode(), name.encode()):
            return key
    return None


def mac(key: bytes, message: bytes) -> str:
    return hmac.new(key, message, hashlib.sha256).hexdigest()
