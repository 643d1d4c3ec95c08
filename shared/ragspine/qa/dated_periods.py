"""Dates in a question read as the fiscal year they close: "as at December 31, 2019" is FY2019.

Tables state balance-sheet periods as dates (``December 31, 2019``, ``30 June 2019``) and the
table reader files them under the fiscal year the date closes (``ingestion/table_axes.py``).
A question naming the same date asks for that year, so it is read by the same rule: a date in
the glossary's last fiscal month (or the week after it, for 52/53-week years) becomes
``FY<year>``; "year ended 31 December 2019" names the fiscal year it ends whatever the month.
A date inside a year is left as written (it names no fiscal year; the question is not read
as another period). Rewritten in place, padded to the same length, like ``period_words``.

``date_inside_a_year`` names such a date, in English or as 2024年6月30日 / 2024年6月末, so the
question is asked back rather than read as the year the date falls in: a balance on June 30 is
no year-end figure.
"""

from __future__ import annotations

import re
from calendar import monthrange
from functools import lru_cache

from ragspine.facts.fiscal_dates import fiscal_year_closed_on, named_fiscal_year, year_name_unsure
from ragspine.facts.glossary import Glossary
from ragspine.lazy import LazyPattern

MONTH_NUMBERS = {name: number for number, names in enumerate((
    ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
    ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
    ("december", "dec")), start=1) for name in names}
_MONTH = "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True))


def is_month_name(word: str) -> bool:
    """Whether a word of a question is a month's name ("June", "Sept."): a date's word, never a company's."""
    return word.strip(".").lower() in MONTH_NUMBERS
DATE = LazyPattern(  # the lookahead names every possible first character: most positions fail on one class test
    rf"(?=[\dfyjmasond])(?P<ended>(?:fiscal\s+)?years?[\s-]+end(?:ed|ing)\s+(?:on\s+)?)?"
    rf"(?:(?P<m1>{_MONTH})\.?\s*(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?,?|(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<m2>{_MONTH})\.?,?)"
    r"\s*(?P<y>(?:19|20)\d{2})(?!\d)",
    re.IGNORECASE)


# 2024年6月30日, 2024年6月末 (the month's last day); 12月31日 of a December year closes it, so is no such date.
# A year written alone ("2019", never the digits of a longer number): the one pattern every date reading shares.
YEAR = LazyPattern(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
_CJK_DATE = LazyPattern(r"(?<!\d)(?P<y>(?:19|20)\d{2})\s*年\s*(?P<m>\d{1,2})\s*月\s*"
                        r"(?:(?P<d>\d{1,2})\s*日|(?P<end>末))")


# What every ``DATE`` match holds in the normalised (NFKC, lower-case) question: a month's first letters, and
# its spelling beside a day's digit ("march 31", "sept. 30", "31st december"). A month's letters alone
# ("gross margin", "decrease", "market") hold no date, so the date pattern is not run over the question.
MONTH_STARTS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_START = LazyPattern("|".join(MONTH_STARTS))
_MONTH_BESIDE_DAY = LazyPattern(r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*\d"
                                r"|\d(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)")


# The table-date check and the question's reading ask it of the same normalised question: its second verdict
# is the first's (a dictionary hit in C) rather than two searches again ("gross margin" holds "mar").
@lru_cache(maxsize=8)
def may_name_a_date(norm: str) -> bool:
    """False only when ``DATE`` finds no date in the question whose ``normalize_text`` is ``norm``."""
    return holds_month_start(norm) and _MONTH_BESIDE_DAY.search(norm) is not None


# The date guard, the months reader's guard and the dated-cells check before the parse each ask it of the same
# normalised question: one search an ask.
@lru_cache(maxsize=8)
def holds_month_start(norm: str) -> bool:
    """Whether the normalised question ``norm`` holds a month's first three letters anywhere ("gross margin" does):
    every month a question spells in Latin letters holds them."""
    return _MONTH_START.search(norm) is not None


def rewrite_dates(question: str, glossary: Glossary) -> str:
    """``question`` with each date that closes a fiscal year replaced by ``FY<year>`` (same length)."""

    def dated(match: re.Match[str]) -> str:
        month = MONTH_NUMBERS[(match["m1"] or match["m2"]).lower()]
        day, year = int(match["d1"] or match["d2"]), int(match["y"])
        calendar = glossary.fiscal_calendar
        if match["ended"]:
            closed = None if year_name_unsure(calendar, year, month, day) else named_fiscal_year(calendar, year)
        else:
            closed = fiscal_year_closed_on(calendar, year, month, day)
        text = match.group()
        if closed is None:
            return text
        word = f"FY{closed}"
        return word + " " * (len(text) - len(word)) if len(word) <= len(text) else text

    return DATE.sub(dated, question)


def date_inside_a_year(question: str, glossary: Glossary) -> str | None:
    """The first date in ``question`` that closes no fiscal year of the glossary ("as of June 30, 2024" for a
    December year, 2024年6月30日), as written; None when every date it names closes one (or it names none).

    A "year ended …" date is the year it ends, never such a date.
    """
    calendar = glossary.fiscal_calendar
    if may_name_a_date(question.lower()):
        for match in DATE.finditer(question):
            month = MONTH_NUMBERS[(match["m1"] or match["m2"]).lower()]
            day, year = int(match["d1"] or match["d2"]), int(match["y"])
            if not match["ended"] and fiscal_year_closed_on(calendar, year, month, day) is None:
                return match.group().strip()
    if "年" in question:
        for match in _CJK_DATE.finditer(question):
            year, month = int(match["y"]), int(match["m"])
            if not 1 <= month <= 12:
                continue
            day = monthrange(year, month)[1] if match["end"] else int(match["d"])
            if fiscal_year_closed_on(calendar, year, month, day) is None:
                return match.group()
    return None
