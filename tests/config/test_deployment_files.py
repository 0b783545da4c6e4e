"""The deployment files: compose.yaml against the Compose specification's own JSON Schema (Docker is not
on the CI machine, so `docker compose config` cannot run there), the Dockerfile, static files and the
offline API docs.

compose-spec.json is schema/compose-spec.json of github.com/compose-spec/compose-spec (Apache-2.0), commit
170098ba07d9f53c383a41bfd4c5166b0a4529a6, the schema `docker compose config` validates against.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from jsonschema import Draft7Validator

ROOT = Path(settings.BASE_DIR)
SPEC = json.loads((Path(__file__).parent / "compose-spec.json").read_text(encoding="utf-8"))
# Compose's interpolation: $$, ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error}.
_INTERPOLATION = re.compile(r"\$\$|\$\{[A-Za-z_][A-Za-z0-9_]*(?:(?::?[-?])[^}]*)?\}")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    return document


def problems(document: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in Draft7Validator(SPEC).iter_errors(document)]


def strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for item in value.values() for s in strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return [value] if isinstance(value, str) else []


def test_compose_follows_the_compose_specification(compose: dict[str, Any]):
    assert problems(compose) == []
    # The check can fail: a misspelt key, a wrong type, a condition Compose does not know.
    web = compose["services"]["web"]
    assert problems({**compose, "services": {**compose["services"], "web": {**web, "command_": "x"}}}) != []
    assert problems({**compose, "services": {**compose["services"], "web": {**web, "ports": "8000"}}}) != []
    broken = {**web, "depends_on": {"migrate": {"condition": "service_finished"}}}
    assert problems({**compose, "services": {**compose["services"], "web": broken}}) != []


def test_every_variable_is_interpolated_as_compose_does(compose: dict[str, Any]):
    for text in strings(compose):
        leftover = _INTERPOLATION.sub("", text)
        assert "$" not in leftover, text


def test_compose_runs_web_worker_postgresql_and_redis(compose: dict[str, Any]):
    services = compose["services"]
    assert {"web", "worker", "db", "redis", "migrate"} <= set(services)
    assert services["web"]["command"][:2] == ["gunicorn", "config.wsgi"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "config", "worker"]
    assert services["migrate"]["command"] == ["python", "manage.py", "migrate", "--no-input"]
    assert services["db"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    # Bounded: past its memory, Redis evicts cache entries (every one has a timeout), never a queued task.
    command = services["redis"]["command"]
    assert command[command.index("--maxmemory-policy") + 1] == "volatile-lru"
    assert "--maxmemory" in command
    for name in ("web", "worker", "migrate"):
        environment = services[name]["environment"]
        assert environment["DEBUG"] == "0"
        assert environment["DATABASE_URL"].startswith("postgres://")
        assert "@db:5432/" in environment["DATABASE_URL"]
        assert environment["CELERY_BROKER_URL"] == "redis://redis:6379/0"
        assert environment["CACHE_URL"] == "redis://redis:6379/1"
        assert "SECRET_KEY" in environment
    # Migrations once, before the processes that need them; web is probed at /health/.
    assert services["web"]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert services["worker"]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert "/health/" in " ".join(services["web"]["healthcheck"]["test"])
    assert "127.0.0.1" in services["web"]["environment"]["ALLOWED_HOSTS"]  # the probe's host


def test_the_image_collects_static_files_and_serves_with_gunicorn():
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "pip install --no-cache-dir -r requirements.txt" in dockerfile
    assert "collectstatic --no-input" in dockerfile
    assert 'CMD ["gunicorn", "config.wsgi"' in dockerfile
    assert re.search(r"^USER \w+", dockerfile, re.MULTILINE)
    requirements = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    for package in ("gunicorn", "whitenoise", "dj-database-url", "django-axes", "drf-spectacular-sidecar"):
        assert re.search(rf"^{package}==\S+$", requirements, re.MULTILINE), package


@pytest.mark.django_db  # the 404 page of a missing file is a Django page, which reads the session
def test_static_files_are_served_with_debug_off(settings, tmp_path: Path):
    """After collectstatic, WhiteNoise serves the files itself (DEBUG is off in the tests), compressed too."""
    settings.STATIC_ROOT = tmp_path / "static"
    call_command("collectstatic", "--no-input", verbosity=0)
    assert not settings.DEBUG
    path = "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui.css"
    response = Client().get(path)
    assert response.status_code == 200
    assert b"".join(response.streaming_content).startswith(b".swagger-ui")  # type: ignore[attr-defined]
    response.close()  # a served file stays open until its response is closed (ResourceWarning)
    gzipped = Client().get(path, headers={"Accept-Encoding": "gzip"})
    gzipped.close()
    assert gzipped["Content-Encoding"] == "gzip"
    assert Client().get("/static/no-such-file.css").status_code == 404


@pytest.mark.django_db
def test_collected_pages_ask_for_their_files_by_content_hash(settings, tmp_path: Path):
    """The entry page's service worker serves static files from its cache first: under a plain name the first load
    after a release would run the old offline.js with the new page. Collected names carry the content's hash, so a
    new release's page asks for new addresses; before collectstatic, plain names (the tests, the quick start)."""
    assert re.search(r'/static/site/site\.css"', Client().get("/").content.decode())
    settings.STATIC_ROOT = tmp_path / "static"
    call_command("collectstatic", "--no-input", verbosity=0)
    page = Client().get("/").content.decode()
    hashed = re.search(r"/static/site/site\.[0-9a-f]{12}\.css", page)
    assert hashed is not None, page[:2000]
    response = Client().get(hashed.group(0))
    response.close()  # the served file, unread
    assert response.status_code == 200
    assert "immutable" in response["Cache-Control"]  # a hashed name never changes its content


def test_the_api_docs_load_nothing_from_the_internet():
    page = Client().get("/api/docs/").content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets)
    assert [a for a in assets if re.match(r"(https?:)?//", a)] == []
