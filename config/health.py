"""``GET /health/``: can this process serve? The database, the cache, the broker, the migrations.

A load balancer or ``docker compose`` polls it: 200 ``{"status": "ok", "checks": {...}}``, or 503 with
``"status": "failing"`` and each failing check marked ``"failed: <ExceptionClass>"``. The reason in full goes
to the log, not to the answer: the endpoint is public, and a database error names internal hosts.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable

from django.core.cache import cache, caches
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from config.celery import app

logger = logging.getLogger("config.health")
# Seconds a check may take: a probe that hangs is as bad as one that fails.
BROKER_TIMEOUT = 2
_migrated = False  # once every migration is applied this process need not look again (a deploy restarts it)


def check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def check_cache() -> str:
    # The shared cache answers a failure from the process's memory (config.cache): ask Redis itself.
    ping = getattr(caches["default"], "ping", None)
    if ping is not None:
        ping()
    key = f"health:{uuid.uuid4().hex}"
    cache.set(key, "1", timeout=10)
    found = cache.get(key)
    cache.delete(key)
    if found != "1":
        raise RuntimeError("the cache did not keep a value")
    return "ok"


def check_broker() -> str:
    if app.conf.task_always_eager:
        return "eager"  # no broker configured: tasks run in the request's process
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=0, timeout=BROKER_TIMEOUT)
    return "ok"


def check_migrations() -> str:
    global _migrated
    if not _migrated:
        executor = MigrationExecutor(connection)
        pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if pending:
            raise RuntimeError(f"{len(pending)} migrations not applied (run manage.py migrate)")
        _migrated = True
    return "ok"


CHECKS: dict[str, Callable[[], str]] = {
    "database": check_database,
    "cache": check_cache,
    "broker": check_broker,
    "migrations": check_migrations,
}


def run_checks() -> tuple[bool, dict[str, str]]:
    """Every check, each on its own: one failing does not hide the state of the others."""
    results: dict[str, str] = {}
    for name, check in CHECKS.items():
        try:
            results[name] = check()
        except Exception as exc:
            logger.exception("health check %s failed", name)
            results[name] = f"failed: {type(exc).__name__}"
    healthy = not any(value.startswith("failed") for value in results.values())
    return healthy, results


@never_cache
def health(request: HttpRequest) -> JsonResponse:
    healthy, results = run_checks()
    body: dict[str, object] = {"status": "ok" if healthy else "failing", "checks": results}
    if not healthy:
        body["failing"] = [name for name, value in results.items() if value.startswith("failed")]
    return JsonResponse(body, status=200 if healthy else 503)
