"""Production mode: the environment read strictly, the SECRET_KEY refused when serving (and only then), the
deployment checks clean with the documented environment, the broker failing fast."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.deploy import DEVELOPMENT_SECRET_KEY
from config.env import cache_apart_from_broker, cache_from_url, env_bool, env_int, env_rate
from tests.config.conftest import GOOD_KEY, Run, manage, python

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": GOOD_KEY,
    "ALLOWED_HOSTS": "mahjong.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://mahjong.example.org",
    "SECURE_HTTPS": "1",
}


# --- reading the environment ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("true", True),
        ("Yes", True),
        (" on ", True),
        ("0", False),
        ("False", False),
        ("off", False),
        ("", True),  # empty is unset: the default
    ],
)
def test_env_bool_reads_the_usual_spellings(monkeypatch, raw, expected):
    monkeypatch.setenv("FLAG", raw)
    assert env_bool("FLAG", default=True) is expected


@pytest.mark.parametrize("raw", ["Ture", "2", "enabled", "y e s"])
def test_env_bool_refuses_anything_else(monkeypatch, raw):
    monkeypatch.setenv("DEBUG", raw)
    with pytest.raises(ImproperlyConfigured, match=r"DEBUG=.*expected 1 or 0"):
        env_bool("DEBUG")


def test_env_int_and_rate_refuse_what_they_cannot_read(monkeypatch):
    monkeypatch.setenv("SECURE_HSTS_SECONDS", "1 year")
    with pytest.raises(ImproperlyConfigured, match="SECURE_HSTS_SECONDS='1 year': expected a whole number"):
        env_int("SECURE_HSTS_SECONDS", 0)
    monkeypatch.setenv("SECURE_HSTS_SECONDS", "600")
    assert env_int("SECURE_HSTS_SECONDS", 0) == 600
    assert env_rate("NO_SUCH_RATE", "100/minute") == "100/minute"
    monkeypatch.setenv("API_ANON_READ_RATE", "off")
    assert env_rate("API_ANON_READ_RATE", "100/minute") is None
    monkeypatch.setenv("API_ANON_READ_RATE", "lots")
    with pytest.raises(ImproperlyConfigured, match="API_ANON_READ_RATE"):
        env_rate("API_ANON_READ_RATE", "100/minute")


def test_cache_from_url():
    assert cache_from_url("")["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    redis = cache_from_url("redis://127.0.0.1:6379/1")
    assert (redis["BACKEND"], redis["LOCATION"]) == ("config.cache.FailSafeRedisCache", "redis://127.0.0.1:6379/1")
    assert redis["OPTIONS"]["socket_timeout"] <= 2
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL: unsupported scheme 'memcached'"):
        cache_from_url("memcached://127.0.0.1:11211")


@pytest.mark.parametrize(
    ("cache", "broker"),
    [
        ("redis://redis:6379/0", "redis://redis:6379/0"),
        ("redis://redis:6379", "redis://redis:6379/0"),  # no number is database 0
        ("redis://:secret@Redis:6379/1", "redis://redis/1"),
        ("redis://redis:6379?db=2", "redis://redis:6379/2"),
    ],
)
def test_the_cache_is_refused_in_the_brokers_redis_database(cache, broker):
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL and CELERY_BROKER_URL name the same Redis database"):
        cache_apart_from_broker(cache, broker)


@pytest.mark.parametrize(
    ("cache", "broker"),
    [
        ("redis://redis:6379/1", "redis://redis:6379/0"),
        ("redis://cache:6379/0", "redis://queue:6379/0"),
        ("redis://redis:6380/0", "redis://redis:6379/0"),
        ("", "redis://redis:6379/0"),
        ("redis://redis:6379/0", ""),
    ],
)
def test_a_cache_apart_from_the_broker_is_accepted(cache, broker):
    cache_apart_from_broker(cache, broker)


def test_a_bad_value_stops_every_command(run: Run):
    """DEBUG=Ture is not quietly False: the settings refuse to load, naming the variable."""
    result = run(*manage("score_sheet", "examples/wrc-demo.json"), DEBUG="Ture")
    assert result.returncode != 0
    assert "DEBUG='Ture': expected 1 or 0" in result.stderr
    result = run(*manage("check"), DATABASE_URL="mysql://db/mahjong")
    assert result.returncode != 0
    assert "DATABASE_URL: unsupported scheme 'mysql'" in result.stderr
    result = run(*manage("check"), CACHE_URL="redis://127.0.0.1:6379/0", CELERY_BROKER_URL="redis://127.0.0.1:6379/0")
    assert result.returncode != 0
    assert "CACHE_URL and CELERY_BROKER_URL name the same Redis database (0)" in result.stderr


# --- the SECRET_KEY: refused when serving, not needed offline -----------------------------------------------


SERVE = "import config.{module}; print('served')"


@pytest.mark.parametrize("module", ["wsgi", "asgi"])
def test_serving_refuses_the_development_key_with_debug_off(run: Run, module: str):
    for environment in ({"DEBUG": "0"}, {}, {"DEBUG": "0", "SECRET_KEY": DEVELOPMENT_SECRET_KEY}):
        refused = run(*python("-c", SERVE.format(module=module)), **environment)
        assert refused.returncode != 0, environment
        assert "SECRET_KEY is not set, and the development default is public" in refused.stderr
        assert "served" not in refused.stdout
    for environment in ({"DEBUG": "0", "SECRET_KEY": GOOD_KEY}, {"DEBUG": "1"}):
        served = run(*python("-c", SERVE.format(module=module)), **environment)
        assert (served.returncode, served.stdout.strip()) == (0, "served"), served.stderr[-2000:]


@pytest.mark.parametrize(
    ("environment", "named"),
    [
        ({"SECRET_KEY": "abc"}, "SECRET_KEY is too weak to serve with: 3 characters"),
        ({"SECRET_KEY": "ab" * 40}, "SECRET_KEY is too weak to serve with: 80 characters, 2 different"),
        ({"SECRET_KEY": GOOD_KEY, "HISTORY_KEY": "short-history-key"}, "HISTORY_KEY is too weak to serve with: 17"),
    ],
)
def test_serving_refuses_a_weak_key(run: Run, environment: dict[str, str], named: str):
    """A player's code is an HMAC under SECRET_KEY: one known code lets anyone search a short key offline."""
    refused = run(*python("-c", SERVE.format(module="wsgi")), DEBUG="0", **environment)
    assert refused.returncode != 0
    assert named in refused.stderr
    assert "served" not in refused.stdout


def test_gunicorn_and_runserver_refuse_it_too(run: Run):
    gunicorn = run(*python("-m", "gunicorn", "--check-config", "config.wsgi"), DEBUG="0")
    assert gunicorn.returncode != 0
    assert "SECRET_KEY is not set" in gunicorn.stderr
    assert (
        run(*python("-m", "gunicorn", "--check-config", "config.wsgi"), DEBUG="0", SECRET_KEY=GOOD_KEY).returncode == 0
    )
    # With the autoreloader on (the default): refused before it starts, so the command ends.
    runserver = run(*manage("runserver", "127.0.0.1:0"), DEBUG="0", timeout=60)
    assert runserver.returncode == 1
    assert "CommandError: SECRET_KEY is not set" in runserver.stderr


def test_offline_commands_need_no_key(run: Run):
    migrated = run(*manage("migrate", "--no-input", "--verbosity", "0"), DEBUG="0")
    assert migrated.returncode == 0, migrated.stderr[-2000:]
    scored = run(*manage("score_sheet", "examples/wrc-demo.json", "--format", "json"), DEBUG="0")
    assert scored.returncode == 0, scored.stderr[-2000:]
    assert '"final"' in scored.stdout


def test_check_deploy_refuses_the_development_key(run: Run):
    refused = run(*manage("check", "--deploy"), **{**PRODUCTION, "SECRET_KEY": ""})
    assert refused.returncode != 0
    assert "(config.E001) SECRET_KEY is not set" in refused.stderr


def test_check_deploy_is_clean_with_the_documented_environment(run: Run):
    result = run(*manage("check", "--deploy"), **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout
    # Without HTTPS settings Django's own warnings come back: the check sees them.
    plain = run(*manage("check", "--deploy"), **{**PRODUCTION, "SECURE_HTTPS": "0"})
    assert {"security.W004", "security.W008", "security.W012", "security.W016"} <= {
        word.strip("():") for word in plain.stderr.split() if word.startswith("(security.")
    }


HTTPS_PROBE = """
from django.test import Client
import django; django.setup()
client = Client()
health = client.get("/health/", HTTP_HOST="mahjong.example.org")
page = client.get("/api/v1/rulesets/", HTTP_HOST="mahjong.example.org")
secure = client.get("/api/v1/rulesets/", HTTP_HOST="mahjong.example.org", HTTP_X_FORWARDED_PROTO="https")
print(health.status_code, page.status_code, page.get("Location"), secure.status_code,
      secure.get("Strict-Transport-Security"), sep="|")
"""


def test_behind_a_tls_proxy(run: Run):
    """SECURE_HTTPS=1: plain HTTP is redirected (but /health/), the proxy's header counts as HTTPS, HSTS."""
    result = run(*python("-c", HTTPS_PROBE), DJANGO_SETTINGS_MODULE="config.settings", **PRODUCTION)
    assert result.returncode == 0, result.stderr[-3000:]
    health, page, location, secure, hsts = result.stdout.strip().splitlines()[-1].split("|")
    assert health != "301"  # answered (503 here: the child's database has no tables), not redirected
    assert (page, location) == ("301", "https://mahjong.example.org/api/v1/rulesets/")
    # Subdomains and preload bind more than this site, for longer than it may live: the domain owner opts in.
    assert (secure, hsts) == ("200", "max-age=31536000")
    opted = run(
        *python("-c", HTTPS_PROBE),
        DJANGO_SETTINGS_MODULE="config.settings",
        **PRODUCTION,
        SECURE_HSTS_INCLUDE_SUBDOMAINS="1",
        SECURE_HSTS_PRELOAD="1",
    )
    assert opted.stdout.strip().splitlines()[-1].split("|")[-1] == "max-age=31536000; includeSubDomains; preload"


# --- Celery: a dead broker fails a publish fast ---------------------------------------------------------------


def test_broker_timeouts_are_short():
    from config.celery import app  # configured from the settings

    assert app.conf.broker_connection_timeout <= 2
    assert app.conf.broker_transport_options["socket_timeout"] <= 2
    assert app.conf.broker_transport_options["socket_connect_timeout"] <= 2
    assert app.conf.task_publish_retry_policy["max_retries"] <= 1
    assert app.conf.task_publish_retry_policy["interval_start"] == 0


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers: a hung Redis."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    try:
        yield listener.getsockname()[1]
    finally:
        listener.close()


DELAY = """
import time, django
django.setup()
from scoring.tasks import recompute_standings
started = time.monotonic()
try:
    recompute_standings.delay(1)
except Exception as exc:
    print(type(exc).__name__)
print(round(time.monotonic() - started, 2))
"""


@pytest.mark.parametrize("broker", ["closed", "silent"])
def test_a_dead_broker_fails_delay_within_about_two_seconds(run: Run, silent_port: int, broker: str):
    port = 1 if broker == "closed" else silent_port
    result = run(
        *python("-c", DELAY), DJANGO_SETTINGS_MODULE="config.settings", CELERY_BROKER_URL=f"redis://127.0.0.1:{port}/0"
    )
    assert result.returncode == 0, result.stderr[-3000:]
    error, _seconds = result.stdout.split()[-2:]
    assert error == "OperationalError"  # refused, not left hanging (benchmarks/load.py measures how fast)
