"""Periods in the words people use, read onto the domain's fiscal calendar before slots are scanned.

``2025年3月期`` (the fiscal year ending March 2025), ``2025年3月期第3四半期``, "the year ended June
30, 2024" and "fiscal year ending December 31, 2023" are rewritten into the spellings the glossary's
period patterns read (``2025年度``, ``2025年度第3四半期``, ``FY2024``), each padded to its own length
so every span of the question keeps its place. Ranges ("2019 to 2021", 2019年至2021年, FY2019–FY2021)
name every fiscal year between their ends. Half years (2024财年上半年, H1 2024) are not periods
facts are kept in: they are reported as a period the service cannot read, never as a name.
"""

from __future__ import annotations

import calendar as months_of_year
import re
import unicodedata
from datetime import date

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.glossary import Mention, Period, SlotKind
from ragspine.lazy import LazyPattern

MAX_RANGE_YEARS = 12  # a range longer than this is read as its two ends only

_MONTHS = {name.lower(): number for number, name in enumerate(months_of_year.month_name) if name}
_MONTHS.update({name.lower(): number for number, name in enumerate(months_of_year.month_abbr) if name})
_JA_FISCAL_END = LazyPattern(r"(?P<year>\d{4})\s*年\s*(?P<month>\d{1,2})\s*月\s*期"
                            r"(?:\s*の?\s*第\s*(?P<q>[1-4一二三四])\s*四半期)?")
_ENDED = LazyPattern(r"(?<![a-z])(?:(?:fiscal\s+)?year|twelve\s+months|12\s+months)\s+end(?:ed|ing)\s+(?:on\s+)?"
                    r"(?P<month>[a-z]{3,9})\.?\s+(?P<day>\d{1,2}),?\s+(?P<year>\d{4})(?!\d)", re.IGNORECASE)
_HALF = LazyPattern(r"(?:\d{4}\s*(?:财年|財年|年度|年)?\s*(?:上半年|下半年|上半期|下半期|上期|下期))"
                   r"|(?<![a-z])(?:h[12]\s*(?:fy\s*)?\d{4}|(?:first|second)\s+half\s+(?:of\s+)?(?:fy\s*)?\d{4})(?!\d)",
                   re.IGNORECASE)
_CJK_Q = {"一": "1", "二": "2", "三": "3", "四": "4"}
RANGE_WORDS = frozenset({"から", "まで", "より", "期間"})  # a range's own words are never read as a name
_RANGE_BETWEEN = LazyPattern(r"^\s*(?:to|through|thru|until|-|–|—|~|〜|～|至|到|から|より|ー)\s*$")


def rewrite_period_words(question: str, fiscal: FiscalCalendar) -> str:
    """``question`` (NFKC) with fiscal-year-end wording rewritten for the period patterns, same length."""
    text = unicodedata.normalize("NFKC", question)

    def japanese(match: re.Match[str]) -> str:
        year = _fiscal_year(fiscal, int(match["year"]), int(match["month"]), 1)
        if year is None:
            return match.group()
        quarter = match["q"]
        word = f"{year}年度" if quarter is None else f"{year}年度第{_CJK_Q.get(quarter, quarter)}四半期"
        return _padded(word, match.group())

    def ended(match: re.Match[str]) -> str:
        month = _MONTHS.get(match["month"].lower())
        year = _fiscal_year(fiscal, int(match["year"]), month, int(match["day"])) if month else None
        return match.group() if year is None else _padded(f"FY{year}", match.group())

    return _ENDED.sub(ended, _JA_FISCAL_END.sub(japanese, text))


def half_year(question: str) -> str | None:
    """The half-year wording a question uses (facts are kept by year and quarter only), or None."""
    match = _HALF.search(unicodedata.normalize("NFKC", question))
    return match.group().strip() if match else None


def with_ranges(norm: str, mentions: list[Mention], periods: dict[Period, None]) -> dict[Period, None]:
    """``periods`` with every fiscal year between two named years joined by a range word ("2019 to 2021")."""
    years = [m for m in mentions if m.kind is SlotKind.PERIOD and m.period is not None
             and m.period.period_type == "FY"]
    if len(years) < 2:
        return periods
    ranged: dict[Period, None] = {}
    for first, second in zip(years, years[1:], strict=False):
        assert first.period is not None and second.period is not None
        start, end = int(first.period.period), int(second.period.period)
        if start < end <= start + MAX_RANGE_YEARS and _RANGE_BETWEEN.match(norm[first.end:second.start]):
            ranged.update({Period.fiscal_year(y): None for y in range(start, end + 1)})
    if not ranged:
        return periods
    merged = dict(periods)
    merged.update(ranged)
    return dict(sorted(merged.items(), key=lambda item: (item[0].period_type, item[0].period)))


def _fiscal_year(fiscal: FiscalCalendar, year: int, month: int | None, day: int) -> int | None:
    if month is None or not 1 <= month <= 12 or not 1900 <= year <= 2999:
        return None
    try:
        return fiscal.fiscal_year_of(date(year, month, min(day, 28)))
    except ValueError:
        return None


def _padded(word: str, original: str) -> str:
    """``word`` padded with spaces to the length of ``original`` (spans of the question keep their place)."""
    return word + " " * (len(original) - len(word)) if len(word) <= len(original) else original
