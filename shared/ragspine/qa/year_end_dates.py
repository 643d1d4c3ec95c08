"""A cited column dated by a January or February year end: the year it was read as, said in the answer.

A retailer's year ending ``February 1, 2019`` is fiscal 2018 in some reports and 2019 in others.
The table reader files such a column under the year its date writes unless the text around the
table names such years by their start (``ingestion/table_stated_years``). That reading is an
assumption wherever the report does not say which it is, so an answer citing such a column states
it ("the year ended February 1 2019 read as FY2019, the year its end falls in") beside the other
assumptions, never silently. The locator keeps the header as written: a locator naming one such
date and no other year is the column read this way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.fiscal_dates import year_name_unsure
from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.lazy import LazyPattern
from ragspine.qa.dated_periods import DATE, MONTH_NUMBERS
from ragspine.qa.language import Lang
from ragspine.qa.render import YEAR_END_DATE, render_assumptions
from ragspine.qa.result import AnswerResult, Route
from ragspine.qa.slots import Assumption

_YEAR = LazyPattern(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
_READ = "a January or February year end, read as the calendar year it ends in"


def year_end_readings(locators: Iterable[str], calendar: FiscalCalendar) -> tuple[Assumption, ...]:
    """One assumption per January or February year-end date the locators cite as a year of their own."""
    readings: dict[str, Assumption] = {}
    for locator in locators:
        dates = list(DATE.finditer(locator))
        if len(dates) != 1 or dates[0]["ended"]:
            continue
        match = dates[0]
        month = MONTH_NUMBERS[(match["m1"] or match["m2"]).lower()]
        day, year = int(match["d1"] or match["d2"]), int(match["y"])
        if set(_YEAR.findall(locator)) != {match["y"]} or not year_name_unsure(calendar, year, month, day):
            continue  # another year beside the date ("Fiscal 2019" over it): the header names the year itself
        written = " ".join(match.group().split())
        readings.setdefault(written, Assumption(SlotKind.PERIOD, f"FY{year}", _READ, YEAR_END_DATE, written))
    return tuple(sorted(readings.values(), key=lambda a: (a.value, a.typed or "")))


def with_year_ends_said(result: AnswerResult, glossary: Glossary, lang: Lang) -> AnswerResult:
    """``result`` with a sentence saying which year each cited January or February year end was read as."""
    if result.route is Route.NARRATIVE or not result.sources:
        return result
    readings = year_end_readings(_locators(result.sources), glossary.fiscal_calendar)
    if not readings:
        return result
    answer = f"{result.answer}\n{render_assumptions(readings, glossary, lang)}"
    slots = replace(result.slots, assumptions=(*result.slots.assumptions, *readings))
    return replace(result, answer=answer, slots=slots)


def _locators(sources: Iterable[Mapping[str, str]]) -> list[str]:
    return [source.get("locator", "") for source in sources]
