"""Typed readers of the environment for the settings (healthchecks' style): a value that cannot be read is an
error naming the variable, never a silent default (``DEBUG=Ture`` does not quietly mean False).

An empty variable counts as unset, so that ``KEY=`` in an env file or a compose file leaves the default.
"""

from __future__ import annotations

import os
import re
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}
# DRF's throttle rates: "100/minute"; DRF reads only the first letter of the period.
_RATE = re.compile(r"^\d+/(s|sec|second|m|min|minute|h|hour|d|day)$")
_DATABASE_SCHEMES = {"postgres", "postgresql", "sqlite"}
_CACHE_SCHEMES = {"redis", "rediss", "unix"}
# A dead Redis under the cache must cost a request seconds, not the TCP default of minutes.
CACHE_SOCKET_TIMEOUT = 2


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name) or default


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={os.environ[name]!r}: expected 1 or 0 (or true/false, yes/no, on/off)")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected a whole number") from None


def env_list(name: str, default: str = "") -> list[str]:
    """A comma-separated list: ``a.example.org, b.example.org``."""
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """One of ``choices``, as written (case aside)."""
    raw = env_str(name, default).strip().lower()
    if raw not in choices:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected one of {', '.join(choices)}")
    return raw


def env_rate(name: str, default: str) -> str | None:
    """A DRF throttle rate such as ``600/minute``, or ``off`` for no limit (None)."""
    raw = env_str(name, default).strip().lower()
    if raw == "off":
        return None
    if not _RATE.match(raw):
        raise ImproperlyConfigured(f"{name}={raw!r}: expected a rate such as 600/minute (or off)")
    return raw


SQLITE_LOCK_WAIT = 20  # seconds a writer waits for another's transaction to end
SQLITE_INIT = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL"


def database_from_url(url: str, *, conn_max_age: int = 60) -> dict[str, Any]:
    """postgres://user:pass@host:port/name?sslmode=require or sqlite:///path -> a DATABASES entry.

    dj-database-url does the parsing (quoted passwords, query options into OPTIONS); only the engines this
    project is tested on are accepted. Health checks make a persistent connection that died with a database
    restart get replaced before use, instead of failing one request per worker.
    """
    scheme = url.split("://", 1)[0] if "://" in url else ""
    if scheme not in _DATABASE_SCHEMES:
        raise ImproperlyConfigured(f"DATABASE_URL: unsupported scheme {scheme!r} (use postgres:// or sqlite:///)")
    if scheme == "sqlite":
        conn_max_age = 0  # a file opened per request costs nothing worth keeping (as before DATABASE_URL)
    try:
        parsed = dj_database_url.parse(url, conn_max_age=conn_max_age, conn_health_checks=True)
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL: {exc}") from None
    if scheme == "sqlite":
        # SQLite locks the whole file to write: a transaction takes the lock when it begins (IMMEDIATE) and
        # waits for it, instead of failing with "database is locked" when two requests write at once. In WAL
        # mode readers and the writer do not wait for each other (in the default mode a commit waits until
        # every reader has let go: the standings' readers held the referees' writes back), and a commit syncs
        # the log only (NORMAL): a power cut may lose the last commits, never corrupt the file.
        parsed["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": SQLITE_LOCK_WAIT,
            "init_command": SQLITE_INIT,
            **parsed.get("OPTIONS", {}),
        }
    return dict(parsed)


def redis_database(url: str) -> tuple[str, int, int] | None:
    """The (host, port, database number) a redis:// URL names, as Redis would read it; None for other URLs."""
    parts = urlsplit(url)
    if parts.scheme not in {"redis", "rediss"}:
        return None
    number = parse_qs(parts.query).get("db", [parts.path.strip("/") or "0"])[0]
    try:
        return (parts.hostname or "localhost").lower(), parts.port or 6379, int(number or 0)
    except ValueError:
        return None  # redis-py refuses it when it connects, naming the URL


def cache_apart_from_broker(cache_url: str, broker_url: str) -> None:
    """Refuse a cache in the broker's Redis database: cache.clear() is FLUSHDB there, which would drop the
    queued tasks, and a flood of cache entries would compete with them for the same memory."""
    where = redis_database(cache_url)
    if where is not None and where == redis_database(broker_url):
        raise ImproperlyConfigured(
            f"CACHE_URL and CELERY_BROKER_URL name the same Redis database ({where[2]}): "
            "give the cache its own, e.g. redis://host:6379/1 with the broker on /0"
        )


def cache_from_url(url: str) -> dict[str, Any]:
    """redis://host:port/db -> the shared Redis cache whose failures are misses (config.cache); nothing -> local
    memory."""
    if not url:
        # One process's memory: right for the single-process quick start and the tests.
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    scheme = url.split("://", 1)[0] if "://" in url else ""
    if scheme not in _CACHE_SCHEMES:
        raise ImproperlyConfigured(f"CACHE_URL: unsupported scheme {scheme!r} (use redis://host:6379/1)")
    return {
        "BACKEND": "config.cache.FailSafeRedisCache",
        "LOCATION": url,
        "OPTIONS": {"socket_connect_timeout": CACHE_SOCKET_TIMEOUT, "socket_timeout": CACHE_SOCKET_TIMEOUT},
    }


_EMAIL_SCHEMES = {"smtp": False, "smtps": True}  # smtps:// is SMTP over TLS from the start (port 465)


def email_settings() -> dict[str, Any]:
    """The e-mail settings (password resets): ``EMAIL_URL`` (smtp://user:password@host:587?tls=1, or smtps://
    for port 465), else EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS and
    EMAIL_USE_SSL. Without a host, mail is printed on the console (the tests use pytest-django's outbox)."""
    url = env_str("EMAIL_URL")
    if url:
        parts = urlsplit(url)
        if parts.scheme not in _EMAIL_SCHEMES or not parts.hostname:
            raise ImproperlyConfigured(
                f"EMAIL_URL: expected smtp://user:password@host:587?tls=1 (or smtps://), not scheme {parts.scheme!r}"
            )
        ssl = _EMAIL_SCHEMES[parts.scheme]
        tls = parse_qs(parts.query).get("tls", ["0"])[0].lower() in _TRUE
        host, port = parts.hostname, parts.port or (465 if ssl else 587 if tls else 25)
        user, password = unquote(parts.username or ""), unquote(parts.password or "")
    else:
        host, ssl, tls = env_str("EMAIL_HOST"), env_bool("EMAIL_USE_SSL"), env_bool("EMAIL_USE_TLS")
        port = env_int("EMAIL_PORT", 465 if ssl else 587 if tls else 25)
        user, password = env_str("EMAIL_HOST_USER"), env_str("EMAIL_HOST_PASSWORD")
    if ssl and tls:
        raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL: one or the other, not both")
    backend = "smtp" if host else "console"
    return {
        "EMAIL_BACKEND": f"django.core.mail.backends.{backend}.EmailBackend",
        "EMAIL_HOST": host or "localhost",
        "EMAIL_PORT": port,
        "EMAIL_HOST_USER": user,
        "EMAIL_HOST_PASSWORD": password,
        "EMAIL_USE_TLS": tls,
        "EMAIL_USE_SSL": ssl,
    }
