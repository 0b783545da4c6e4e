"""Every list is paginated: ``?page=N``, ``PAGE_SIZE`` rows a page, with ``count`` and ``next``/``previous`` links."""

from __future__ import annotations

from typing import Any

from rest_framework.pagination import PageNumberPagination

PAGE_SIZE = 100  # a whole round of a large event (25 tables of 4) on one page


class Pages(PageNumberPagination):
    page_size = PAGE_SIZE


class StandingsPages(Pages):
    """A page of standings says whether they are being updated, and when they were last computed."""

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paginated = super().get_paginated_response_schema(schema)
        paginated["required"] = [*paginated.get("required", []), "updating", "computed_at"]
        paginated["properties"] = {
            "updating": {
                "type": "boolean",
                "description": "a change to a finished game is not counted yet; the standings are being recomputed",
            },
            "computed_at": {
                "type": "string",
                "format": "date-time",
                "nullable": True,
                "description": "when the standings were last computed",
            },
            **paginated["properties"],
        }
        return paginated
