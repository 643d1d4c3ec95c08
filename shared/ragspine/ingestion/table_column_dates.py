"""Columns each headed by its own date (``July 27, 2019 | April 27, 2019 | January 26, 2019``): that date's figures.

A date the glossary's calendar does not close names none of its fiscal years or quarters, and several
such dates in one year cannot all be "that year" (``table_stated_years``): a company's own quarter-ends
("Quarters Ended July 27, 2019", "12 Weeks Ended September 29, 2019"). The figures are still stated for
those dates. Where every value column writes one whole date (month, day and year, across its header
lines: "September 29," over "2019"), each column a different date, and nothing but words saying what
the date ends ("12 Weeks Ended", "Quarters Ended", "As of"), each column's figures are read as of its
date, named by it as written the usual way (``September 29, 2019``), of no fiscal year or quarter. A date
may be written month first, day first ("29 September 2019") or as ``2019年9月29日``.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Callable, Mapping, Sequence

from ragspine.facts.fiscal_dates import MONTH_NUMBERS, MONTH_PATTERN
from ragspine.facts.glossary import normalize_text

# A whole date as written: "July 27, 2019", "27 July 2019", "2019年7月27日".
_DATE = re.compile(rf"(?<![a-z])(?P<m>{MONTH_PATTERN})\s+(?P<d>\d{{1,2}}),?\s*(?P<y>(?:19|20)\d{{2}})(?!\d)"
                   rf"|(?<!\d)(?P<d2>\d{{1,2}})\s+(?P<m2>{MONTH_PATTERN})\s+(?P<y2>(?:19|20)\d{{2}})(?!\d)"
                   r"|(?<!\d)(?P<y3>(?:19|20)\d{2})\s*年\s*(?P<m3>\d{1,2})\s*月\s*(?P<d3>\d{1,2})\s*日")
# Words saying what a date ends or is: "12 Weeks Ended", "Sixteen weeks ended", "Quarters Ended", "As of", a note mark.
_ENDING_WORDS = re.compile(r"(?<![a-z])(?:\d{1,2}|twelve|thirteen|sixteen|weeks?|quarters?|three|months?"
                           r"|ended|ending|as\s+of|as\s+at)(?![a-z])|\(\d\)|[,.]|現在|時点|末|截至|止")
# Words saying a header covers a length of time ("Six Months Ended", "Year ended", "Period"), no day's balance.
_SPAN_WORDS = re.compile(r"(?<![a-z])(?:months?|weeks?|quarters?|years?|half|ended|ending|periods?|ytd)(?![a-z])"
                         r"|か月|ヶ月|个月|四半期|季度|半期|年度|累计|累計")
# days between one quarter-end and the next: a 12- to 16-week quarter, or three calendar months
_QUARTER_DAYS = (77, 115)
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


def dates_inside_a_year(col_headers: Mapping[int, Sequence[str]],
                        closes_a_year: Callable[[dt.date], bool]) -> dict[int, str]:
    """``column -> "June 30, 2019"`` for each column headed by a day's balance inside a fiscal year, beside one
    headed by a date closing a year ("Estimated at June 30, 2019 | Adjustments | Final as of December 31, 2019").

    The year-end column is that year's; the other is of no fiscal year, yet its figures are stated for its
    date. Only one whole date a header, and no words of a length of time ("Six Months Ended June 30, 2019"
    is six months' figures, no balance on the day); else {}.
    """
    days: dict[int, dt.date] = {}
    for c, headers in col_headers.items():
        text = " ".join(normalize_text(h) for h in headers if h.strip())
        dates = list(_DATE.finditer(text))
        if len(dates) > 1 or _SPAN_WORDS.search(text):
            return {}
        day = _day(dates[0]) if dates else None
        if day is not None:
            days[c] = day
    inside = {c: day for c, day in days.items() if not closes_a_year(day)}
    if not inside or len(inside) == len(days) or len(set(inside.values())) != len(inside):
        return {}
    return {c: f"{_MONTH_NAMES[day.month - 1]} {day.day}, {day.year}" for c, day in inside.items()}


def quarter_ends(named: Mapping[int, str]) -> bool:
    """Whether the columns' dates (``column_dates``) are a run of a company's quarter-ends, two of them in one year:
    even the one closing a fiscal year ("Dec. 28, 2019" beside "Sept. 28, 2019") heads a quarter, not that year.
    Dates further apart ("December 31, 2019 | June 30, 2019") or closer ("March 31 | March 10") may be balances."""
    days = sorted(dt.datetime.strptime(date, "%B %d, %Y").date() for date in named.values())
    years = [day.year for day in days]
    return len(set(years)) < len(years) and all(
        _QUARTER_DAYS[0] <= (later - earlier).days <= _QUARTER_DAYS[1] for earlier, later in itertools.pairwise(days))


def _day(match: re.Match[str]) -> dt.date | None:
    try:
        if match["y3"]:
            return dt.date(int(match["y3"]), int(match["m3"]), int(match["d3"]))
        month = MONTH_NUMBERS[(match["m"] or match["m2"])[:3]]
        return dt.date(int(match["y"] or match["y2"]), month, int(match["d"] or match["d2"]))
    except ValueError:  # "February 30": no date at all
        return None
