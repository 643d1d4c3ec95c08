"""Columns headed by a run of a company's quarter-ends, two or more in one year: each read as of its date.

Written month first, day first or as ``2019年12月31日``, the dates name their columns the same way; a run of
quarter-ends is told from dates a balance sheet compares ("December 31, 2019 | June 30, 2019") by the quarter
between each date and the next. A day inside a year beside a year end is named by its date alone, unless a
header writes a length of time.
"""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from ragspine.ingestion.table_column_dates import column_dates, dates_inside_a_year, quarter_ends

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def _written(day: dt.date, form: str) -> str:
    return {"month first": f"{_MONTHS[day.month - 1]} {day.day}, {day.year}",
            "day first": f"{day.day} {_MONTHS[day.month - 1]} {day.year}",
            "cjk": f"{day.year}年{day.month}月{day.day}日"}[form]


@given(last=st.dates(min_value=dt.date(2001, 1, 1), max_value=dt.date(2029, 12, 31)),
       weeks=st.sampled_from([12, 13]), count=st.integers(min_value=3, max_value=4),
       form=st.sampled_from(["month first", "day first", "cjk"]), ended=st.sampled_from(["", "Quarter ended "]))
def test_a_run_of_quarter_ends_names_each_column_by_its_date(last: dt.date, weeks: int, count: int, form: str,
                                                            ended: str) -> None:
    days = [last - dt.timedelta(weeks=weeks * k) for k in range(count)]
    named = column_dates({c + 1: [ended + _written(day, form)] for c, day in enumerate(days)})

    assert named == {c + 1: f"{_MONTHS[day.month - 1]} {day.day}, {day.year}" for c, day in enumerate(days)}
    assert quarter_ends(named)


@given(year=st.integers(min_value=2001, max_value=2029))
def test_dates_a_balance_sheet_compares_are_no_quarter_ends(year: int) -> None:
    for headers in ([f"December 31, {year}", f"June 30, {year}", f"June 30, {year - 1}"],
                    [f"March 31, {year}", f"March 10, {year}"], [f"December 31, {year}", f"December 31, {year - 1}"]):
        assert not quarter_ends(column_dates({c + 1: [h] for c, h in enumerate(headers)}))


def _closes_december(day: dt.date) -> bool:
    return day.month == 12 and day.day == 31


@given(year=st.integers(min_value=2001, max_value=2029), month=st.integers(min_value=1, max_value=11),
       form=st.sampled_from(["month first", "day first", "cjk"]),
       words=st.sampled_from(["", "Estimated at ", "As of ", "Preliminary as of "]))
def test_a_day_inside_a_year_beside_a_year_end_is_named_by_its_date(year: int, month: int, form: str,
                                                                    words: str) -> None:
    inside = dt.date(year, month, 28)
    headers = {1: [words + _written(inside, form)], 2: ["Adjustments"],
               3: ["Final as of " + _written(dt.date(year, 12, 31), form)]}

    assert dates_inside_a_year(headers, _closes_december) == {1: f"{_MONTHS[month - 1]} 28, {year}"}


@given(year=st.integers(min_value=2001, max_value=2029))
def test_a_length_of_time_or_no_year_end_beside_it_names_no_day(year: int) -> None:
    for headers in ([f"Six Months Ended June 30, {year}", f"December 31, {year}"],  # six months' figures
                    [f"June 30, {year}", "Measurement Period Adjustments", f"December 31, {year}"],
                    [f"June 30, {year}", f"March 31, {year}"],  # no year end beside them
                    [f"December 31, {year}", f"December 31, {year - 1}"]):  # every date closes a year
        assert dates_inside_a_year({c + 1: [h] for c, h in enumerate(headers)}, _closes_december) == {}
