"""Reading the rankings across events, for the API, the pages and ``manage.py ranking`` alike: which there are,
and one of them on a date, each row with its explanation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.errors import Problem, Refusal
from scoring.models import MersList, RankingLine
from scoring.services.rankings import mers_snapshot
from scoring.services.ratings import RatingRow, rating_rows
from tournament.models import Event
from tournament.selectors import visible_events
from tournament.users import RequestUser

MERS = "mers"
EARLIEST = date(2005, 1, 1)  # the EMA's first ranking year


@dataclass(frozen=True, slots=True)
class RankingInfo:
    key: str
    kind: str  # "mers", or the rating's system: "tenhou", "elo"
    name: str
    event: Event | None = None

    @property
    def is_mers(self) -> bool:
        return self.kind == MERS

    @property
    def is_tenhou(self) -> bool:
        return self.kind == Event.Rating.TENHOU


def _events(user: RequestUser | None) -> QuerySet[Event]:
    """The events ``user`` may see; every one for the operator (None: a management command)."""
    return Event.objects.all() if user is None else visible_events(user)


def rankings_available(user: RequestUser | None) -> list[RankingInfo]:
    """The EMA's rankings, and the ratings of the events ``user`` may see."""
    rated = _events(user).exclude(rating="").order_by("name", "slug")
    return [
        *(RankingInfo(key, MERS, str(label)) for key, label in MersList.choices),
        *(RankingInfo(event.slug, event.rating, event.name, event) for event in rated),
    ]


def ranking_find(key: str, user: RequestUser | None) -> RankingInfo | None:
    if key in MersList.values:
        return RankingInfo(key, MERS, str(MersList(key).label))
    event = _events(user).exclude(rating="").filter(slug=key).first()
    return RankingInfo(event.slug, event.rating, event.name, event) if event else None


def parse_as_of(text: str | None) -> date:
    """``?as_of=YYYY-MM-DD``: today when absent; a date from 2005 to today."""
    today = timezone.localdate()
    if text is None or text == "":
        return today
    try:
        day = date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise Refusal([Problem("as_of", _("must be a date written YYYY-MM-DD"), "as_of_format")])
    if not EARLIEST <= day <= today:
        raise Refusal(
            [
                Problem(
                    "as_of",
                    _("must be from %(first)s to today (%(today)s): a ranking is known up to today")
                    % {"first": EARLIEST.isoformat(), "today": today.isoformat()},
                    "as_of_range",
                )
            ]
        )
    return day


@dataclass(frozen=True, slots=True)
class Row:
    """One line of a ranking with what explains it: the results counted and dropped (EMA), or the games that
    moved the rating; and the change since the week before."""

    rank: int
    player_id: int | None
    name: str
    federation_id: str
    country: str
    score: Decimal
    previous_rank: int | None
    previous_score: Decimal | None
    part_a: Decimal | None = None
    part_b: Decimal | None = None
    counted: list[dict[str, Any]] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)
    changes: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    games: int | None = None

    @property
    def movement(self) -> int | None:
        """Places gained since the week before (negative: lost); None if not listed then."""
        return None if self.previous_rank is None else self.previous_rank - self.rank

    @property
    def lost(self) -> int:
        return max(0, -(self.movement or 0))


def _mers_row(line: RankingLine) -> Row:
    return Row(
        rank=line.rank,
        player_id=line.player_id,
        name=line.name,
        federation_id=line.federation_id,
        country=line.country,
        score=line.score,
        previous_rank=line.previous_rank,
        previous_score=line.previous_score,
        part_a=line.part_a,
        part_b=line.part_b,
        counted=[r for r in line.results if r["part_a"] or r["part_b"]],
        dropped=[r for r in line.results if not (r["part_a"] or r["part_b"])],
        changes=line.changes,
    )


def _rating_row(row: RatingRow) -> Row:
    history = [
        {
            "game": c.game_id,
            "played_on": c.played_on.isoformat(),
            "rank": c.rank,
            "before": c.before,
            "after": c.after,
            "change": c.after - c.before,
            "factor": c.factor,
            "points": c.points,
            "reference": c.reference,
        }
        for c in row.history
    ]
    return Row(
        rank=row.rank,
        player_id=row.player.pk,
        name=row.player.name,
        federation_id=row.player.federation_id,
        country=row.player.country,
        score=row.score,
        previous_rank=row.previous_rank,
        previous_score=row.previous_score,
        history=history,
        games=row.games,
    )


def rows_of(items: Sequence[Any]) -> list[Row]:
    """A page of a ranking's items (stored lines, or rating rows) as rows."""
    return [_mers_row(i) if isinstance(i, RankingLine) else _rating_row(i) for i in items]


@dataclass(frozen=True, slots=True)
class RankingOn:
    info: RankingInfo
    as_of: date
    week: date  # the EMA's ranking week (its Monday); a rating's: the date itself
    previous: date  # what the changes are measured from: a week earlier
    computed_at: datetime | None
    items: Any  # a queryset of lines, or a list of rating rows: paginated, then ``rows_of``
    countries: list[dict[str, Any]] = field(default_factory=list)
    left: list[dict[str, Any]] = field(default_factory=list)

    def rows(self) -> list[Row]:
        """Every row, unpaginated."""
        return rows_of(list(self.items))


def ranking_on(info: RankingInfo, on: date) -> RankingOn:
    if info.kind == MERS:
        snapshot = mers_snapshot(info.key, on)
        return RankingOn(
            info=info,
            as_of=on,
            week=snapshot.week,
            previous=snapshot.week - timedelta(weeks=1),
            computed_at=snapshot.computed_at,
            items=snapshot.lines.order_by("rank", "federation_id"),
            countries=snapshot.countries,
            left=snapshot.left,
        )
    assert info.event is not None
    return RankingOn(
        info=info,
        as_of=on,
        week=on,
        previous=on - timedelta(weeks=1),
        computed_at=None,
        items=rating_rows(info.event, on),
    )
