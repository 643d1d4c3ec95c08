"""Which dates close a fiscal year: the closing month's last week, or the week after it, never mid-month."""

from __future__ import annotations

import datetime as dt
from calendar import monthrange

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.fiscal_dates import fiscal_year_closed_on
from ragspine.facts.glossary import Period
from ragspine.facts.nendo import nendo_period


@pytest.mark.parametrize(("end_month", "year", "month", "day", "closed"), [
    (12, 2019, 12, 31, 2019), (12, 2019, 12, 28, 2019),  # the month's last day; a 52/53-week year's last Saturday
    (12, 2020, 1, 3, 2019),  # a 52/53-week year closing in the week after
    (12, 2019, 12, 15, None), (12, 2019, 12, 1, None), (12, 2019, 12, 24, None),  # inside the year
    (3, 2025, 3, 31, 2025), (3, 2025, 3, 10, None), (6, 2019, 6, 29, 2019), (6, 2019, 6, 15, None),
    (2, 2020, 2, 23, 2020), (2, 2020, 2, 22, None),  # a leap February's last week starts on the 23rd
])
def test_a_date_closes_a_fiscal_year_only_at_its_end(end_month: int, year: int, month: int, day: int,
                                                     closed: int | None) -> None:
    assert fiscal_year_closed_on(FiscalCalendar(end_month=end_month), year, month, day) == closed


@given(day=st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2060, 12, 31)))
def test_a_date_of_the_closing_month_before_its_last_week_closes_no_year(day: dt.date) -> None:
    calendar = FiscalCalendar(end_month=day.month)
    last_day = monthrange(day.year, day.month)[1]
    closed = fiscal_year_closed_on(calendar, day.year, day.month, day.day)

    if day.day <= last_day - 7:
        assert closed is None
    else:
        assert closed == calendar.fiscal_year_of(day)


@pytest.mark.parametrize(("calendar", "text", "period"), [
    (FiscalCalendar(3), "2024年度", Period("FY", "2025")),  # April 2024 - March 2025 = 2025年3月期
    (FiscalCalendar(3, "start"), "2024年度", Period("FY", "2024")),
    (FiscalCalendar(), "2024年度", Period("FY", "2024")),  # a calendar year: unchanged
    (FiscalCalendar(2), "2024年度", Period("FY", "2025")),  # a retailer's March - February year
    (FiscalCalendar(3), "2024年度第3四半期", Period("Q", "2025Q3")),  # October - December 2024
    (FiscalCalendar(3), "２０２４年度 第一四半期", Period("Q", "2025Q1")),
    (FiscalCalendar(), "2024年度第3四半期", Period("Q", "2024Q3")),
])
def test_a_nendo_is_the_year_it_starts_in(calendar: FiscalCalendar, text: str, period: Period) -> None:
    assert nendo_period(calendar, text) == period


@pytest.mark.parametrize("text", ["2024年", "2025年3月期", "FY2024", "2024年度の売上高", "年度"])
def test_other_spellings_of_a_year_are_left_to_the_glossary(text: str) -> None:
    assert nendo_period(FiscalCalendar(3), text) is None
