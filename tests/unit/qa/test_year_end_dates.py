"""Which cited columns an answer says it read a January or February year end for, whatever the date's form.

A column headed by such a date (``February 1, 2019``, ``1 Feb 2019``) and filed under the year it writes
is an assumption the answer states; a date closing the glossary's own year, a column the report names
itself (``(fiscal 2019)``) and a header with another year beside the date are not.
"""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.calendar import FiscalCalendar
from ragspine.qa.year_end_dates import year_end_readings

_NAMES = {1: ("January", "Jan", "Jan."), 2: ("February", "Feb", "Feb.")}
# January 8 to February 28: past the week after a December year end, which closes that year
_DAYS = st.builds(lambda year, offset: dt.date(year, 1, 8) + dt.timedelta(days=offset),
                  st.integers(min_value=2001, max_value=2030), st.integers(min_value=0, max_value=51))


def _written(day: dt.date, form: int, day_first: bool) -> str:
    month = _NAMES[day.month][form]
    return f"{day.day} {month} {day.year}" if day_first else f"{month} {day.day} {day.year}"


@given(_DAYS, st.integers(min_value=0, max_value=2), st.booleans())
def test_a_january_or_february_year_end_column_is_said_as_the_year_it_writes(day: dt.date, form: int,
                                                                             day_first: bool) -> None:
    written = _written(day, form, day_first)
    locator = f"table=1,row=Net sales,col=For the Year Ended/{written}"
    [reading] = year_end_readings([locator], FiscalCalendar())
    assert reading.value == f"FY{day.year}"
    assert reading.typed == written


@given(_DAYS, st.booleans())
def test_a_column_the_report_names_or_another_year_beside_it_is_no_assumption(day: dt.date, day_first: bool) -> None:
    written = _written(day, 0, day_first)
    named = f"table=1,row=Net sales,col={written} (fiscal {day.year})"
    beside = f"table=1,row=Net sales,col=Fiscal {day.year - 1}/{written}"
    assert year_end_readings([named, beside], FiscalCalendar()) == ()


def test_a_date_closing_the_glossary_year_is_no_assumption() -> None:
    closing = ["table=1,row=Net sales,col=December 31 2019", "table=1,row=Net sales,col=January 2 2020"]
    assert year_end_readings(closing, FiscalCalendar()) == ()
    assert year_end_readings(["table=1,row=Net sales,col=June 30 2019"], FiscalCalendar()) == ()
