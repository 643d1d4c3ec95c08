"""Columns each headed by its own date (``July 27, 2019 | April 27, 2019 | January 26, 2019``): that date's figures.

A date the glossary's calendar does not close names none of its fiscal years or quarters, and several
such dates in one year cannot all be "that year" (``table_stated_years``): a company's own quarter-ends
("Quarters Ended July 27, 2019", "12 Weeks Ended September 29, 2019"). The figures are still stated for
those dates. Where every value column writes one whole date (month, day and year, across its header
lines: "September 29," over "2019"), each column a different date, and nothing but words saying what
the date ends ("12 Weeks Ended", "Quarters Ended", "As of"), each column's figures are read as of its
date, named by it as written the usual way (``September 29, 2019``), of no fiscal year or quarter.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence

from ragspine.facts.fiscal_dates import MONTH_NUMBERS, MONTH_PATTERN
from ragspine.facts.glossary import normalize_text

_DATE = re.compile(rf"(?<![a-z])(?P<m>{MONTH_PATTERN})\s+(?P<d>\d{{1,2}}),?\s*(?P<y>(?:19|20)\d{{2}})(?!\d)")
# Words saying what a date ends or is: "12 Weeks Ended", "Sixteen weeks ended", "Quarters Ended", "As of", a note mark.
_ENDING_WORDS = re.compile(r"(?<![a-z])(?:\d{1,2}|twelve|thirteen|sixteen|weeks?|quarters?|three|months?"
                           r"|ended|ending|as\s+of|as\s+at)(?![a-z])|\(\d\)|[,.]")
_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")


def column_dates(col_headers: Mapping[int, Sequence[str]]) -> dict[int, str]:
    """``column -> "September 29, 2019"`` where every value column is headed by its own date, else {}."""
    if len(col_headers) < 2:
        return {}
    named: dict[int, str] = {}
    for c, headers in col_headers.items():
        text = " ".join(normalize_text(h) for h in headers if h.strip())
        dates = list(_DATE.finditer(text))
        if len(dates) != 1:
            return {}
        rest = _ENDING_WORDS.sub(" ", text[:dates[0].start()] + " " + text[dates[0].end():])
        day = _day(dates[0])
        if rest.strip() or day is None:
            return {}
        named[c] = f"{_MONTH_NAMES[day.month - 1]} {day.day}, {day.year}"
    return named if len(set(named.values())) == len(named) else {}


def _day(match: re.Match[str]) -> dt.date | None:
    try:
        return dt.date(int(match["y"]), MONTH_NUMBERS[match["m"][:3]], int(match["d"]))
    except ValueError:  # "February 30": no date at all
        return None
