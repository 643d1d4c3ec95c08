"""``N年度`` as a table writes it: the fiscal year (or its quarter) the glossary's calendar names it by."""

from __future__ import annotations

import unicodedata

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.fiscal_dates import NENDO_PATTERN, year_of_nendo
from ragspine.facts.glossary import Period
from ragspine.lazy import LazyPattern

# A Japanese fiscal year named by the calendar year it starts in (2024年度), maybe with a quarter of it.
_NENDO = LazyPattern(NENDO_PATTERN)
_CJK_QUARTERS = {"一": 1, "二": 2, "三": 3, "四": 4}


def nendo_period(calendar: FiscalCalendar, text: str) -> Period | None:
    """The period a text written wholly as 年度 N, or a quarter of it, names; else None.

    年度 N is the fiscal year that starts in calendar year N: under an April-March year 2024年度
    runs April 2024 to March 2025, the year a glossary naming years by their end calls FY2025
    (2025年3月期). ``2024年度第3四半期`` is that year's third quarter, October-December 2024.
    """
    match = _NENDO.fullmatch(unicodedata.normalize("NFKC", text).strip())
    if match is None:
        return None
    year = year_of_nendo(calendar, int(match["year"]))
    if match["q"] is None:
        return Period.fiscal_year(year)
    return Period("Q", f"{year}Q{_CJK_QUARTERS.get(match['q']) or int(match['q'])}")
