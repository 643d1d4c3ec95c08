"""The fiscal calendar: which fiscal year and quarter a day falls in, and the last completed year."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.calendar import FiscalCalendar
from ragspine.qa.slots import last_completed_fiscal_year

calendars = st.builds(FiscalCalendar, st.integers(1, 12), st.sampled_from(["end", "start"]))
days = st.dates(min_value=date(1990, 1, 1), max_value=date(2090, 12, 31))


@pytest.mark.parametrize(("calendar", "day", "year", "quarter"), [
    (FiscalCalendar(), date(2025, 9, 15), 2025, 3),
    (FiscalCalendar(6), date(2025, 9, 15), 2026, 1),  # July–June: FY2026 began on 1 July 2025
    (FiscalCalendar(6), date(2025, 6, 30), 2025, 4),
    (FiscalCalendar(3), date(2025, 4, 1), 2026, 1),  # April–March, named by the year it ends in
    (FiscalCalendar(3, "start"), date(2025, 4, 1), 2025, 1),  # ... or by the year it starts in
    (FiscalCalendar(3, "start"), date(2026, 3, 31), 2025, 4),
])
def test_fiscal_year_and_quarter_of_a_day(calendar: FiscalCalendar, day: date, year: int, quarter: int) -> None:
    assert calendar.fiscal_quarter_of(day) == (year, quarter)


def test_the_default_period_follows_the_calendar() -> None:
    assert last_completed_fiscal_year(date(2025, 9, 15)).label == "FY2024"
    assert last_completed_fiscal_year(date(2025, 9, 15), FiscalCalendar(6)).label == "FY2025"
    assert last_completed_fiscal_year(date(2025, 5, 1), FiscalCalendar(3)).label == "FY2025"


@given(calendars, days)
def test_a_fiscal_year_is_twelve_consecutive_months(calendar: FiscalCalendar, day: date) -> None:
    year, quarter = calendar.fiscal_quarter_of(day)
    assert 1 <= quarter <= 4
    first_of_month = day.replace(day=1)
    next_month = date(first_of_month.year + first_of_month.month // 12, first_of_month.month % 12 + 1, 1)
    following = calendar.fiscal_quarter_of(next_month)
    # The next month is in the same quarter, the next quarter, or Q1 of the next fiscal year.
    assert following in {(year, quarter), (year, quarter + 1), (year + 1, 1)}
    assert (following == (year + 1, 1)) == (day.month == calendar.end_month)
    assert calendar.last_completed_year(day) == year - 1


def test_an_impossible_calendar_is_refused() -> None:
    with pytest.raises(ValueError, match="end_month=13"):
        FiscalCalendar(13)
