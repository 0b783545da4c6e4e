"""What the tests share: users and clients, one event with its players, a seated round and a finished game.

The event is "Spring Open" (slug ``spring``): public, running, wrc-2025 (start
and return 30000, uma 15/5/-5/-15), run by ``organiser``. A test that needs
another event builds it with ``tests.factories`` under a name that says what
it is (``team_event``, ``swiss_event``, ...), not ``event``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache, caches
from django.db import connection
from django.test import Client, override_settings
from django.utils import translation
from rest_framework.test import APIClient

from scoring.services.standings import standings_recompute
from tests.factories import EventFactory, RoundFactory, TableFactory, played, registered
from tournament.models import Event, Game, Player, Table


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules that hold a slow test run first. ``make test``'s workers take a module at a time (``--dist
    loadfile --no-loadscope-reorder``): a long module taken last runs alone while the other workers are idle, and
    taken first it runs while the short ones fill in around it. Within each group the order stays as collected."""
    slow = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in slow)


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hasher() -> Iterator[None]:
    """PBKDF2 at its real cost (a third of a second a password) is what makes a sign-in slow, and no test measures
    it: the tests hash with MD5, never a deployment (config/settings.py keeps Django's hashers)."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(scope="session", autouse=True)
def _no_connection_outlives_the_run(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """The browser tests' live server answers from threads of its own, and a thread can still hold a PostgreSQL
    connection to the test database when the run ends: its DROP DATABASE then fails ("being accessed by other
    users"). Ends those sessions first, before pytest-django drops the database (this fixture finalises first)."""
    yield
    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Each test starts with empty caches: rows of a rolled-back test may have had the same ids."""
    cache.clear()
    caches["pages"].clear()


@pytest.fixture
def organiser() -> User:
    return User.objects.create_user("org")


@pytest.fixture
def referee() -> User:
    return User.objects.create_user("ref")


@pytest.fixture
def org(organiser: User) -> Client:
    """A browser signed in as ``organiser`` (the console's pages)."""
    client = Client()
    client.force_login(organiser)
    return client


def client_for(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def rows(response: Any) -> list[Any]:
    """The rows of a paginated list answer (every list of the API is one): ``results``, on one page."""
    assert response.status_code == 200, response.content[:300]
    body = response.json()
    assert (
        {"count", "next", "previous", "results"}
        <= set(body)
        <= {"count", "next", "previous", "results", "updating", "computed_at"}
    ), body
    assert body["next"] is None, "the test's rows span more than one page"
    results: list[Any] = body["results"]
    assert body["count"] == len(results)
    return results


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the default language: a request or a test that activates one leaves it on the thread,
    and a later test's English text then came out in Korean (seen on PostgreSQL, in some orders only)."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def event(organiser: User) -> Event:
    """Spring Open (``/events/spring/``): public, running, wrc-2025, run by ``organiser``; nobody registered."""
    return EventFactory.create(name="Spring Open", slug="spring", status=Event.Status.RUNNING, organisers=[organiser])


@pytest.fixture
def players(event: Event) -> list[Player]:
    """Ann, Bo, Cy and Di registered in ``event``, in that order."""
    return registered(event, "Ann", "Bo", "Cy", "Di")


@pytest.fixture
def table(event: Event) -> Table:
    """Round 1 of ``event`` seated at one table (table 1), with no game yet."""
    return TableFactory.create(round=RoundFactory.create(event=event, number=1), number=1)


@pytest.fixture
def game(event: Event, players: list[Player], table: Table) -> Game:
    """Round 1, table 1: Ann (East), Bo, Cy, Di; Ann wins 7700 from Cy, then the clock ends the game."""
    ann, _bo, cy, _di = players
    return played(
        event, players, [{"result": "ron", "winner": ann.pk, "loser": cy.pk, "han": 3, "fu": 40}], table=table, end=True
    )


@pytest.fixture
def standings(event: Event, game: Game) -> None:
    """``event``'s standings stored after ``game`` (as the pages and the API read them)."""
    standings_recompute(event)


@pytest.fixture
def stranger() -> User:
    """A signed-up user with no part in any event."""
    return User.objects.create_user("stranger")
