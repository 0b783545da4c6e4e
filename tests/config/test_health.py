"""GET /health/: every check named, 200 when all pass, 503 naming the one that fails; never cached, no login."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

import config.health
from config.celery import app

pytestmark = pytest.mark.django_db


def health(**headers: str) -> tuple[int, dict[str, Any], Any]:
    response = Client().get("/health/", headers=headers)
    return response.status_code, response.json(), response


def test_healthy():
    status, body, response = health()
    assert status == 200
    assert body == {
        "status": "ok",
        "checks": {
            "database": "ok",
            "cache": "ok",
            "broker": "eager" if app.conf.task_always_eager else "ok",
            "migrations": "ok",
        },
    }
    assert "no-store" in response["Cache-Control"]


@pytest.fixture
def broker() -> Iterator[Callable[[str], None]]:
    """``broker(url)``: the Celery app sends to that broker (not eagerly) for the test."""
    saved = {name: app.conf[name] for name in ("task_always_eager", "broker_url")}
    yield lambda url: app.conf.update(task_always_eager=False, broker_url=url)
    app.conf.update(saved)


def test_a_broker_on_a_closed_port_fails_the_broker_check(broker):
    broker("redis://127.0.0.1:1/0")
    status, body, _ = health()
    assert status == 503
    assert body["status"] == "failing"
    assert body["failing"] == ["broker"]
    assert body["checks"]["broker"].startswith("failed: ")
    assert body["checks"]["database"] == "ok"


def test_a_real_broker_passes(broker):
    """The machine's Redis (CI runs one) as the broker: the check connects to it."""
    broker("redis://127.0.0.1:6379/15")
    status, body, _ = health()
    assert (status, body["checks"]["broker"]) == (200, "ok")


def test_a_dead_cache_fails_the_cache_check(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    status, body, _ = health()
    assert (status, body["failing"]) == (503, ["cache"])


def test_unapplied_migrations_fail_the_migrations_check(monkeypatch):
    monkeypatch.setattr(config.health, "_migrated", False)
    monkeypatch.setattr(MigrationExecutor, "migration_plan", lambda self, targets: [("scoring", "9999_new")])
    status, body, _ = health()
    assert status == 503
    assert body["failing"] == ["migrations"]
    assert body["checks"]["migrations"] == "failed: RuntimeError"


def test_a_failing_database_is_named(monkeypatch):
    def broken() -> str:
        raise ConnectionError("database gone")

    monkeypatch.setitem(config.health.CHECKS, "database", broken)
    status, body, _ = health()
    assert (status, body["failing"], body["checks"]["database"]) == (503, ["database"], "failed: ConnectionError")
    assert "database gone" not in str(body)  # the reason goes to the log, not to a public answer
