"""What the rankings pages show of a ranking: its kind and its rows' explanations in words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.utils.translation import gettext_lazy as _

from scoring.services.ranking_read import RankingOn, Row, rows_of

ROWS_PER_PAGE = 100
KINDS = {"mers": _("EMA ranking"), "tenhou": _("Tenhou-style rating"), "elo": _("Elo rating")}
CHANGES = {
    "entered": _("counted for the first time"),
    "halved": _("now at half weight (over a year old)"),
    "expired": _("no longer counted (over two years old)"),
    "dropped": _("no longer among the results that count"),
    "restored": _("counts again"),
}


@dataclass(frozen=True, slots=True)
class RankingPage:
    ranking: RankingOn
    page: Page[Any]
    rows: list[Row]


def ranking_page(ranking: RankingOn, number: str | None) -> RankingPage:
    """One page of the ranking's rows (a ranking of thousands is read a hundred at a time)."""
    items = ranking.items
    page = Paginator(items, ROWS_PER_PAGE).get_page(number)
    return RankingPage(ranking=ranking, page=page, rows=rows_of(list(page.object_list)))
