"""Whether a table and the text around it state no period at all: its facts are then undated.

A fair-value table (``Weighted-Average Useful Lives | Fair Value Amount``), an aging schedule
(``Current | 0 to 30 days past due``) or a share-count table may say nowhere which period it is
of. Its figures are still the document's; they become facts with the period type ``UNDATED``
(``facts/model.py``), which no question naming a period reaches. A period the reader merely
failed to read is not "none": any year, month, quarter, week or fiscal-year word in a header,
a row label or the context keeps the table out (skipped), since reading such a table as
undated would give a dated figure without its date. The one exception is a date written once
over the whole table (``30 June 2019`` in its corner, ``As of February 28, 2019`` over every
column, or in its caption): that date is the table's period where it closes a fiscal year of
the glossary, and otherwise the table is undated (``lone_date``).

A schedule of payments by when they fall due (``Less than 1 year | 1-3 years | More than 5
years``, under "Payments due by period") writes "year" and "period" in its headers, yet states
no period its figures are of: such a due bucket is a span counted from the balance date, not a
fiscal year, so its words do not keep the table dated (``without_due_buckets``). A year written
as a column or row of a schedule (``2021``, ``2020 - 2024``) still does: the table stays skipped
rather than dated by a year its figures are not of.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date

from ragspine.facts.glossary import normalize_text

_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
_MONTH = re.compile(r"(?<![a-z])(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
                    r"|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?(?![a-z])")
# Words naming a period or a part of one: "year", "fiscal", "FY19", "F19", "Q3", "H1", "年度", "3月期", "上半期".
_PERIOD_WORD = re.compile(r"(?<![a-z])(?:years?|quarters?|quarterly|months?|weeks?|half|semi|fiscal"
                          r"|ytd|ltm|ttm|fy\s*\d*|f\d{2}|q[1-4]|h[12]|period|current\s+year|prior\s+year|to\s+date)"
                          r"(?![a-z])|年|月|期|季|半期|半年")
_FULL_DATE = re.compile(rf"(?:{_MONTH.pattern}\s+\d{{1,2}},?|\d{{1,2}}\s+{_MONTH.pattern},?)\s*(?:19|20)\d{{2}}(?!\d)")
_DATE_PARTS = re.compile(r"(?:(?P<m1>[a-z]+)\.?\s+(?P<d1>\d{1,2})|(?P<d2>\d{1,2})\s+(?P<m2>[a-z]+)\.?)"
                         r",?\s*(?P<y>\d{4})")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# A span counted from the balance date that a payment falls due in ("Less than 1 year", "1-3 years", "3 to 5
# years", "More than 5 years", "Up to one year", "Years 3-5"), and the heading over such spans ("Payments due by
# period"). A lone "Year 3" is no span: it may be a plan's or a schedule's year, and stays a period word.
_DUE_BUCKET = re.compile(
    r"(?<![a-z\d])(?:(?:less\s+than|up\s+to|within|under|more\s+than|over|after|beyond|greater\s+than)\s+)?"
    r"(?:\d{1,2}|one|two|three|four|five|ten)(?:\s*(?:-|–|—|to)\s*(?:\d{1,2}|three|five|ten))?\s+years?(?![a-z])"
    r"|(?<![a-z])years?\s*\d{1,2}\s*(?:-|–|—|to)\s*\d{1,2}(?![\d])"
    r"|(?<![a-z])(?:payments?|amounts?|obligations?)\s+due\s+(?:by|in)\s+periods?(?![a-z])")
_DUE_HEADING = re.compile(r"(?:payments?|amounts?|obligations?)\s+due\s+(?:by|in)\s+periods?")
# A unit note in parentheses ("(in years)") says how a figure is counted, not when it was.
_UNIT_NOTE = re.compile(r"[(（][^()（）]*[)）]")


def without_due_buckets(norm: str) -> str:
    """A normalised text without the due spans of a payment schedule ("less than 1 year", "payments due by period")."""
    return _DUE_BUCKET.sub(" ", norm)


def is_due_heading(norm: str) -> bool:
    """Whether a normalised header, its unit note aside, is the heading over a schedule's due spans."""
    return bool(_DUE_HEADING.fullmatch(" ".join(_UNIT_NOTE.sub(" ", norm).split())))


def names_a_period(text: str, besides: str = "") -> bool:
    """Whether a text writes a year, a month or a period word (read or not), ``besides`` (a date) aside.

    A schedule's due span ("1-3 years") is no period (``without_due_buckets``).
    """
    norm = without_due_buckets(normalize_text(text))
    if besides:
        norm = norm.replace(besides, " ")
    return bool(_YEAR.search(norm) or _MONTH.search(norm) or _PERIOD_WORD.search(_UNIT_NOTE.sub(" ", norm)))


def lone_date(texts: Iterable[str]) -> str:
    """The one whole date ("30 june 2019", normalised) the texts over and around a table write, else ""."""
    found = {m.group(0).strip(" ,") for text in texts if text for m in _FULL_DATE.finditer(normalize_text(text))}
    return found.pop() if len(found) == 1 else ""


def date_of(text: str) -> date | None:
    """The calendar date a ``lone_date`` names ("30 june 2019", "sept 30, 2019"), or None if there is no such day."""
    match = _DATE_PARTS.fullmatch(normalize_text(text).strip())
    if match is None:
        return None
    month = match["m1"] or match["m2"]
    day = match["d1"] or match["d2"]
    try:
        return date(int(match["y"]), _MONTHS.index(month[:3]) + 1, int(day))
    except ValueError:  # "February 30": no date at all
        return None


def states_no_period(headers: Iterable[str], labels: Iterable[str], context: Iterable[str], *,
                     besides: str = "") -> bool:
    """Whether no header, row label or context text (caption, headings, lead, title) names a period but ``besides``."""
    return not any(names_a_period(text, besides) for group in (headers, labels, context) for text in group if text)
