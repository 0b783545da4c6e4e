"""Login attempts (django-axes): 10 failures for a username lock it, the right password included, on every
way in (the admin, the referees' login, the API token), until the window has passed. And the anonymous
read throttle of the API."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import client_for

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-organiser-password"
LOGINS = {
    "admin": "/admin/login/?next=/admin/",
    "referee": "/accounts/login/",
}


@pytest.fixture
def boss() -> User:
    return User.objects.create_superuser("boss", "boss@example.org", PASSWORD)


def sign_in(way: str, password: str, username: str = "boss") -> tuple[int, bool]:
    """(status, signed in?) for one attempt through the login form or the token endpoint."""
    client = Client()
    if way == "token":
        response = client.post(
            "/api/v1/auth/token/", {"username": username, "password": password}, content_type="application/json"
        )
        return response.status_code, response.status_code == 200
    response = client.post(LOGINS[way], {"username": username, "password": password})
    return response.status_code, "_auth_user_id" in client.session


def pass_the_window() -> None:
    """What 15 minutes and a second do to the stored attempts."""
    for attempt in AccessAttempt.objects.all():
        attempt.attempt_time -= timedelta(minutes=15, seconds=1)
        attempt.save()


@pytest.mark.parametrize("way", ["admin", "referee", "token"])
def test_ten_failures_lock_the_username_until_the_window_passes(boss: User, way: str):
    assert sign_in(way, PASSWORD)[1] is True
    failures = [sign_in(way, "wrong") for _ in range(10)]
    assert all(not signed_in for _status, signed_in in failures)
    assert [status for status, _ in failures[:9]] == [200 if way != "token" else 400] * 9  # the form again
    assert failures[9][0] == 429  # the tenth locks
    assert sign_in(way, PASSWORD) == (429, False)  # the right password, refused
    pass_the_window()
    assert sign_in(way, PASSWORD)[1] is True


def test_the_lock_is_per_username_and_shared_by_every_way_in(boss: User):
    User.objects.create_user("ref", password=PASSWORD)
    for _ in range(10):
        sign_in("referee", "wrong")
    assert sign_in("admin", PASSWORD) == (429, False)
    assert sign_in("token", PASSWORD) == (429, False)
    assert sign_in("referee", PASSWORD, username="ref")[1] is True  # another username is not locked


def test_nine_failures_do_not_lock(boss: User):
    for _ in range(9):
        sign_in("admin", "wrong")
    assert sign_in("admin", PASSWORD)[1] is True


def test_the_token_lockout_says_when_to_come_back(boss: User):
    for _ in range(10):
        sign_in("token", "wrong")
    response = Client().post(
        "/api/v1/auth/token/", {"username": "boss", "password": PASSWORD}, content_type="application/json"
    )
    assert response.status_code == 429
    assert response["Retry-After"] == str(15 * 60)
    assert response.json()["errors"] == []


# --- the anonymous read throttle ---------------------------------------------------------------------------


def test_anonymous_reads_are_throttled_and_the_rest_is_not(settings, organiser: User):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon_read": "3/minute"}}
    anonymous = client_for(None)
    assert [anonymous.get("/api/v1/rulesets/").status_code for _ in range(4)] == [200, 200, 200, 429]
    refused = anonymous.get("/api/v1/rulesets/")
    assert set(refused.json()) == {"detail", "errors"}
    assert int(refused["Retry-After"]) > 0
    # Signed-in reads and any write are not counted against the address.
    assert client_for(organiser).get("/api/v1/rulesets/").status_code == 200
    assert anonymous.post("/api/v1/events/", {"name": "X"}, format="json").status_code == 401


def test_the_default_rate_is_generous(settings):
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["anon_read"]
    number, period = rate.split("/")
    assert period.startswith("m")
    assert int(number) >= 1000


def test_reads_go_on_when_the_throttles_cache_is_down(settings, caplog: pytest.LogCaptureFixture):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    assert client_for(None).get("/api/v1/rulesets/").status_code == 200
    assert "throttle skipped" in caplog.text
