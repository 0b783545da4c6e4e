"""The project's wiring: settings helpers, the database in use, Celery's default mode."""

from __future__ import annotations

import os
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from config.celery import app
from config.settings import database_from_url, env_bool, env_list


def test_database_from_url():
    pg = database_from_url("postgres://postgres:s3cret@127.0.0.1:5432/mahjong")
    assert (pg["ENGINE"], pg["NAME"], pg["USER"], pg["PASSWORD"], pg["HOST"], pg["PORT"]) == (
        "django.db.backends.postgresql", "mahjong", "postgres", "s3cret", "127.0.0.1", "5432")
    assert database_from_url("sqlite:///tmp/x.db")["NAME"] == "tmp/x.db"
    with pytest.raises(ValueError, match="unsupported scheme"):
        database_from_url("mysql://x/y")


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
    if settings.CELERY_BROKER_URL:
        pytest.skip("a broker is configured")
    assert app.conf.task_always_eager is True


def test_the_korean_catalogue_is_complete():
    """Every message the templates and code mark has a Korean translation, none left fuzzy."""
    po = (settings.BASE_DIR / "config" / "locale" / "ko" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    entries = [e for e in po.split("\n\n")[1:] if "msgid" in e]
    untranslated = [e for e in entries if re.search(r'^msgstr(\[0\])? ""\n(?!")', e + "\n", re.MULTILINE)]
    assert not untranslated, untranslated[:5]
    assert "#, fuzzy" not in po.split("\n\n", 1)[1]
    assert len(entries) > 80
