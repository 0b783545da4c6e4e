"""Running the project in a child process with an environment the test controls (settings are read once)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
# What a child keeps of this process's environment: what finding programs and files needs, nothing the settings
# or Django read (the test run itself may have set DATABASE_URL, DJANGO_ALLOW_ASYNC_UNSAFE, ...).
KEPT = {"PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "SHARED_DIR", "VIRTUAL_ENV"}
# 50 characters, many distinct: what Django's deploy check asks of a key.
GOOD_KEY = "q7Lx-2mZt9VbR4kWf8Hs0JpN6cYd3GaE1uTo5iKl_wMnBvXrQz"

Run = Callable[..., subprocess.CompletedProcess[str]]


def child_env(**values: str) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name in KEPT}
    return {**env, **values}


@pytest.fixture
def run(tmp_path: Path) -> Run:
    """``run(*argv, **environment)``: a command in the checkout, on a SQLite file of its own unless told."""

    def run_command(*argv: str, timeout: float = 120, **values: str) -> subprocess.CompletedProcess[str]:
        values.setdefault("DATABASE_URL", f"sqlite:///{tmp_path / 'child.sqlite3'}")
        return subprocess.run(
            list(argv), cwd=ROOT, env=child_env(**values), capture_output=True, text=True, timeout=timeout, check=False
        )

    return run_command


def python(*args: str) -> tuple[str, ...]:
    return (sys.executable, *args)


def manage(*args: str) -> tuple[str, ...]:
    return (sys.executable, "manage.py", *args)
