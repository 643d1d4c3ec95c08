"""Relative periods (last year, 上季度) from the day and the fiscal calendar, and prior comparable periods."""

from __future__ import annotations

from datetime import date

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.glossary import Period


def quarter(year: int, number: int) -> Period:
    """Fiscal quarter ``number`` (1-4) of fiscal year ``year``."""
    return Period("Q", f"{year}Q{number}")


def _year_and_quarter(period: Period) -> tuple[int, int]:
    year, _, number = period.period.partition("Q")
    return int(year), int(number)


def resolve_relative(name: str, today: date, calendar: FiscalCalendar) -> Period:
    """The period ``last_year`` / ``this_year`` / ``last_quarter`` / ``this_quarter`` means on ``today``."""
    if name == "last_year":
        return Period.fiscal_year(calendar.last_completed_year(today))
    if name == "this_year":
        return Period.fiscal_year(calendar.fiscal_year_of(today))
    year, number = calendar.fiscal_quarter_of(today)
    if name == "this_quarter":
        return quarter(year, number)
    return quarter(year - 1, 4) if number == 1 else quarter(year, number - 1)


def prior_period(period: Period, kind: str) -> Period:
    """The prior comparable period: the year before (same quarter), or the quarter before."""
    if period.period_type == "FY":
        return Period.fiscal_year(int(period.period) - 1)
    year, number = _year_and_quarter(period)
    if kind == "year":
        return quarter(year - 1, number)
    return quarter(year - 1, 4) if number == 1 else quarter(year, number - 1)


def quarters_of(period: Period) -> tuple[Period, ...]:
    """The four fiscal quarters of a fiscal year (nothing for a quarter)."""
    if period.period_type != "FY":
        return ()
    year = int(period.period)
    return tuple(quarter(year, n) for n in range(1, 5))
