"""E-mail for password resets, from the environment: EMAIL_URL or its parts; the console without a host."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import email_settings

PARTS = (
    "EMAIL_URL",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "EMAIL_USE_SSL",
)


@pytest.fixture(autouse=True)
def _no_mail_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PARTS:
        monkeypatch.delenv(name, raising=False)


def test_without_a_host_mail_goes_to_the_console():
    assert email_settings()["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"


def test_an_email_url_names_the_smtp_server(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("EMAIL_URL", "smtp://mailer:p%40ss@mail.example.org:587?tls=1")
    assert email_settings() == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "mail.example.org",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "mailer",
        "EMAIL_HOST_PASSWORD": "p@ss",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
    }
    monkeypatch.setenv("EMAIL_URL", "smtps://mail.example.org")
    assert (email_settings()["EMAIL_PORT"], email_settings()["EMAIL_USE_SSL"]) == (465, True)


def test_the_parts_work_without_a_url(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("EMAIL_HOST", "mail.example.org")
    monkeypatch.setenv("EMAIL_USE_TLS", "1")
    got = email_settings()
    assert (got["EMAIL_BACKEND"], got["EMAIL_PORT"], got["EMAIL_USE_TLS"]) == (
        "django.core.mail.backends.smtp.EmailBackend",
        587,
        True,
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [("EMAIL_URL", "http://mail.example.org"), ("EMAIL_URL", "smtp://"), ("EMAIL_USE_TLS", "perhaps")],
)
def test_a_value_that_cannot_be_read_is_refused(monkeypatch: pytest.MonkeyPatch, name: str, value: str):
    monkeypatch.setenv(name, value)
    with pytest.raises(ImproperlyConfigured, match=name):
        email_settings()


def test_tls_and_ssl_together_are_refused(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("EMAIL_HOST", "mail.example.org")
    monkeypatch.setenv("EMAIL_USE_TLS", "1")
    monkeypatch.setenv("EMAIL_USE_SSL", "1")
    with pytest.raises(ImproperlyConfigured, match="one or the other"):
        email_settings()
