"""Users and API clients the API tests share."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
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
