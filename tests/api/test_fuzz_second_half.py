"""The second half of the API fuzzing's operations (tests/api/fuzzing.py), in a module of its own so that another
worker runs it beside the first half (tests/api/test_fuzz.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.handlers.wsgi import WSGIHandler

from tests.api.fuzzing import check, fuzz

pytestmark = pytest.mark.django_db


@pytest.mark.slow  # about 1,600 requests
def test_the_second_half_gets_no_server_error_and_its_refusals_write_nothing(
    wsgi_app: WSGIHandler, fuzz_data: dict[str, Any]
):
    check(fuzz(1, wsgi_app, fuzz_data), writes=3)  # 4 of its 7 writes succeeded in the run of 2026-11-28
