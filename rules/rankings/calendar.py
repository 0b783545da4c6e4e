"""The EMA ranking's clock: a ranking is published for a week (its Monday), an event counts from the Monday after
the week it started, fully for 52 counted weeks, half for the next 52, and the weeks the EMA froze the ranking
(COVID) are not counted.

Sources and their disagreements: docs/rankings.md, "Time factor". This follows the week-based reading that
ldekerg/European-Mahjong calibrated against the EMA's published lists (app/ranking.py,
docs/freeze_covid_calibration.md).
"""

from __future__ import annotations

from datetime import date, timedelta

WEEK = timedelta(weeks=1)
# The frozen Mondays: from the first week tournaments were cancelled to the week before they resumed.
FREEZE_FIRST = date(2020, 2, 24)
FREEZE_END = date(2022, 3, 28)  # the first Monday counted again
FULL_WEEKS = 52  # counted weeks at time factor 1
HALF_WEEKS = 104  # counted weeks until the result expires; from week 53 the factor is 1/2


def week_of(day: date) -> date:
    """The Monday of ``day``'s week: the date of the ranking published for it."""
    return day - timedelta(days=day.weekday())


def first_week(starts_on: date) -> date:
    """The first ranking an event counts in: the Monday after the week it started, however long it lasted."""
    return week_of(starts_on) + WEEK


def _frozen_weeks(first: date, last: date) -> int:
    """How many Mondays from ``first`` to ``last`` (both Mondays, inclusive) fall in the freeze."""
    start, end = max(first, FREEZE_FIRST), min(last, FREEZE_END - WEEK)
    return (end - start).days // 7 + 1 if end >= start else 0


def counted_weeks(starts_on: date, on: date) -> int | None:
    """The number of the ranking week ``on`` falls in, counted from the event's first week, frozen weeks left
    out (1 in its first week); None before its first week. An event whose first week fell in the freeze is at 0
    until the freeze ends, and counts fully meanwhile."""
    first, target = first_week(starts_on), week_of(on)
    if target < first:
        return None
    return (target - first).days // 7 + 1 - _frozen_weeks(first, target)


def time_factor(starts_on: date, on: date) -> float:
    """What the event's results weigh in the ranking of ``on``'s week: 1, 1/2, or 0 (not yet, or expired)."""
    weeks = counted_weeks(starts_on, on)
    if weeks is None or weeks > HALF_WEEKS:
        return 0.0
    return 1.0 if weeks <= FULL_WEEKS else 0.5


def last_week(starts_on: date) -> date:
    """The last ranking week the event counts in (at half weight): the Monday of its counted week 104."""
    day = first_week(starts_on) + (HALF_WEEKS - 1) * WEEK
    while counted_weeks(starts_on, day) != HALF_WEEKS:  # the frozen weeks push it later
        day += WEEK
    return day
