"""A date the row's own table heads its period with ("as at September 30, 2019"), read as that year.

``dated_periods`` reads a date at the glossary's fiscal year end as the year it closes; any other
date names no fiscal year of the glossary and is asked back. A table may head its periods with
its own closing date, though ("September 30, 2019" over a December glossary, "Outstanding at
September 30, 2019"): the figure filed under FY2019 is the one at that date. A question naming
that same date (month, day and year) for that row is read as ``FY<year>``, only where a fact of
a metric the question names is filed under that year with a locator stating the date, and the
question names no year apart from its dates (which period a year beside a date means, the
question does not say). A date written once before a list of bare years ("October 31, 2019 and
2018", "October 31, 2019, 2018 and 2017") is that date of each, as a table heads its columns; it
is read only where the row's table states the date for every year listed. Any other date stays as
written, and is asked back: a period is never guessed.

A roll-forward's movements ("Granted", "Vested") stand between its balance rows ("Nonvested at
December 31, 2018", "Nonvested at December 31, 2019"), each the movement of the year the later balance
closes (``ingestion/table_roll_forward.py``). A movement asked "between" (or "from … to") two of
those balance dates is the movement of the years between them, never of the first date's year too:
"granted between December 31, 2018 and December 31, 2019" is 2019's grants. Read so only where every
row the question names is such a movement of one table, both dates head its balance rows, and the
table states the movement for every year between them; a balance asked between the dates stays the
two balances.
"""

from __future__ import annotations

import re

from ragspine.citation import table_of
from ragspine.facts.glossary import Glossary, normalize_text
from ragspine.facts.model import Fact
from ragspine.facts.ports import FactStore
from ragspine.lazy import LazyPattern
from ragspine.qa.dated_periods import DATE, MONTH_NUMBERS, YEAR, may_name_a_date, rewrite_dates
from ragspine.qa.slots import parse_slots
from ragspine.sensitivity import Sensitivity

_MONTHS = "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True))
# A date as a locator keeps it ("September 30 2019", "30 June 2019", "Sept. 30, 2019"), month by its spelling.
_LOCATED = LazyPattern(rf"(?<![a-z])(?:(?P<m1>{_MONTHS})\.?\s*(?P<d1>\d{{1,2}})(?!\d)|(?<!\d)(?P<d2>\d{{1,2}})\s+"
                      rf"(?P<m2>{_MONTHS})(?![a-z]))", re.IGNORECASE)


# The bare years listed right after a date, which share its month and day: ", 2018", " and 2018", ", 2018 and 2017".
_LISTED_YEARS = LazyPattern(r"(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)(?:19|20)\d{2}(?!\d))+", re.IGNORECASE)


def _without(question: str, spans: list[tuple[int, int]]) -> str:
    """The question with ``spans`` (its dates and the years listed after them) blanked: the years it names apart."""
    for start, end in sorted(spans, reverse=True):
        question = question[:start] + " " * (end - start) + question[end:]
    return question


def _listed_years(question: str, date: re.Match[str]) -> tuple[list[int], int]:
    """The bare years listed right after ``date`` ("October 31, 2019 and 2018": [2018]) and where the list ends."""
    listed = _LISTED_YEARS.match(question, date.end())
    if listed is None:
        return [], date.end()
    return [int(year) for year in YEAR.findall(listed.group())], listed.end()


def writes_no_date(question: str) -> bool:
    """True when ``with_table_dates_read`` has no date to read in ``question``, whatever the facts: it returns
    the question as it is (most questions name no month beside a day)."""
    return not may_name_a_date(normalize_text(question))


def with_table_dates_read(question: str, *, facts: FactStore, glossary: Glossary,
                          max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL) -> str:
    """``question`` with each date a named row's table heads its period with replaced by ``FY<year>`` (same length)."""
    if writes_no_date(question):
        return question  # nothing to read
    question = _movements_between_balance_dates(question, facts, glossary, max_sensitivity)
    dates = list(DATE.finditer(question))
    unread = [m for m in dates if not m["ended"] and rewrite_dates(m.group(), glossary) == m.group()]
    listed = {m.start(): _listed_years(question, m) for m in unread}
    spans = [(m.start(), listed[m.start()][1] if m.start() in listed else m.end()) for m in dates]
    if not unread or YEAR.search(_without(question, spans)):
        return question  # a year named beside the date ("granted between 2017 and 2018 over … at September 30, 2017")
    parsed = parse_slots(question, glossary=glossary)
    entities = parsed.entities or (glossary.home_entity,)
    stated: set[tuple[int, int, int]] = set()  # (year, month, day) of a period heading of a row the question names
    for metric in parsed.metrics:
        for entity in entities:
            for fact in facts.find(metric_code=metric, entity=entity):
                if fact.period_type != "FY" or fact.sensitivity > max_sensitivity:
                    continue
                for located in _LOCATED.finditer(fact.source_locator):
                    month = MONTH_NUMBERS[(located["m1"] or located["m2"]).lower()]
                    stated.add((int(fact.period), month, int(located["d1"] or located["d2"])))
    text = question
    for match in reversed(unread):
        month = MONTH_NUMBERS[(match["m1"] or match["m2"]).lower()]
        day, year = int(match["d1"] or match["d2"]), int(match["y"])
        word = f"FY{year}"
        every = [year, *listed[match.start()][0]]  # the years listed after it are dated by it too
        if all((each, month, day) in stated for each in every) and len(word) <= len(match.group()):
            text = text[:match.start()] + word.ljust(len(match.group())) + text[match.end():]
    return text


# "between December 31, 2018 and December 31, 2019", "from … to …": a span bounded by two dates.
_SPAN_OPENS = LazyPattern(r"(?:between|from)\s+$", re.IGNORECASE)
_SPAN_JOINS = LazyPattern(r"\s*(?:and|to|through|-|–)\s*", re.IGNORECASE)


def _movements_between_balance_dates(question: str, facts: FactStore, glossary: Glossary,
                                     max_sensitivity: Sensitivity) -> str:
    """``question`` with a span between two balance dates of a roll-forward written as the years of the
    movements it asks ("in FY2019", "between FY2018 and FY2019"), same length; else as it is."""
    dates = [m for m in DATE.finditer(question) if not m["ended"]]
    spans = [(first, last) for first, last in zip(dates, dates[1:], strict=False)
             if _SPAN_OPENS.search(question, 0, first.start()) and
             _SPAN_JOINS.fullmatch(question, first.end(), last.start())]
    if not spans:
        return question
    parsed = parse_slots(question, glossary=glossary)
    entity = parsed.entities[0] if len(parsed.entities) == 1 else glossary.home_entity
    if len(parsed.entities) > 1 or not parsed.metrics:
        return question
    movements = [[f for f in facts.find(metric_code=metric, entity=entity)
                  if f.period_type == "FY" and f.sensitivity <= max_sensitivity] for metric in parsed.metrics]
    tables = {(f.source_doc_id, table_of(f.source_locator)) for found in movements for f in found}
    if len(tables) != 1 or any(not found or any(_row_date(f) for f in found) for found in movements):
        return question  # a row of two tables, a row no movement (a balance dated by its label), or no figures
    balances = _balance_dates(tables.pop(), entity, facts, max_sensitivity)
    text = question
    for first, last in reversed(spans):
        start, end = balances.get(_day(first)), balances.get(_day(last))
        if start is None or end is None:
            continue
        years = set(range(start + 1, end + 1))
        if not years or not all(years <= {int(f.period) for f in found} for found in movements):
            continue
        if len(years) == 1:  # one year's movements: the whole span is that year
            opened = _SPAN_OPENS.search(question, 0, first.start())
            assert opened is not None
            text = text[:opened.start()] + f"in FY{end}".ljust(last.end() - opened.start()) + text[last.end():]
        else:
            text = (text[:first.start()] + f"FY{start + 1}".ljust(len(first.group())) + text[first.end():last.start()]
                    + f"FY{end}".ljust(len(last.group())) + text[last.end():])
    return text


def _row_date(fact: Fact) -> tuple[int, int, int] | None:
    """The date a fact's row label writes ("Nonvested at December 31 2019"), as (year, month, day); else None."""
    row = fact.source_locator.partition(",row=")[2].partition(",col=")[0]
    match = DATE.search(row)
    return None if match is None else _day(match)


def _day(match: re.Match[str]) -> tuple[int, int, int]:
    return int(match["y"]), MONTH_NUMBERS[(match["m1"] or match["m2"]).lower()], int(match["d1"] or match["d2"])


def _balance_dates(table: tuple[str, str], entity: str, facts: FactStore,
                   max_sensitivity: Sensitivity) -> dict[tuple[int, int, int], int]:
    """Each date a balance row of ``table`` writes, and the fiscal year it is filed under."""
    dated: dict[tuple[int, int, int], set[int]] = {}
    for code, owner in facts.open_codes():
        if owner != entity:
            continue
        for fact in facts.find(metric_code=code, entity=entity):
            in_table = (fact.source_doc_id, table_of(fact.source_locator)) == table
            day = _row_date(fact) if fact.period_type == "FY" and in_table else None
            if day is not None and fact.sensitivity <= max_sensitivity:
                dated.setdefault(day, set()).add(int(fact.period))
    return {day: years.pop() for day, years in dated.items() if len(years) == 1}
