"""Quarters named by their months or end date, and 年度 named by its start, read on the fiscal calendar."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.glossary import Glossary
from ragspine.qa.slots import ParsedSlots, parse_slots
from tests.support.glossary import default_glossary

MARCH = FiscalCalendar(3)
_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")


def _glossary(calendar: FiscalCalendar) -> Glossary:
    return replace(default_glossary(), fiscal_calendar=calendar)


def _parsed(question: str, calendar: FiscalCalendar = MARCH) -> ParsedSlots:
    return parse_slots(question, glossary=_glossary(calendar))


@pytest.mark.parametrize(("question", "expected"), [
    ("What were net sales in April-June 2024?", "2025Q1"),
    ("2024年4～6月の売上高は", "2025Q1"),
    ("2024年4月～6月の売上高は", "2025Q1"),
    ("2024年4-6月期の売上高は", "2025Q1"),
    ("2024年10-12月的营业收入是多少", "2025Q3"),
    ("What were net sales in the quarter ended June 30, 2024?", "2025Q1"),
    ("net sales in the three months ended December 31, 2024", "2025Q3"),
    ("net sales in Jan. to Mar. 2025", "2025Q4"),
])
def test_a_quarter_named_by_its_months_is_the_fiscal_quarter_not_the_year(question: str, expected: str) -> None:
    parsed = _parsed(question)
    assert [p.label for p in parsed.periods] == [expected]
    assert parsed.bad_period is None
    assert [r.period.label for r in parsed.period_readings if r.period] == [expected]


def test_the_same_months_of_a_calendar_year_are_its_second_quarter() -> None:
    assert [p.label for p in _parsed("net sales in April-June 2024", FiscalCalendar()).periods] == ["2024Q2"]


@pytest.mark.parametrize("question", [
    "net sales in May-July 2024",  # three months, but no quarter of a year ending in March
    "2024年4～9月の売上高は",  # six months
    "net sales in the six months ended September 30, 2024",
    "net sales in the nine months ended December 31, 2024",
])
def test_months_that_are_no_fiscal_quarter_are_asked_back(question: str) -> None:
    parsed = _parsed(question)
    assert parsed.bad_period is not None
    assert not parsed.period_readings


@given(st.integers(1, 12), st.integers(2000, 2090), st.sampled_from([1, 2, 3, 6, 9, 12]))
def test_three_months_closing_a_fiscal_quarter_are_that_quarter_else_asked(first: int, year: int,
                                                                            end_month: int) -> None:
    calendar = FiscalCalendar(end_month)
    last = (first + 1) % 12 + 1
    end_year = year + 1 if last < first else year
    question = f"revenue in {_MONTH_NAMES[first - 1]}-{_MONTH_NAMES[last - 1]} {end_year}"
    parsed = _parsed(question, calendar)
    if (last - end_month) % 3:
        assert parsed.bad_period is not None  # never a year's figure for part of a year
    else:
        from datetime import date

        fiscal_year, quarter = calendar.fiscal_quarter_of(date(end_year, last, 1))
        assert [p.label for p in parsed.periods] == [f"{fiscal_year}Q{quarter}"]


@pytest.mark.parametrize(("question", "expected", "months"), [
    ("2024年度の売上高は", "FY2025", "2024-04 – 2025-03"),
    ("2024年度第3四半期の医療機器事業の売上高は", "2025Q3", "2024-10 – 2024-12"),
    ("2023年度から2024年度までの売上高", "FY2024", "2023-04 – 2024-03"),
])
def test_nendo_of_a_march_year_is_the_year_starting_in_it(question: str, expected: str, months: str) -> None:
    parsed = _parsed(question)
    assert parsed.periods[0].label == expected
    assert parsed.period_readings[0].said == f"{expected} ({months})"


@pytest.mark.parametrize("calendar", [FiscalCalendar(), FiscalCalendar(6), FiscalCalendar(3, "start")])
def test_nendo_keeps_its_year_where_the_glossary_names_it_so(calendar: FiscalCalendar) -> None:
    parsed = _parsed("2024年度の売上高は", calendar)
    assert [p.label for p in parsed.periods] == ["FY2024"]
    assert not parsed.period_readings


def test_a_year_ending_march_written_as_such_is_not_read_twice() -> None:
    # 2025年3月期 and 2024年度 are one year (April 2024 to March 2025); neither is moved twice
    assert [p.label for p in _parsed("2025年3月期と2024年度の売上高").periods] == ["FY2025"]


def test_a_half_year_is_asked_back_in_the_words_written_not_their_reading() -> None:
    assert _parsed("2025年3月期上期の売上総利益率は").bad_period == "2025年3月期上期"  # a ratio: no sum of quarters


def test_a_half_year_of_a_march_year_is_its_first_two_fiscal_quarters_with_their_months() -> None:
    parsed = _parsed("2025年3月期上期の売上高は")
    assert [(r.period.label if r.period else "", r.months) for r in parsed.period_readings] == [
        ("2025Q1", "2024-04 – 2024-06"), ("2025Q2", "2024-07 – 2024-09")]


@pytest.mark.parametrize(("calendar", "year", "quarter"), [
    (MARCH, "FY2025", "2025Q3"), (FiscalCalendar(), "FY2024", "2024Q3"), (FiscalCalendar(6), "FY2024", "2024Q3"),
])
def test_a_table_header_nendo_is_read_as_the_question_reads_it(calendar: FiscalCalendar, year: str,
                                                               quarter: str) -> None:
    glossary = _glossary(calendar)
    header, header_quarter = glossary.normalize_period("2024年度"), glossary.normalize_period("2024年度第3四半期")
    assert header is not None and header.label == year == _parsed("2024年度の売上高", calendar).periods[0].label
    assert header_quarter is not None and header_quarter.label == quarter


@pytest.mark.parametrize(("calendar", "year"), [(MARCH, "FY2025"), (FiscalCalendar(3, "start"), "FY2024")])
@pytest.mark.parametrize("question", [
    "Japan revenue in fiscal year 2024 (April 2024 to March 2025)", "Japan revenue from April 2024 to March 2025",
    "日本の2024年度（2024年4月～2025年3月）の売上高",
])
def test_twelve_months_closing_the_fiscal_year_are_that_year_whatever_name_is_written_before_them(
        question: str, calendar: FiscalCalendar, year: str) -> None:
    parsed = _parsed(question, calendar)
    assert [p.label for p in parsed.periods] == [year] and parsed.bad_period is None
    assert [r.said for r in parsed.period_readings] == [f"{year} (2024-04 – 2025-03)"]


@pytest.mark.parametrize("question", ["Japan revenue in fiscal year 2024 (April 2024 to March 2025)",
                                      "Japan revenue from May 2024 to April 2025"])
def test_twelve_months_that_are_no_fiscal_year_of_the_calendar_are_asked_back(question: str) -> None:
    parsed = _parsed(question, FiscalCalendar() if "fiscal" in question else MARCH)
    assert parsed.bad_period is not None and "2024" in parsed.bad_period
