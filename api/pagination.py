"""Every list is paginated: ``?page=N``, ``PAGE_SIZE`` rows a page, with ``count`` and ``next``/``previous`` links."""

from __future__ import annotations

from rest_framework.pagination import PageNumberPagination

PAGE_SIZE = 100  # a whole round of a large event (25 tables of 4) on one page


class Pages(PageNumberPagination):
    page_size = PAGE_SIZE
