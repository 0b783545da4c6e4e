"""Logs: a line per request carrying its X-Request-ID, every 5xx with its traceback, an API 500 in JSON."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
from django.test import Client, RequestFactory

from api.errors import SERVER_ERROR
from api.views import events
from config.views import server_error
from tests.config.conftest import Run, python

pytestmark = pytest.mark.django_db


def test_every_answer_has_a_request_id():
    first, second = Client().get("/api/v1/rulesets/"), Client().get("/nowhere/")
    assert re.fullmatch(r"[0-9a-f]{32}", first["X-Request-ID"])
    assert second.status_code == 404
    assert re.fullmatch(r"[0-9a-f]{32}", second["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("req-42.a:b", True),
        ("4bf92f3577b34da6a3ce929d0e0e4736", True),
        ("Zm9vYmFy+/==", True),
        ("two words", False),
        ("line\\nbreak", False),
        ("x" * 129, False),
        ("", False),
        ("<script>", False),
    ],
)
def test_a_proxys_request_id_is_kept_when_it_is_sane(sent: str, kept: bool):
    response = Client().get("/api/v1/rulesets/", headers={"X-Request-ID": sent})
    assert (response["X-Request-ID"] == sent) is kept


def test_the_request_line_carries_the_id(caplog: pytest.LogCaptureFixture):
    with caplog.at_level(logging.INFO, logger="config.request"):
        response = Client().get("/api/v1/rulesets/?page=1", headers={"X-Request-ID": "trace-1"})
    lines = [r for r in caplog.records if r.name == "config.request"]
    assert len(lines) == 1
    assert re.fullmatch(r"GET /api/v1/rulesets/\?page=1 200 \d+ms", lines[0].getMessage())
    assert lines[0].request_id == "trace-1" == response["X-Request-ID"]  # type: ignore[attr-defined]


@pytest.fixture
def broken_view(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("a bug in a view")

    monkeypatch.setattr(events.RulesetViewSet, "list", boom)


@pytest.mark.usefixtures("broken_view")
def test_an_api_bug_answers_json_and_logs_its_traceback_once(caplog: pytest.LogCaptureFixture):
    with caplog.at_level(logging.INFO):
        response = Client(raise_request_exception=False).get("/api/v1/rulesets/", headers={"X-Request-ID": "bug-7"})
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": SERVER_ERROR, "errors": []}
    errors = [r for r in caplog.records if r.name == "django.request"]
    assert len(errors) == 1, [r.getMessage() for r in errors]  # not once more without the traceback
    assert errors[0].exc_info is not None
    assert errors[0].exc_info[0] is ZeroDivisionError
    assert errors[0].request_id == "bug-7"  # type: ignore[attr-defined]
    lines = [r.getMessage() for r in caplog.records if r.name == "config.request"]
    assert len(lines) == 1
    assert re.fullmatch(r"GET /api/v1/rulesets/ 500 \d+ms", lines[0])


def test_the_server_error_page_is_json_under_api_and_html_elsewhere():
    api = server_error(RequestFactory().get("/api/v1/games/"))
    assert (api.status_code, api["Content-Type"]) == (500, "application/json")
    page = server_error(RequestFactory().get("/events/x/"))
    assert page.status_code == 500
    assert page["Content-Type"].startswith("text/html")


LOG_TO_STDOUT = """
import django; django.setup()
from django.test import Client
from api.views import events
def boom(self, request, *args, **kwargs):
    raise ZeroDivisionError("a bug in a view")
events.RulesetViewSet.list = boom
response = Client(raise_request_exception=False).get("/api/v1/rulesets/", headers={"X-Request-ID": "req-99"})
print("STATUS", response.status_code)
"""


def test_logs_go_to_standard_output_with_the_request_id(run: Run):
    """The LOGGING setting itself, in a process of its own: the request line and the traceback, on stdout."""
    result = run(*python("-c", LOG_TO_STDOUT), DJANGO_SETTINGS_MODULE="config.settings", ALLOWED_HOSTS="testserver")
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    assert "STATUS 500" in out
    assert re.search(
        r"ERROR django\.request \[req-99\] Internal Server Error: /api/v1/rulesets/\n"
        r"Traceback \(most recent call last\):",
        out,
    ), out
    assert "ZeroDivisionError: a bug in a view" in out
    assert re.search(r"INFO config\.request \[req-99\] GET /api/v1/rulesets/ 500 \d+ms", out), out
    assert "Traceback" not in result.stderr
