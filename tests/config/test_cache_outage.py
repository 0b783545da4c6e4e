"""A cache that cannot be reached is a cache miss (issue 25, item 6): the busiest reads answer from the
database, the outage is logged and /health/ names it; wrong codes are still limited; entries always expire.

The outage is real: ``CACHE_URL`` points at a closed port of this machine (connection refused), as the
production settings would read it (``config.env.cache_from_url``).
"""

from __future__ import annotations

import logging
import secrets

import pytest
import redis
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client

from config import cache as failsafe
from config.env import cache_from_url
from scoring.services.table_codes import round_codes_issue, table_code
from tournament.models import Game

# The shared event's finished game, in the stored standings.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("standings")]

DEAD = "redis://127.0.0.1:1/0"
LIVE = "redis://127.0.0.1:6379/14"


@pytest.fixture
def dead_cache(settings, monkeypatch):
    monkeypatch.setattr(failsafe, "_outages", {})  # each test sees the outage begin
    settings.CACHES = {**settings.CACHES, "default": cache_from_url(DEAD)}


def test_the_busiest_reads_answer_from_the_database_and_the_outage_is_logged(dead_cache, event, caplog):
    caplog.set_level(logging.WARNING, logger="config.cache")
    page = Client().get("/events/spring/standings/")
    assert page.status_code == 200
    assert "Ann" in page.content.decode()
    assert Client().get("/events/spring/standings/?part=table").status_code == 200
    api = Client().get("/api/v1/events/spring/standings/")
    assert api.status_code == 200
    assert api.json()["results"][0]["player"]["name"] == "Ann"
    warnings = [r.getMessage() for r in caplog.records if r.name == "config.cache"]
    # Once, not once per cache call: the process leaves Redis alone for a while after a failure.
    assert len(warnings) == 1
    assert warnings[0].startswith("cache unavailable (127.0.0.1:1/0: ConnectionError)")


def test_table_code_sign_in_works_and_wrong_codes_are_still_limited(dead_cache, event):
    round_codes_issue(round_=event.rounds.get())
    game = Game.objects.get()
    assert game.table is not None
    right = table_code(game.table)
    players = Client()
    response = players.post(f"/games/{game.pk}/code/", {"code": right})
    assert (response.status_code, response["Location"]) == (302, f"/games/{game.pk}/entry/")
    guesser = Client()
    answers = [
        guesser.post(f"/games/{game.pk}/code/", {"code": "AAAAA-AAAAA"}).status_code
        for _ in range(django_settings.AXES_FAILURE_LIMIT + 1)
    ]
    # Counted in the process's memory while Redis is down: the limit holds, per process.
    assert answers == [400] * django_settings.AXES_FAILURE_LIMIT + [429]


def test_health_still_names_the_cache(dead_cache):
    response = Client().get("/health/")
    assert (response.status_code, response.json()["failing"]) == (503, ["cache"])


def test_every_entry_expires(settings):
    """On a live Redis: an entry asked to live forever gets the longest timeout; a longer one is cut to it."""
    settings.CACHES = {"default": {**cache_from_url(LIVE), "KEY_PREFIX": secrets.token_hex(8)}}
    cache.set("forever", 1, timeout=None)
    cache.set("a-year", 1, timeout=365 * 24 * 3600)
    cache.add("added", 1, timeout=None)
    direct = redis.Redis.from_url(LIVE)
    for name in ("forever", "a-year", "added"):
        ttl = direct.ttl(cache.make_key(name))
        assert 0 < ttl <= failsafe.MAX_TIMEOUT, (name, ttl)
    cache.delete_many(["forever", "a-year", "added"])
