"""Quarters named by their months or their end date, read onto the domain's fiscal calendar.

"April-June 2024", 2024年4～6月, 2024年4-6月期, "the quarter ended June 30, 2024" and "the three
months ended December 31, 2024" name three months. When those months are one quarter of the
glossary's fiscal year they are that fiscal quarter (April-June 2024 is 2025Q1 for a year ending
in March named by its end, 2024Q2 for the calendar year), rewritten as its label in place and
padded to the same length, like ``period_words``. Months that are no fiscal quarter (May-July for
a March year, six or nine months) are returned as words the service cannot read: asked back, so
a year's figure never answers a question about part of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.glossary import Period
from ragspine.lazy import LazyPattern

_MONTH_NAMES = {name: number for number, names in enumerate((
    ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
    ("july", "jul"), ("august", "aug"), ("september", "sept", "sep"), ("october", "oct"), ("november", "nov"),
    ("december", "dec")), start=1) for name in names}
_MONTH = "|".join(sorted(_MONTH_NAMES, key=len, reverse=True))
_TO = r"(?:-|–|—|~|〜|～|ー|to|through|thru|until|至|到|から)"
_MONTHS_OF_A_YEAR = LazyPattern(  # "April-June 2024", "Oct. to Dec. 2024"
    rf"(?<![a-z])(?P<m1>{_MONTH})\.?\s*{_TO}\s*(?P<m2>{_MONTH})\.?,?\s+(?P<year>(?:19|20)\d{{2}})(?!\d)",
    re.IGNORECASE)
_CJK_MONTHS = LazyPattern(  # 2024年4～6月, 2024年4月～6月, 2024年4-6月期, 2024年10月至12月
    rf"(?<!\d)(?P<year>(?:19|20)\d{{2}})\s*年\s*(?P<m1>\d{{1,2}})\s*月?\s*{_TO}\s*(?P<m2>\d{{1,2}})\s*(?:月期|月)")
_MONTHS_ENDED = LazyPattern(  # "the quarter ended June 30, 2024", "three months ending 31 December 2024"
    rf"(?<![a-z])(?:(?:fiscal\s+)?quarter|(?P<count>three|six|nine|3|6|9)[\s-]+months?)\s+end(?:ed|ing)\s+(?:on\s+)?"
    rf"(?:(?P<ma>{_MONTH})\.?\s*(?P<da>\d{{1,2}})(?:st|nd|rd|th)?,?|(?P<db>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<mb>{_MONTH})\.?,?)"
    r"\s*(?P<year>(?:19|20)\d{2})(?!\d)", re.IGNORECASE)
# "April 2024 to March 2025", 2024年4月～2025年3月: months across a year end; written after the year's own name
# ("fiscal year 2024 (April 2024 to March 2025)", 2024年度（2024年4月～2025年3月）) they say which year it is.
_NAMED_BEFORE = (r"(?P<named>(?:(?:fiscal\s+year|fiscal|fy)\s*(?:19|20)\d{2}|(?:19|20)\d{2}\s*(?:年度|财年|財年))"
                 r"\s*[(（]\s*)?")
_MONTH_SPAN = LazyPattern(
    rf"(?<![a-z]){_NAMED_BEFORE}(?P<m1>{_MONTH})\.?\s+(?P<y1>(?:19|20)\d{{2}})\s*{_TO}\s*(?P<m2>{_MONTH})\.?,?\s+"
    r"(?P<y2>(?:19|20)\d{2})(?!\d)(?(named)\s*[)）])", re.IGNORECASE)
_CJK_MONTH_SPAN = LazyPattern(
    rf"{_NAMED_BEFORE}(?P<y1>(?:19|20)\d{{2}})\s*年\s*(?P<m1>\d{{1,2}})\s*月\s*{_TO}\s*"
    r"(?P<y2>(?:19|20)\d{2})\s*年\s*(?P<m2>\d{1,2})\s*月(?:\s*期)?(?(named)\s*[)）])")
_COUNTS = {"three": 3, "six": 6, "nine": 9, "3": 3, "6": 6, "9": 9}
# Every wording above holds one of these (NFKC, lower case): the pattern is not run over other questions.
_CUE = LazyPattern(rf"月|ended|ending|(?<![a-z])(?:{_MONTH})\.?\s*(?:(?:19|20)\d{{2}}\s*)?{_TO}", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class PeriodReading:
    """Words naming a period the fiscal calendar places: the fiscal year or quarter they are, or None (none)."""

    words: str  # as the question writes them
    period: Period | None
    months: str  # "2024-04 – 2024-06": what the reading rests on, said in the answer

    @property
    def said(self) -> str:
        """The reading as the answer's assumption line gives it: ``2025Q1 (2024-04 – 2024-06)``."""
        return f"{self.period.label if self.period else ''} ({self.months})"


def months_of(start_year: int, first: int, count: int) -> str:
    """``2024-04 – 2024-06``: ``count`` months from month ``first`` of ``start_year``."""
    last = start_year * 12 + first - 1 + count - 1
    return f"{start_year}-{first:02d} – {last // 12}-{last % 12 + 1:02d}"


def may_name_months(norm: str) -> bool:
    """False only when no month wording can be in the normalised question ``norm``."""
    return _CUE.search(norm) is not None


def read_months(text: str, fiscal: FiscalCalendar) -> tuple[str, tuple[PeriodReading, ...]]:
    """``text`` (NFKC) with each quarter named by its months rewritten as its label, and what was read."""
    readings: list[PeriodReading] = []

    def of_year(match: re.Match[str]) -> str:
        first = _MONTH_NAMES[match["m1"].lower().rstrip(".")]
        last = _MONTH_NAMES[match["m2"].lower().rstrip(".")]
        return _read(match.group(), first, last, int(match["year"]), fiscal, readings)

    def cjk(match: re.Match[str]) -> str:
        first, last = int(match["m1"]), int(match["m2"])
        if not (1 <= first <= 12 and 1 <= last <= 12):
            return match.group()
        return _read(match.group(), first, last, int(match["year"]), fiscal, readings)

    def ended(match: re.Match[str]) -> str:
        last = _MONTH_NAMES[(match["ma"] or match["mb"]).lower()]
        count = _COUNTS[match["count"].lower()] if match["count"] else 3
        first = (last - count) % 12 + 1
        return _read(match.group(), first, last, int(match["year"]), fiscal, readings)

    def span(match: re.Match[str]) -> str:
        first, last = _month(match["m1"]), _month(match["m2"])
        start, end = int(match["y1"]), int(match["y2"])
        if first is None or last is None or (end if first <= last else end - 1) != start:
            months = months_of(start, first or 1, max(1, end * 12 + (last or 1) - start * 12 - (first or 1) + 1))
            readings.append(PeriodReading(match.group().strip(), None, months))  # not one year or quarter: asked back
            return match.group()
        return _read(match.group(), first, last, end, fiscal, readings)

    text = _MONTH_SPAN.sub(span, text)
    text = _CJK_MONTH_SPAN.sub(span, text)
    text = _MONTHS_ENDED.sub(ended, text)
    text = _MONTHS_OF_A_YEAR.sub(of_year, text)
    text = _CJK_MONTHS.sub(cjk, text)
    return text, tuple(readings)


def _read(words: str, first: int, last: int, year: int, fiscal: FiscalCalendar,
          readings: list[PeriodReading]) -> str:
    """The label of the fiscal quarter from month ``first`` to month ``last`` of ``year`` (padded), else the words."""
    start_year = year if first <= last else year - 1  # "November-January 2025" starts in 2024
    span = (year * 12 + last) - (start_year * 12 + first) + 1
    months = months_of(start_year, first, span)
    period = None
    if span == 3 and (last - fiscal.end_month) % 3 == 0:  # three months closing a fiscal quarter
        fiscal_year, quarter = fiscal.fiscal_quarter_of(date(year, last, 1))
        period = Period("Q", f"{fiscal_year}Q{quarter}")
    elif span == 12 and last == fiscal.end_month:  # twelve months closing the fiscal year: that year
        period = Period.fiscal_year(fiscal.fiscal_year_of(date(year, last, 1)))
    label = period.label if period is not None else ""
    if period is None or len(label) > len(words):
        readings.append(PeriodReading(words.strip(), None, months))
        return words
    readings.append(PeriodReading(words.strip(), period, months))
    return label + " " * (len(words) - len(label))


def _month(written: str) -> int | None:
    """A month by its name (``April``, ``Sept.``) or its number (``4``), else None."""
    if written.isdigit():
        return int(written) if 1 <= int(written) <= 12 else None
    return _MONTH_NAMES.get(written.lower().rstrip("."))
