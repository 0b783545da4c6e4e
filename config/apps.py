"""The project's own app: the deployment checks that ``manage.py check --deploy`` runs."""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.core import checks

from config.deploy import secret_key_problem


def check_secret_key(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    problem = secret_key_problem()
    return [checks.Error(problem, id="config.E001")] if problem else []


class ProjectConfig(AppConfig):
    name = "config"
    verbose_name = "Project configuration"

    def ready(self) -> None:
        # An error, not a warning: `check --deploy` exits non-zero, so a deployment script stops here.
        checks.register(check_secret_key, checks.Tags.security, deploy=True)
