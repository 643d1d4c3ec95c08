"""Columns dated by a year the glossary's calendar does not close: the year the document writes, if nothing else fits.

A balance date inside the glossary's fiscal year (``30 June 2019`` for a December year), a
date in another company's calendar (``April 26, 2019 | April 27, 2018``) and a split year
(``2017/2018 | 2018/2019``) name no fiscal year of the glossary, so ``table_axes`` reads them
as no period. Side by side they still state which year each column is: such a column's
period is the year it writes (a split year: the year it ends in, named the glossary's way), and its
locator keeps the header as written. This holds only where the table leaves no doubt:

* two or more columns are dated this way, by different dates of the same time of year (a
  52/53-week year's dates may drift by a week) or by consecutive split years;
* each year is written by one column only: ``As of August 1, 2019 | As of October 15, 2019``
  could both be "2019", and so could ``August 31, 2019`` written over two columns: no period;
  columns headed by different kinds of figure are told apart by them (``Net additions (losses)``
  over ``August 31, 2019 | August 31, 2018`` beside a balance under ``August 31, 2019`` alone), so
  the rule holds among the columns of one kind, each kind of two columns or more; the balance,
  a kind of one column, stays undated;
* no column of the table has a period read the glossary's way (the two readings never mix);
* no header over them names a part of a year (``Three months ended``, ``Six months ended``);
* a year ending in January or February (a retailer's ``February 1, 2019``) is fiscal 2018 in some
  reports and 2019 in others: such columns are the year their dates write unless the text around
  the table names such a year by its start ("fiscal 2018 ended February 2, 2019"), when they give
  no period. Where the text names it by its end ("fiscal 2019 ended February 1, 2019") the year
  written is the report's own, and the column's locator says so (``February 1 2019 (fiscal 2019)``);
  where it says neither, it is the reader's assumption, and an answer citing such a column says so
  (``qa/year_end_dates``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.fiscal_dates import CLOSING_WEEK_DAYS, MONTH_NUMBERS, MONTH_PATTERN, named_fiscal_year
from ragspine.facts.glossary import Period, normalize_text
from ragspine.ingestion.table_axes import part_of_year

# A header that is one date, "As of/at" or "At" one date, or the balance on one date (a roll-forward's opening and
# closing columns), and nothing else but a note mark or the colon of a row dating the rows below it: "30 June 2019",
# "As of August 1, 2019", "At April 26, 2019", "June 30, 2019:", "Balances, January 31, 2019".
_ONE_DATE = re.compile(rf"^(?:balances?\s*,?\s*)?(?:(?:as\s+)?(?:of|at)\s+)?"
                       rf"(?:(?P<m1>{MONTH_PATTERN})\s+(?P<d1>\d{{1,2}}),?|(?P<d2>\d{{1,2}})\s+"
                       rf"(?P<m2>{MONTH_PATTERN}),?)\s*(?P<y>(?:19|20)\d{{2}})\s*(?:\(\d\))?\s*[:：]?$")
# "fiscal 2018 ended February 2, 2019" (named by its start), "fiscal 2019 ended February 1, 2019" (by its end).
_FISCAL_YEAR_ENDED = re.compile(r"fiscal\s+(?:year\s+)?(?P<named>(?:19|20)\d{2})\b[^.;]{0,80}?\b(?:jan|feb)[a-z]*\.?"
                             r"\s+\d{1,2},?\s+(?P<ends>(?:19|20)\d{2})")
# A split year: "2017/2018", "2018/19".
_SPLIT_YEAR = re.compile(r"^(?P<a>(?:19|20)\d{2})\s*/\s*(?P<b>(?:19|20)?\d{2})$")


def stated_date(text: str) -> dt.date | None:
    """The date a header is, alone or after "As of"; None for anything else."""
    match = _ONE_DATE.match(normalize_text(text).strip())
    if match is None:
        return None
    try:
        month = MONTH_NUMBERS[(match["m1"] or match["m2"])[:3]]
        return dt.date(int(match["y"]), month, int(match["d1"] or match["d2"]))
    except ValueError:
        return None


def split_year_end(text: str) -> int | None:
    """The year a split year ends in (``2017/2018`` and ``2017/18`` end in 2018); None unless consecutive."""
    match = _SPLIT_YEAR.match(normalize_text(text).strip())
    if match is None:
        return None
    start, end = int(match["a"]), match["b"]
    end_year = int(end) if len(end) == 4 else start // 100 * 100 + int(end)
    return end_year if end_year == start + 1 else None


def is_stated_period(text: str) -> bool:
    """Whether a header is a date or a split year (the header ``stated_years`` dates its column by)."""
    return stated_date(text) is not None or split_year_end(text) is not None


def _same_time_of_year(dates: Sequence[dt.date]) -> bool:
    """Whether every date falls within a week of the first's day of the year (52/53-week years drift)."""
    first = dates[0]
    for other in dates[1:]:
        moved = other.replace(year=first.year) if not (other.month == 2 and other.day == 29) else None
        if moved is None or abs((moved - first).days) > CLOSING_WEEK_DAYS:
            return False
    return True


def year_ends_named_by_end(headers: Sequence[str], around: Sequence[str]) -> bool:
    """Whether a column dated by a January or February year end is one the text around names by its end's year
    ("fiscal 2019 ended February 1, 2019"), and never by its start's: the year it writes is the report's own."""
    if not any(day is not None and day.month in (1, 2) for day in map(stated_date, headers)):
        return False
    gaps = {int(m["ends"]) - int(m["named"])
            for text in around for m in _FISCAL_YEAR_ENDED.finditer(normalize_text(text))}
    return gaps == {0}


def named_by_start(texts: Sequence[str]) -> bool:
    """Whether the texts name a year ending in January or February by its start's year, ever."""
    return any(int(m["ends"]) != int(m["named"])
               for text in texts for m in _FISCAL_YEAR_ENDED.finditer(normalize_text(text)))


def stated_years(headers: Mapping[int, Sequence[str]], calendar: FiscalCalendar,
                 around: Sequence[str] = (), kinds: Mapping[int, Sequence[str]] | None = None) -> dict[int, Period]:
    """The period each column's header writes, by the rules of the module docstring; empty when in doubt.

    ``headers`` holds the header texts of the value columns that have no period read the
    glossary's way; the caller passes nothing when any column has one. ``around`` is the text
    around the table (its headings, caption, lead, the text after it), read for how it names years.
    ``kinds`` holds, of those texts, the ones that may name a kind of figure (by default all).
    """
    dated: dict[int, dt.date] = {}
    split: dict[int, int] = {}
    told: dict[int, tuple[str, ...]] = {}
    if any(part_of_year(normalize_text(text)) for texts in headers.values() for text in texts):
        return {}  # "Three months ended" over the dates: a quarter's end recurs one year apart too
    for column, texts in headers.items():
        dates = {d for d in map(stated_date, texts) if d is not None}
        ends = {y for y in map(split_year_end, texts) if y is not None}
        if len(dates) + len(ends) > 1:
            return {}  # one column written with two dates: which one it states is not known
        if dates:
            dated[column] = dates.pop()
        elif ends:
            split[column] = ends.pop()
        told[column] = _kind_of(texts if kinds is None else kinds.get(column, ()))
    if dated and split:
        return {}
    if split:
        return _one_column_set(split, {c: named_fiscal_year(calendar, end) for c, end in split.items()}, told)
    distinct = sorted(set(dated.values()))
    if not distinct or (any(d.month in (1, 2) for d in distinct) and named_by_start(around)):
        return {}
    if not _same_time_of_year(distinct):
        return {}
    return _one_column_set(dated, {c: d.year for c, d in dated.items()}, told)


def _kind_of(texts: Sequence[str]) -> tuple[str, ...]:
    """A column's headers other than its date or split year: the kind of figure it states, if any."""
    return tuple(t for t in (" ".join(normalize_text(text).split()) for text in texts)
                 if t and not is_stated_period(t))


def _one_column_set(written: Mapping[int, object], years: Mapping[int, int],
                    kinds: Mapping[int, tuple[str, ...]]) -> dict[int, Period]:
    """Each column's year, when two or more columns are written differently, each a different year.

    A writing heading two columns (``August 31, 2019`` over a balance and over "Net additions")
    leaves "2019" two columns: no period, unless the columns are told apart by their kinds
    (``Net additions (losses)`` over ``August 31, 2019 | August 31, 2018``). Then among the
    columns of one kind a writing heads one column only, and each column keeps the year it
    writes; a kind with one column (the balance beside them) is not dated: its date is read
    alone, and its row's plain label would answer a question naming the other kind's words.
    """
    writings = {written[c]: years[c] for c in written}
    if len(writings) < 2 or len(set(writings.values())) != len(writings):
        return {}
    if len(writings) == len(written):
        return {c: Period.fiscal_year(year) for c, year in years.items()}
    by_kind: dict[tuple[str, ...], list[object]] = {}
    for c in written:
        by_kind.setdefault(kinds[c], []).append(written[c])
    if any(len(set(texts)) != len(texts) for texts in by_kind.values()):
        return {}  # one writing heads two columns of one kind: which is the year's figure is not known
    return {c: Period.fiscal_year(years[c]) for c in written if len(by_kind[kinds[c]]) > 1}
