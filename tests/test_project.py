"""The project's wiring: settings helpers, the database in use, Celery's default mode."""

from __future__ import annotations

import os
import re
import threading
import time
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.db.utils import ConnectionHandler

from config.celery import app
from config.env import database_from_url, env_bool, env_list


def test_database_from_url():
    pg = database_from_url("postgres://postgres:s3cret@127.0.0.1:5432/mahjong")
    assert (pg["ENGINE"], pg["NAME"], pg["USER"], pg["PASSWORD"], pg["HOST"], str(pg["PORT"])) == (
        "django.db.backends.postgresql",
        "mahjong",
        "postgres",
        "s3cret",
        "127.0.0.1",
        "5432",
    )
    # Persistent connections, checked before use: a database restart costs no request a 500.
    assert (pg["CONN_MAX_AGE"], pg["CONN_HEALTH_CHECKS"]) == (60, True)
    # Query options reach the driver; a quoted password is unquoted.
    tls = database_from_url("postgresql://app:p%40ss%2Fw@db.internal/mahjong?sslmode=require&connect_timeout=5")
    assert (tls["PASSWORD"], tls["HOST"], tls["OPTIONS"]) == (
        "p@ss/w",
        "db.internal",
        {"sslmode": "require", "connect_timeout": 5},
    )
    assert database_from_url("sqlite:///tmp/x.db")["NAME"] == "tmp/x.db"
    assert database_from_url("sqlite:////var/lib/mahjong/db.sqlite3")["NAME"] == "/var/lib/mahjong/db.sqlite3"
    assert database_from_url("sqlite:///tmp/x.db")["CONN_MAX_AGE"] == 0
    with pytest.raises(ImproperlyConfigured, match="unsupported scheme 'mysql'"):
        database_from_url("mysql://x/y")
    with pytest.raises(ImproperlyConfigured, match="unsupported scheme"):
        database_from_url("127.0.0.1:5432/mahjong")


def test_env_helpers(monkeypatch):
    monkeypatch.setenv("FLAG", "yes")
    monkeypatch.setenv("HOSTS", "a, b,,c")
    assert env_bool("FLAG") is True
    assert env_bool("MISSING_FLAG", default=True) is True
    assert env_list("HOSTS") == ["a", "b", "c"]


@pytest.mark.django_db
def test_the_configured_database_is_the_one_in_use():
    expected = "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite"
    assert connection.vendor == expected
    get_user_model().objects.create_user("referee", password="x-long-password")
    assert get_user_model().objects.filter(username="referee").count() == 1


def test_celery_runs_eagerly_without_a_broker():
    if os.environ.get("CELERY_BROKER_URL"):
        pytest.skip("a broker is configured")
    assert app.conf.task_always_eager is True
    assert settings.CELERY_TASK_ALWAYS_EAGER is True


def test_the_korean_catalogue_is_complete():
    """Every message the templates and code mark has a Korean translation, none left fuzzy."""
    po = (settings.BASE_DIR / "config" / "locale" / "ko" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    entries = [e for e in po.split("\n\n")[1:] if "msgid" in e]
    untranslated = [e for e in entries if re.search(r'^msgstr(\[0\])? ""\n(?!")', e + "\n", re.MULTILINE)]
    assert not untranslated, untranslated[:5]
    assert "#, fuzzy" not in po.split("\n\n", 1)[1]
    assert len(entries) > 80


def test_an_sqlite_file_queues_its_writers_and_logs_ahead(tmp_path, django_db_blocker):
    """The embedded default's file: WAL (readers and the writer do not wait for each other), commits synced to
    the log (NORMAL), and a second writer waits for the first's transaction instead of failing."""
    with django_db_blocker.unblock():  # a database of its own, beside the tests' one
        _queue_two_writers(tmp_path)


def _queue_two_writers(tmp_path: Any) -> None:
    handler = ConnectionHandler({"default": database_from_url(f"sqlite:///{tmp_path / 'db.sqlite3'}")})
    first = handler["default"]
    with first.cursor() as cursor:
        assert cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert cursor.execute("PRAGMA synchronous").fetchone()[0] == 1
        cursor.execute("CREATE TABLE t (n INTEGER)")
    holding, waited = threading.Event(), []

    def second_writer() -> None:
        holding.wait()
        began = time.monotonic()
        with handler["default"].cursor() as cursor:  # this thread's own connection
            cursor.execute("BEGIN IMMEDIATE")
            cursor.execute("INSERT INTO t VALUES (2)")
            cursor.execute("COMMIT")
        waited.append(time.monotonic() - began)
        handler.close_all()

    writer = threading.Thread(target=second_writer)
    writer.start()
    with first.cursor() as cursor:
        cursor.execute("BEGIN IMMEDIATE")
        cursor.execute("INSERT INTO t VALUES (1)")
        holding.set()
        time.sleep(0.5)  # the second writer asks for the lock meanwhile
        cursor.execute("COMMIT")
    writer.join(timeout=30)
    assert waited  # it wrote
    assert waited[0] >= 0.3  # after waiting for the first
    with first.cursor() as cursor:
        assert cursor.execute("SELECT n FROM t ORDER BY n").fetchall() == [(1,), (2,)]
    first.close()
