"""What serving the application needs that an offline command does not: a SECRET_KEY of its own.

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


def secret_key_problem() -> str | None:
    """Why the configured SECRET_KEY cannot be used to serve, or None."""
    if settings.SECRET_KEY != DEVELOPMENT_SECRET_KEY:
        return None
    return ("SECRET_KEY is not set, and the development default is public: set SECRET_KEY to 50 or more random "
            "characters (python -c 'import secrets; print(secrets.token_urlsafe(50))'), or DEBUG=1 on a "
            "development machine")


def require_secret_key() -> None:
    """Refuse to serve with the public key unless DEBUG is on (the quick start's `make run` sets DEBUG=1)."""
    problem = None if settings.DEBUG else secret_key_problem()
    if problem:
        raise ImproperlyConfigured(problem)
