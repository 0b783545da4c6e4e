"""Each process's second of memory of the anonymous standings page, and one render per page while the standings
move (web/shared_pages.py): a hit reads neither the database nor Redis; a signed-in reader, a private event and
``PAGE_MICROCACHE_SECONDS=0`` never get an answer from it; a version being rendered elsewhere is answered with the
page's last rendering, never an older one."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tournament.models import Event, Player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("standings")]

URL = "/events/spring/standings/"


def rename(player: Player, name: str) -> None:
    player.name = name
    player.save()  # moves the standings' version: the shared entry's key


def rendered(response: Any) -> bool:
    return "pages/standings.html" in [t.name for t in response.templates]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """The local-memory caches' clock stopped (a loaded machine may take a second between two requests), and a
    way to move it on by some seconds."""
    now = [time.time()]
    monkeypatch.setattr("django.core.cache.backends.locmem.time.time", lambda: now[0])

    def move(seconds: float) -> None:
        now[0] += seconds

    return move


@pytest.mark.usefixtures("clock")
def test_a_hit_reads_neither_the_database_nor_redis(event: Event, django_assert_num_queries, monkeypatch):
    first = Client().get(URL)
    assert first.status_code == 200
    monkeypatch.setattr("web.shared_pages.cache", None)  # any use of the shared cache would raise
    with django_assert_num_queries(0):
        again = Client().get(URL)
        sorted_again = Client().get(URL + "?sort=junk&x=1")  # the same parameters the page reads: the same entry
        unchanged = Client().get(URL, headers={"If-None-Match": first["ETag"]})
    assert (again.content, again["ETag"], sorted_again.content) == (first.content, first["ETag"], first.content)
    assert not rendered(again)
    assert unchanged.status_code == 304
    assert unchanged["ETag"] == first["ETag"]
    for answer in (again, unchanged):
        assert answer["Cache-Control"] == "public, max-age=5"
        assert {"Cookie", "Accept-Language"} <= {v.strip() for v in answer["Vary"].split(",")}


def test_each_order_stage_and_language_is_its_own_entry(event: Event):
    Client().get(URL)
    for other in (URL + "?sort=points", URL + "?stage=7"):
        with CaptureQueriesContext(connection) as queries:
            answer = Client().get(other)
        assert queries.captured_queries, other  # not answered from the rank order's entry
        assert answer.status_code == (404 if "stage" in other else 200)
    korean = Client(headers={"Accept-Language": "ko"}).get(URL)
    assert rendered(korean)
    assert korean.content != Client().get(URL).content


def test_a_signed_in_reader_is_never_answered_from_it(event: Event, org: Client):
    anonymous = Client().get(URL)
    own = org.get(URL, headers={"If-None-Match": anonymous["ETag"]})
    assert (own.status_code, own["Cache-Control"]) == (200, "private, no-cache")
    assert rendered(own)
    assert own.content != anonymous.content
    # Nor is what they were answered kept for the anonymous readers.
    assert Client().get(URL).content == anonymous.content


def test_a_private_event_is_never_kept(event: Event, org: Client):
    Event.objects.filter(pk=event.pk).update(public=False)
    assert org.get(URL).status_code == 200
    assert Client().get(URL).status_code == 404
    Event.objects.filter(pk=event.pk).update(public=True)
    with CaptureQueriesContext(connection) as queries:
        assert Client().get(URL).status_code == 200
    assert queries.captured_queries  # nothing was kept from the organiser's reading


def test_a_change_is_seen_once_its_seconds_are_over(event: Event, players: list[Player], clock: Any):
    Client().get(URL)
    rename(players[0], "Annika")
    assert "Annika" not in Client().get(URL).content.decode()  # this process's second: the page before
    Event.objects.filter(pk=event.pk).update(public=False)
    assert Client().get(URL).status_code == 200  # made private: still answered, for at most that second
    clock(1.01)  # a second from now, and a little more
    assert Client().get(URL).status_code == 404
    Event.objects.filter(pk=event.pk).update(public=True)
    assert "Annika" in Client().get(URL).content.decode()


def test_with_no_seconds_a_write_is_seen_at_once(event: Event, players: list[Player], settings):
    settings.PAGE_MICROCACHE_SECONDS = 0
    Client().get(URL)
    rename(players[0], "Annika")
    assert "Annika" in Client().get(URL).content.decode()
    Event.objects.filter(pk=event.pk).update(public=False)
    assert Client().get(URL).status_code == 404


def test_while_another_process_renders_the_last_rendering_is_answered(
    event: Event, players: list[Player], settings, monkeypatch
):
    settings.PAGE_MICROCACHE_SECONDS = 0
    Client().get(URL)  # the page's last rendering: Ann's
    rename(players[0], "Annika")
    monkeypatch.setattr(cache, "add", lambda *args: False)  # another process holds the render lock
    waiting = Client().get(URL)
    assert not rendered(waiting)
    assert "Annika" not in waiting.content.decode()
    assert "Ann<" in waiting.content.decode()
    monkeypatch.undo()
    fresh = Client().get(URL)  # the lock is free: rendered, and now the page's last rendering
    assert rendered(fresh)
    assert "Annika" in fresh.content.decode()
    rename(players[0], "Annabel")
    monkeypatch.setattr(cache, "add", lambda *args: False)
    assert "Annika" in Client().get(URL).content.decode()  # never a page older than the last one rendered


def test_with_no_earlier_rendering_the_page_is_rendered_even_while_locked(event: Event, monkeypatch):
    monkeypatch.setattr(cache, "add", lambda *args: False)
    first = Client().get(URL)
    assert first.status_code == 200
    assert rendered(first)
