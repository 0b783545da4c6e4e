"""What serving the application needs that an offline command does not: a SECRET_KEY of its own, and strong.

The settings fall back to a public development key so that ``score_sheet``, ``migrate`` and the tests run on a
bare machine; serving with it would let anyone forge sessions and password-reset links. So ``wsgi.py`` and
``asgi.py`` (gunicorn, any WSGI or ASGI server) and ``runserver`` (config's own, which stops before its
autoreloader starts) refuse it unless DEBUG is on, and ``check --deploy`` refuses it always (config.E001,
registered in ``config.apps``).
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

# Django's own deploy check flags the "django-insecure-" prefix as well.
DEVELOPMENT_SECRET_KEY = "django-insecure-development-only-key-set-SECRET_KEY-to-serve"


# Players' codes and the history's seals are HMACs under these keys: one known code lets anyone search a short
# key offline, so a key must be too long to search. Django's own deploy check asks for the same.
MIN_KEY_LENGTH = 50
MIN_KEY_CHARACTERS = 5
NEW_KEY = "python -c 'import secrets; print(secrets.token_urlsafe(50))'"


def secret_key_problem() -> str | None:
    """Why the configured SECRET_KEY (or HISTORY_KEY) cannot be used to serve, or None."""
    if settings.SECRET_KEY == DEVELOPMENT_SECRET_KEY:
        return (
            "SECRET_KEY is not set, and the development default is public: set SECRET_KEY to 50 or more "
            f"random characters ({NEW_KEY}), or DEBUG=1 on a development machine"
        )
    for name in ("SECRET_KEY", "HISTORY_KEY"):
        value: str = getattr(settings, name, "")
        if name == "HISTORY_KEY" and not value:
            continue  # derived from SECRET_KEY, checked above
        if len(value) < MIN_KEY_LENGTH or len(set(value)) < MIN_KEY_CHARACTERS:
            return (
                f"{name} is too weak to serve with: {len(value)} characters, {len(set(value))} different; it "
                f"needs {MIN_KEY_LENGTH} or more random characters ({NEW_KEY})"
            )
    return None


def require_secret_key() -> None:
    """Refuse to serve with the public key unless DEBUG is on (the quick start's `make run` sets DEBUG=1)."""
    problem = None if settings.DEBUG else secret_key_problem()
    if problem:
        raise ImproperlyConfigured(problem)
