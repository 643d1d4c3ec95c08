"""Which cited columns an answer says it read a January or February year end for, whatever the date's form.

A column headed by such a date (``February 1, 2019``, ``1 Feb 2019``) and filed under the year it writes
is an assumption the answer states; a date closing the glossary's own year, a column the report names
itself (``(fiscal 2019)``) and a header with another year beside the date are not.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.glossary import Period
from ragspine.facts.sqlite_store import SqliteFactStore
from ragspine.qa.dated_periods import DATE, MONTH_NUMBERS
from ragspine.qa.language import Lang
from ragspine.qa.result import AnswerResult, AnswerStatus, Route
from ragspine.qa.slots import Slots
from ragspine.qa.year_end_dates import with_year_ends_said, year_end_readings
from tests.support.glossary import default_glossary

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


# --- the answer's sentence is read only from locators that may name January or February ----------------

_MONTHS = ("January", "Jan.", "February", "Feb", "FEB", "March", "June", "December")


def _day(match: re.Match[str] | None) -> tuple[int, int, int] | None:
    if match is None:
        return None
    return int(match["y"]), MONTH_NUMBERS[(match["m1"] or match["m2"]).lower()], int(match["d1"] or match["d2"])


def _locator(month: str, day: int, year: int, kind: int) -> str:
    return ("table=1,row=Net sales,col=Total" if kind == 0 else
            f"table=2,row=Revenue,col=For the Year Ended/{month} {day}, {year}" if kind == 1 else
            f"table=3,row=Revenue,col={day} {month} {year} (fiscal {year})")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cited=st.lists(st.tuples(st.sampled_from(_MONTHS), st.integers(min_value=1, max_value=28),
                          st.integers(min_value=2015, max_value=2026), st.integers(min_value=0, max_value=2)),
                min_size=1, max_size=3),
       question=st.sampled_from(("What was revenue in 2019?", "Revenue for the year ended February 2, 2019",
                        "2019年的营业收入是多少")))
def test_an_answer_says_a_year_end_exactly_where_one_of_its_locators_reads_as_one(
        cited: list[tuple[str, int, int, int]], question: str, tmp_path: Path) -> None:
    glossary = default_glossary()
    locators = [_locator(*c) for c in cited]
    sources = tuple({"doc": f"doc-{i}", "locator": loc} for i, loc in enumerate(locators))
    result = AnswerResult("Revenue: 1,320", sources, Route.STRUCTURED, AnswerStatus.FOUND,
                          Slots(("REVENUE",), (), (Period.fiscal_year(2019),), ()))
    written = {_day(m) for m in DATE.finditer(question)}
    expected = [r for r in year_end_readings(locators, glossary.fiscal_calendar)
                if _day(DATE.search(r.typed or "")) not in written]  # a date the question writes: no doubt
    store = SqliteFactStore(tmp_path / "facts.db")
    try:
        said = with_year_ends_said(result, question, facts=store, glossary=glossary, lang=Lang.EN)
    finally:
        store.close()
    if not expected:
        assert said is result  # nothing read as a year end: the answer as it was
    else:
        assert said.answer.startswith(f"{result.answer}\n")
        assert [a.typed for a in said.slots.assumptions] == [r.typed for r in expected]
