"""The EMA ranking's clock (rules.rankings.calendar): weekly rankings, a result's time factor, the frozen weeks.

The numbers are ldekerg/European-Mahjong's (app/templates/formulas.html "Activation examples", and
docs/freeze_covid_calibration.md, calibrated there against the EMA's published lists): the public reading this
project follows (docs/rankings.md, "Time factor")."""

from __future__ import annotations

from datetime import date

import pytest

from rules.rankings.calendar import counted_weeks, first_week, last_week, time_factor, week_of


@pytest.mark.parametrize(
    ("starts_on", "first", "last"),
    [
        (date(2025, 3, 8), date(2025, 3, 10), date(2027, 3, 1)),  # Sat–Sun
        (date(2025, 3, 14), date(2025, 3, 17), date(2027, 3, 8)),  # Fri–Sun
        (date(2025, 3, 22), date(2025, 3, 24), date(2027, 3, 15)),  # Sat–Mon
        (date(2025, 4, 2), date(2025, 4, 7), date(2027, 3, 29)),  # an OEMC, Wed–Sun
    ],
)
def test_an_event_counts_from_the_monday_after_its_week_for_104_weeks(starts_on, first, last):
    assert (first_week(starts_on), last_week(starts_on)) == (first, last)
    assert time_factor(starts_on, first) == 1.0
    assert time_factor(starts_on, last) == 0.5
    assert time_factor(starts_on, date.fromordinal(last.toordinal() + 7)) == 0.0
    assert time_factor(starts_on, date.fromordinal(first.toordinal() - 1)) == 0.0  # the Sunday before


def test_full_weight_for_52_weeks_then_half():
    starts_on = date(2025, 3, 8)
    assert time_factor(starts_on, date(2026, 3, 2)) == 1.0  # counted week 52
    assert time_factor(starts_on, date(2026, 3, 9)) == 0.5  # week 53


def test_any_day_of_a_week_is_that_week_s_ranking():
    assert week_of(date(2025, 3, 16)) == date(2025, 3, 10)
    assert time_factor(date(2025, 3, 8), date(2025, 3, 16)) == 1.0


def test_the_frozen_weeks_are_not_counted():
    """GOURMET CUP 2019 (2019-02-02) still counted at half weight in the EMA's ranking of 2023-02-27: its counted
    week 104, 109 frozen weeks (2020-02-24 to 2022-03-21) left out."""
    assert counted_weeks(date(2019, 2, 2), date(2023, 2, 27)) == 104
    assert time_factor(date(2019, 2, 2), date(2023, 2, 27)) == 0.5
    assert time_factor(date(2019, 2, 2), date(2023, 3, 6)) == 0.0


def test_the_ranking_stands_still_during_the_freeze():
    starts_on = date(2019, 6, 1)
    during = {
        counted_weeks(starts_on, date(2020, 3, 2)),
        counted_weeks(starts_on, date(2021, 7, 5)),
        counted_weeks(starts_on, date(2022, 3, 21)),
    }
    assert during == {38}
    assert counted_weeks(starts_on, date(2022, 3, 28)) == 39
