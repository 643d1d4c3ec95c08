"""A balance asked at a date that a row of the table names: "the total investment in associates at 31 December 2019".

A movement table (a roll-forward) states its opening and closing balances as rows named by the
day they stand on ("At 1 January", "Balance at December 31") and the year in its columns
("2019", "2018"). A question naming the table's subject at such a date ("from 31 December 2018
to 31 December 2019") names the row by the day and month, and the column by the year; read as
written, the date is only a period and no row is named, so the question is asked back.

The question is read as naming that row in each year its dates fall in: each date is written as
its fiscal year and the row's name is put before the first. Only where the date is a fiscal
year's first or last day (the year is then the column's without doubt: "At 1 January" in the
2019 column is 1 January 2019), every date the question writes is that same day of the year,
exactly one row of the documents is named by it, and the question names no other row: neither by a name
the glossary knows nor by words most of which are another row's ("the dividends at 31 December 2019" asks the
row ``Dividends received``, whose year ends then, not the balance).
"""

from __future__ import annotations

import datetime as dt
import re
from calendar import monthrange

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.lazy import LazyPattern
from ragspine.qa.dated_periods import DATE, MONTH_NUMBERS, may_name_a_date
from ragspine.qa.label_words import ASKING_WORDS, label_words

_TOTAL_WORDS = frozenset({"total", "balance", "amount", "value"})  # ask the balance itself, name no row
_MONTH = "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True))
# "at 31 december", "balance at december 31", "balance as at 1 january", "as of december 31": a row's own item
_BALANCE_ROW = LazyPattern(
    rf"(?:(?:closing|opening)\s+)?(?:balances?,?\s+)?(?:at|as\s+at|as\s+of|on)\s+"
    rf"(?:(?P<m1>{_MONTH})\.?\s*(?P<d1>\d{{1,2}})|(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<m2>{_MONTH})\.?)")


def with_dated_balance_rows(question: str, glossary: Glossary) -> str:
    """The question with its dates written as fiscal years and the one row named by their day put before the first.

    ``question`` is in NFKC already (as ``parse_slots`` reads it). Returns it unchanged when the reading of
    this module's docstring does not hold.
    """
    if not question.isascii() or not may_name_a_date(question.lower()):
        return question
    dates = list(DATE.finditer(question))
    days = {_day_of(match) for match in dates}
    if len(days) != 1 or any(match["ended"] for match in dates):
        return question  # two days asked (two rows), or "the year ended" (a period, no balance)
    month, day = days.pop()
    rows = [code for code in glossary.terms[SlotKind.METRIC]
            if code.startswith(METRIC_PREFIX) and _row_day(code) == (month, day)]
    if len(rows) != 1:
        return question
    name = label_of(rows[0])
    if glossary.aliases.get(name, (None, ""))[1] != rows[0]:
        return question  # a row the question could not name back
    mentions = glossary.scan(question)
    if any(m.kind is SlotKind.METRIC and m.code != rows[0] for m in mentions):
        return question  # another row named: the date is its period, not this row
    if _names_another_row(glossary.leftover(question, mentions), rows[0], glossary):
        return question
    years = [_fiscal_year(glossary.fiscal_calendar, int(match["y"]), month, day) for match in dates]
    if any(year is None for year in years):
        return question
    out: list[str] = []
    at = 0
    for match, year in zip(dates, years, strict=True):
        out += [question[at:match.start()], f"{name} " if not out else "", f"FY{year}"]
        at = match.end()
    return "".join([*out, question[at:]])


def _names_another_row(leftover: str, row: str, glossary: Glossary) -> bool:
    """Whether more than half of the words beside the date are words of one other row of the documents."""
    words = label_words(DATE.sub(" ", leftover)) - ASKING_WORDS - _TOTAL_WORDS
    if not words:
        return False
    return any(2 * len(words & label_words(label_of(code))) > len(words)
               for code in glossary.terms[SlotKind.METRIC] if code.startswith(METRIC_PREFIX) and code != row)


def _day_of(match: re.Match[str]) -> tuple[int, int]:
    return MONTH_NUMBERS[(match["m1"] or match["m2"]).lower()], int(match["d1"] or match["d2"])


def _row_day(code: str) -> tuple[int, int] | None:
    """The month and day a balance row is named by ("at 31 december": (12, 31)), else None."""
    found = _BALANCE_ROW.fullmatch(label_of(code).rpartition(": ")[2])
    if found is None:
        return None
    return MONTH_NUMBERS[(found["m1"] or found["m2"]).lower().rstrip(".")], int(found["d1"] or found["d2"])


def _fiscal_year(calendar: FiscalCalendar, year: int, month: int, day: int) -> int | None:
    """The fiscal year a date opens or closes (its first or last day exactly), else None."""
    try:
        when = dt.date(year, month, day)
    except ValueError:
        return None
    closes = month == calendar.end_month and day == monthrange(year, month)[1]
    opens = month == calendar.end_month % 12 + 1 and day == 1
    return calendar.fiscal_year_of(when) if closes or opens else None
