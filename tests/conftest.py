"""Users and API clients the tests share."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.utils import translation
from rest_framework.test import APIClient


@pytest.fixture
def organiser() -> User:
    return User.objects.create_user("org")


@pytest.fixture
def referee() -> User:
    return User.objects.create_user("ref")


def client_for(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def rows(response: Any) -> list[Any]:
    """The rows of a paginated list answer (every list of the API is one): ``results``, on one page."""
    assert response.status_code == 200, response.content[:300]
    body = response.json()
    assert {"count", "next", "previous", "results"} <= set(body) <= {"count", "next", "previous", "results",
                                                                      "updating", "computed_at"}, body
    assert body["next"] is None, "the test's rows span more than one page"
    results: list[Any] = body["results"]
    assert body["count"] == len(results)
    return results


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Each test starts with an empty cache: rows of a rolled-back test may have had the same ids."""
    cache.clear()


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the default language: a request or a test that activates one leaves it on the thread,
    and a later test's English text then came out in Korean (seen on PostgreSQL, in some orders only)."""
    translation.deactivate()
    yield
    translation.deactivate()
