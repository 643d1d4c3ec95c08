"""A date in a question is read as the fiscal year it closes, by the rule the table reader files it under."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.fiscal_dates import fiscal_year_closed_on, year_name_unsure
from ragspine.facts.glossary import Period
from ragspine.qa.answer import answer_question
from ragspine.qa.dated_periods import rewrite_dates
from ragspine.qa.slots import parse_slots
from tests.support.glossary import default_glossary
from tests.unit.qa.derived.statement_set import finance_domain, statement_facts, statement_qa

GLOSSARY = default_glossary()  # a fiscal year ending in December


@pytest.mark.parametrize(("question", "year"), [
    ("How much was the derivative liabilities as at December 31, 2019?", "2019"),
    ("What is the total other non-current assets as at December 31, 2018?", "2018"),
    ("How much was the total energy consumption for the year ended 31 December 2019?", "2019"),
    ("Revenue on Dec. 31st, 2017", "2017"),
    ("Revenue as of January 3, 2020", "2019"),  # a 52/53-week year closing in the week after
    ("Revenue for the year ended June 30, 2019", "2019"),  # a year "ended" names its year whatever the month
])
def test_a_date_closing_a_fiscal_year_names_that_year(question: str, year: str) -> None:
    assert parse_slots(question, glossary=GLOSSARY).periods == (Period.fiscal_year(int(year)),)


def test_a_date_inside_a_year_names_no_fiscal_year() -> None:
    question = "Revenue as of September 30, 2018"
    assert rewrite_dates(question, GLOSSARY) == question
    assert "September" in parse_slots(question, glossary=GLOSSARY).unknown_names  # asked back, never FY2018


def test_a_year_ending_a_month_after_the_calendars_is_not_named_here() -> None:
    question = "Revenue for the year ended January 31, 2020"  # a retailer's year: fiscal 2019 to some, 2020 to others
    assert rewrite_dates(question, GLOSSARY) == question


@settings(max_examples=80, deadline=None)
@given(day=st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2060, 12, 31)),
       form=st.sampled_from(["{m} {d}, {y}", "{d} {m} {y}", "{m}. {d} {y}", "{m} {d} {y}"]),
       end_month=st.integers(1, 12))
def test_the_rewrite_keeps_the_length_and_follows_the_closing_rule(day: dt.date, form: str, end_month: int) -> None:
    calendar = FiscalCalendar(end_month=end_month)
    glossary = replace(GLOSSARY, fiscal_calendar=calendar)
    written = form.format(m=day.strftime("%B"), d=day.day, y=day.year)
    question = f"What was revenue as at {written}?"
    rewritten = rewrite_dates(question, glossary)
    assert len(rewritten) == len(question)
    closed = fiscal_year_closed_on(calendar, day.year, day.month, day.day)
    if closed is None:
        assert rewritten == question
    else:
        assert f"FY{closed}" in rewritten and day.strftime("%B") not in rewritten


def test_only_a_year_ending_in_january_or_february_outside_the_calendars_own_end_is_unsure() -> None:
    december, january = FiscalCalendar(end_month=12), FiscalCalendar(end_month=1, named_by="start")
    assert year_name_unsure(december, 2020, 1, 31) and year_name_unsure(december, 2019, 2, 1)
    assert not year_name_unsure(december, 2020, 1, 3)  # the week after: closes December's year
    assert not year_name_unsure(january, 2020, 1, 31)  # the glossary's own year end names it
    assert not year_name_unsure(december, 2019, 6, 30) and not year_name_unsure(december, 2019, 4, 27)


def test_a_mid_month_date_in_the_closing_month_names_no_fiscal_year() -> None:
    question = "What was the cash balance as of December 15, 2019?"  # a date inside the year, not its end
    assert rewrite_dates(question, GLOSSARY) == question
    assert "December" in parse_slots(question, glossary=GLOSSARY).unknown_names  # asked back, never FY2019


@pytest.mark.parametrize(("question", "date"), [
    ("What were total assets as of June 30, 2024?", "June 30, 2024"),
    ("2024年6月30日的总资产是多少", "2024年6月30日"),
    ("2024年6月末の総資産は", "2024年6月末"),
])
def test_a_date_inside_a_year_is_a_period_asked_back_never_the_year(question: str, date: str) -> None:
    assert parse_slots(question, glossary=GLOSSARY).bad_period == date


@pytest.mark.parametrize("question", ["2024年12月31日的总资产是多少", "2024年12月末の総資産は",
                                      "total assets as of December 31, 2024"])
def test_a_date_closing_the_year_is_no_date_asked_back(question: str) -> None:
    slots = parse_slots(question, glossary=GLOSSARY)
    assert (slots.periods, slots.bad_period) == ((Period.fiscal_year(2024),), None)


def test_a_balance_on_a_date_inside_the_year_is_never_answered_with_the_year_end_one(tmp_path: Path) -> None:
    qa = statement_qa(finance_domain(tmp_path / "domain"), statement_facts())
    result = answer_question("2024年6月30日的总资产是多少", qa=qa)  # only the year-end 2500 is stated
    assert "2500" not in result.answer and "2024年6月30日" in result.answer, result.answer
