"""The shared cache (Redis, ``CACHE_URL``) that never turns its own failure into a failed request.

Everything the project keeps in the cache can be made again from the database: a rendered standings table,
an anonymous page, a throttle's count. So a cache that cannot be reached is a cache miss. While Redis does
not answer, each process keeps its entries in its own memory instead (bounded, like every entry here, by a
timeout): pages are rendered from the database, and the counts of wrong codes go on being counted, per
process, rather than not at all, so a Redis outage does not lift the limit on guessing a code. The outage
is logged once a minute per process; ``/health/`` reports it (``ping``). After a failure the process leaves
Redis alone for a few seconds: a dead host would otherwise cost every cache call its socket timeout.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger("config.cache")

RETRY_SECONDS = 5  # how long a process serves from its own memory before it tries Redis again
LOG_SECONDS = 60  # at most one warning per process this often while Redis stays down
# The longest an entry lives, asked for or not: with every cache entry expiring, a Redis shared with the
# broker can evict the cache's entries alone (maxmemory-policy volatile-lru) and never a queued task.
MAX_TIMEOUT = 24 * 3600
LOCAL_ENTRIES = 1000  # what one process keeps for itself while Redis is down (locmem culls beyond it)


class _Outage:
    """Whether Redis at one address is being left alone, shared by the threads of a process."""

    def __init__(self, servers: list[str]) -> None:
        # The addresses without a password: the log is read by more people than the settings.
        self.where = ", ".join(server.split("://", 1)[-1].rsplit("@", 1)[-1] for server in servers)
        self.lock = threading.Lock()
        self.until = 0.0  # leave Redis alone until then
        self.down = False
        self.logged = -float(LOG_SECONDS)

    def skipping(self) -> bool:
        return time.monotonic() < self.until

    def failed(self, exc: Exception) -> None:
        now = time.monotonic()
        with self.lock:
            self.until, self.down = now + RETRY_SECONDS, True
            due = now - self.logged >= LOG_SECONDS
            if due:
                self.logged = now
        if due:
            logger.warning(
                "cache unavailable (%s: %s): serving from the database and this process's memory",
                self.where,
                type(exc).__name__,
            )

    def answered(self) -> None:
        if self.down:
            with self.lock:
                self.down, self.logged = False, -float(LOG_SECONDS)
            logger.warning("cache reachable again (%s)", self.where)


_outages: dict[str, _Outage] = {}
_outages_lock = threading.Lock()


def _outage(servers: list[str]) -> _Outage:
    with _outages_lock:
        return _outages.setdefault(",".join(servers), _Outage(servers))


class _FailSafeClient(RedisCacheClient):
    """Django's Redis client, each call answered from the process's memory when Redis fails."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._outage = _outage(servers)
        self._local = LocMemCache(
            "config.cache:" + ",".join(servers), {"TIMEOUT": None, "OPTIONS": {"MAX_ENTRIES": LOCAL_ENTRIES}}
        )

    def _either(self, name: str, *args: Any) -> Any:
        if not self._outage.skipping():
            try:
                answer = getattr(super(), name)(*args)
            except RedisError as exc:
                self._outage.failed(exc)
            else:
                self._outage.answered()
                return answer
        return getattr(self._local, name)(*args)

    def ping(self) -> None:
        """Raise unless Redis answers (for /health/: the fallback would hide an outage)."""
        self.get_client(write=True).ping()

    def add(self, key: Any, value: Any, timeout: Any) -> Any:
        return self._either("add", key, value, timeout)

    def get(self, key: Any, default: Any) -> Any:
        return self._either("get", key, default)

    def set(self, key: Any, value: Any, timeout: Any) -> Any:
        return self._either("set", key, value, timeout)

    def touch(self, key: Any, timeout: Any) -> Any:
        return self._either("touch", key, timeout)

    def delete(self, key: Any) -> Any:
        return self._either("delete", key)

    def get_many(self, keys: Any) -> Any:
        return self._either("get_many", list(keys))

    def has_key(self, key: Any) -> Any:
        return self._either("has_key", key)

    def incr(self, key: Any, delta: Any) -> Any:
        return self._either("incr", key, delta)

    def set_many(self, data: Any, timeout: Any) -> Any:
        return self._either("set_many", data, timeout)

    def delete_many(self, keys: Any) -> Any:
        return self._either("delete_many", keys)

    def clear(self) -> Any:
        return self._either("clear")


class FailSafeRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` whose failures are misses, and whose entries expire."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _FailSafeClient

    def get_backend_timeout(self, timeout: Any = DEFAULT_TIMEOUT) -> int | None:
        seconds = super().get_backend_timeout(timeout)
        return MAX_TIMEOUT if seconds is None else min(int(seconds), MAX_TIMEOUT)

    def ping(self) -> None:
        """Raise unless Redis itself answers."""
        client: _FailSafeClient = self._cache  # type: ignore[attr-defined]  # Django's, built on first use
        client.ping()
