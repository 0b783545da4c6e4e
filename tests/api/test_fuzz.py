"""The API fuzzing (tests/api/fuzzing.py): the seeds of its mutations, and the first half of its operations."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import transaction

from tests.api.fuzzing import check, fuzz, operations, seeds

pytestmark = pytest.mark.django_db


def test_every_seed_is_a_valid_body(wsgi_app: WSGIHandler, fuzz_data: dict[str, Any]):
    """The mutations start from bodies the API takes, or they would only ever test the first check."""
    data = fuzz_data
    game, event = data["game"], data["event"]
    fixed = {"Authorization": f"Token {data['token']}", "If-Match": f'"{game.version}"'}
    real = {"game_id": game.pk, "slug": event.slug, "index": 1, "number": 1}
    valid = seeds(data)
    answers = {}
    for operation in operations():
        for body in valid.get(operation.label, []):
            case = operation.Case(
                body=body,
                media_type="application/json",
                headers=fixed,
                path_parameters={k: v for k, v in real.items() if k in operation.path_parameters},
            )
            with transaction.atomic():
                response = case.call(app=wsgi_app)
                transaction.set_rollback(True)
            answers[operation.label, json.dumps(body)[:60]] = (response.status_code, response.content[:200])
    assert len(answers) == sum(len(bodies) for bodies in valid.values())
    assert {key: answer for key, answer in answers.items() if answer[0] >= 300} == {}


@pytest.mark.slow  # about 2,100 requests
def test_the_first_half_gets_no_server_error_and_its_refusals_write_nothing(
    wsgi_app: WSGIHandler, fuzz_data: dict[str, Any]
):
    check(fuzz(0, wsgi_app, fuzz_data), writes=8)  # 12 of its 19 writes succeeded in the run of 2026-11-28
