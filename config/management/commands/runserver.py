"""runserver, refusing the development SECRET_KEY with DEBUG off before it starts.

wsgi.py refuses it too, but only once the autoreloader's child has started: there the error is printed and
the process waits for a code change. Refused here, the command stops with the message and a non-zero status.
"""

from __future__ import annotations

from typing import Any

from django.contrib.staticfiles.management.commands.runserver import Command as StaticRunserver
from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import CommandError

from config.deploy import require_secret_key


class Command(StaticRunserver):
    def handle(self, *args: Any, **options: Any) -> None:
        try:
            require_secret_key()
        except ImproperlyConfigured as exc:
            raise CommandError(str(exc)) from None
        super().handle(*args, **options)
