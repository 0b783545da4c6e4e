"""The anonymous pages' shared cache is keyed by what the page reads (issue 25, item 9): made-up query
parameters, or another spelling of the same value, neither render the page again nor add a cache entry."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.markup import has
from tournament.models import Event

# The shared event's finished game, in the stored standings.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("standings")]


def renders(queries: list[str]) -> int:
    """How many of the answers were rendered (the others came from the cache)."""
    client = Client()
    return sum(
        "pages/standings.html" in [t.name for t in client.get(f"/events/spring/standings/{q}").templates]
        for q in queries
    )


def test_junk_parameters_render_the_page_once(event: Event):
    assert renders([f"?x={n}" for n in range(50)] + ["", "?utm_source=a&x=b"]) == 1


def test_a_sort_the_page_does_not_know_is_the_rank_order(event: Event):
    assert renders(["?sort=rank", *(f"?sort=junk{n}" for n in range(20)), "?sort="]) == 1
    assert renders(["?sort=points", "?sort=points&x=1"]) == 1
    page = Client().get("/events/spring/standings/?sort=junk").content.decode()
    assert "sort=junk" not in page  # the polling address asks for the order shown, not the visitor's text
    assert has(page, 'aria-sort="ascending"><a href="/events/spring/standings/?sort=rank"')


def test_the_standings_api_reads_its_page_number_once_per_page(event: Event):
    client = Client()
    reads = 0
    for query in ["", "?page=1", "?page=01", "?page=001", *(f"?x={n}" for n in range(20))]:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/api/v1/events/spring/standings/{query}").status_code == 200
        reads += any('"scoring_standing"' in q["sql"] for q in queries.captured_queries)
    assert reads == 1


@pytest.mark.parametrize("page", ["0", "2", "x", "²", "1" * 5000])
def test_a_page_that_is_not_there_is_a_404(event: Event, page: str):
    assert Client().get(f"/api/v1/events/spring/standings/?page={page}").status_code == 404
