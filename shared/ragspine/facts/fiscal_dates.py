"""The fiscal year a date closes: one rule for table headers and for questions."""

from __future__ import annotations

import datetime as dt
from calendar import monthrange

from ragspine.facts.calendar import FiscalCalendar

# A month as tables write it in English ("Jun", "June", "Sept."), and its number by its first three letters.
MONTH_PATTERN = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
MONTH_NUMBERS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                             "nov", "dec"), start=1)}
CLOSING_WEEK_DAYS = 7  # a 52/53-week year ends in the last week of its nominal month or the week after


def fiscal_year_closed_on(calendar: FiscalCalendar, year: int, month: int, day: int) -> int | None:
    """The fiscal year a date closes (a balance-sheet date), or None for a date inside a year or no date.

    A date in the last week of the calendar's closing month closes that year (the month's last day,
    or a 52/53-week year's last Saturday, "December 28, 2019"); one in the first week after it
    closes it too ("January 3, 2020" for a December year). A date earlier in the closing month
    ("December 15, 2019") is inside the year: a balance on it is no year-end figure.
    """
    try:
        when = dt.date(year, month, day)
    except ValueError:
        return None
    if month == calendar.end_month:
        last_day = monthrange(year, month)[1]
        return calendar.fiscal_year_of(when) if day > last_day - CLOSING_WEEK_DAYS else None
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


# ``N年度`` as tables and questions write it, maybe with a quarter of it (2024年度第3四半期, 2024年度の第3四半期,
# 2024年度第3季度): the one spelling every reader of 年度 matches, ``year_of_nendo`` the one rule naming it.
NENDO_PATTERN = r"(?P<year>(?:19|20)\d{2})\s*年度(?:\s*の?\s*第?\s*(?P<q>[1-4一二三四])\s*(?:四半期|季度))?"


def year_of_nendo(calendar: FiscalCalendar, year: int) -> int:
    """The fiscal year ``N年度`` names: for a year ending in January to March, the year starting in N (the
    Japanese convention: 2024年度 is April 2024 to March 2025), named as the calendar names it; else N."""
    if calendar.end_month > 3:
        return year
    return named_fiscal_year(calendar, year + 1)
