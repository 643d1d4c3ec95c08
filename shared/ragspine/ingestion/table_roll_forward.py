"""A roll-forward's rows dated by its balance rows: movements belong to the year that closes them.

Stock-option, goodwill and reserve tables list a balance, the year's movements and the next
balance down the label column, the dates in the balance rows' own labels::

    Non-vested at December 31, 2018   1,187,586
    Granted                             473,550
    Vested                             (365,223)
    Non-vested at December 31, 2019   1,283,281

Each balance row is its date's year under the words before the date (``Non-vested``); each
row between two balance rows is a movement of the year the second one closes (``Granted`` in
2019). Only without doubt: two or more balance rows, their dates one year apart in ascending
order at the same time of year (a 52/53-week year may drift by a week), each year named the
glossary's way for every date (a date closing its fiscal year) or, for dates the glossary
does not close, by the year written (never a January or February date, whose year's name is
in doubt). Rows above the first balance or below the last are left as they are.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.fiscal_dates import CLOSING_WEEK_DAYS, fiscal_year_closed_on
from ragspine.facts.glossary import Period
from ragspine.ingestion.table_stated_years import stated_date

# "Non-vested at December 31, 2018", "Balance, December 31, 2019", "Outstanding as of September 30, 2017".
_BALANCE = re.compile(r"^(?P<words>[^\d]*?[^\W\d_][^\d]*?)[\s,:]*(?:\b(?:at|as\s+of|as\s+at|on)\b\s*)?"
                      r"(?P<date>(?:[A-Za-z]+\.?\s+\d{1,2},?|\d{1,2}\s+[A-Za-z]+\.?,?)\s*(?:19|20)\d{2})\s*$",
                      re.IGNORECASE)


def balance_row(label: str) -> tuple[str, dt.date] | None:
    """The words and the date of a balance row's label (``Non-vested at December 31, 2018``), else None."""
    match = _BALANCE.match(label.strip())
    if match is None:
        return None
    day = stated_date(match["date"])
    words = match["words"].strip(" ,:")
    return (words, day) if day is not None and words else None


def _one_balance(rows: list[tuple[int, tuple[str, dt.date]]]) -> list[tuple[int, tuple[str, dt.date]]]:
    """The dated rows of the one balance the table rolls forward: the words most rows repeat.

    A movement can carry a date too (``Reassignment on October 1, 2017`` between ``Net balances at
    September 30, 2017`` and ``… 2018``): rows of words written once are movements, not balances.
    Where two names repeat equally often the balance is in doubt and nothing is returned.
    """
    by_words: dict[str, list[tuple[int, tuple[str, dt.date]]]] = {}
    for row in rows:
        by_words.setdefault(" ".join(row[1][0].lower().split()), []).append(row)
    if len(by_words) <= 1:
        return rows
    sizes = sorted((len(group) for group in by_words.values()), reverse=True)
    if sizes[0] < 2 or sizes[0] == sizes[1]:
        return []
    return max(by_words.values(), key=len)


def _years(dates: Sequence[dt.date], calendar: FiscalCalendar) -> list[int] | None:
    """Each balance date's year: all closing the glossary's year, or all inside it and written (not Jan/Feb)."""
    closed = [fiscal_year_closed_on(calendar, d.year, d.month, d.day) for d in dates]
    if all(year is not None for year in closed):
        return [year for year in closed if year is not None]
    if any(year is not None for year in closed) or any(d.month in (1, 2) for d in dates):
        return None
    return [d.year for d in dates]


def _one_year_apart(earlier: dt.date, later: dt.date) -> bool:
    if earlier.month == 2 and earlier.day == 29:
        return False
    return abs((later - earlier.replace(year=earlier.year + 1)).days) <= CLOSING_WEEK_DAYS


def roll_forward(labels: Sequence[tuple[int, str]], calendar: FiscalCalendar) -> dict[int, tuple[Period, str | None]]:
    """Each dated row's period and, for a balance row, its label without the date (None: keep the label).

    ``labels`` holds the body rows in order, each with its label; empty when the rows are no
    roll-forward by the rules of the module docstring.
    """
    balances = _one_balance([(position, found) for position, (_, label) in enumerate(labels)
                             if (found := balance_row(label)) is not None])
    if len(balances) < 2:
        return {}
    dates = [day for _, (_, day) in balances]
    if not all(_one_year_apart(a, b) for a, b in zip(dates, dates[1:], strict=False)):
        return {}
    years = _years(dates, calendar)
    if years is None:
        return {}
    dated: dict[int, tuple[Period, str | None]] = {}
    previous = None
    for (position, (words, _)), year in zip(balances, years, strict=True):
        period = Period.fiscal_year(year)
        if previous is not None:
            for between in range(previous + 1, position):
                dated[labels[between][0]] = (period, None)
        dated[labels[position][0]] = (period, words)
        previous = position
    return dated
