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
"""

from __future__ import annotations

import re

from ragspine.facts.glossary import Glossary, normalize_text
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
