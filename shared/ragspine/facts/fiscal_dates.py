"""The fiscal year a date closes: one rule for table headers and for questions."""

from __future__ import annotations

import datetime as dt

from ragspine.facts.calendar import FiscalCalendar

CLOSING_WEEK_DAYS = 7  # a 52/53-week year may end up to a week after its nominal month


def fiscal_year_closed_on(calendar: FiscalCalendar, year: int, month: int, day: int) -> int | None:
    """The fiscal year a date closes (a balance-sheet date), or None for a date inside a year or no date.

    A date in the calendar's last fiscal month closes that year; one in the first week after it
    closes it too (a 52/53-week year ending "January 3, 2020" for a December year).
    """
    try:
        when = dt.date(year, month, day)
    except ValueError:
        return None
    if month == calendar.end_month:
        return calendar.fiscal_year_of(when)
    if month == calendar.end_month % 12 + 1 and day <= CLOSING_WEEK_DAYS:
        return calendar.fiscal_year_of(when - dt.timedelta(days=CLOSING_WEEK_DAYS))
    return None


def named_fiscal_year(calendar: FiscalCalendar, end_year: int) -> int:
    """The name of the fiscal year ending in ``end_year`` (a year named by its start is one less)."""
    return end_year - 1 if calendar.named_by == "start" and calendar.end_month != 12 else end_year


def year_name_unsure(calendar: FiscalCalendar, year: int, month: int, day: int) -> bool:
    """Whether "year ended <date>" may be named by either calendar year: it ends in January or February.

    Most of such a year lies in the calendar year before its end, so a retailer's year ending
    "February 1, 2019" is fiscal 2018 to some and 2019 to others. A date closing the glossary's
    own fiscal year (or within the week after it) is never in doubt: the glossary names it.
    """
    if fiscal_year_closed_on(calendar, year, month, day) is not None:
        return False
    return month in (1, 2)
