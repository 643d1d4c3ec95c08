"""A year the documents hold no figures for, read as the 52/53-week year whose end date falls in it.

A 52/53-week year for a December calendar may end in the first week of January ("January 3,
2020"): the table reader files that column under the year it closes, FY2019
(``facts/fiscal_dates.fiscal_year_closed_on``). A question asking "2020" of such a table finds no
FY2020; the one column the documents date in 2020 is that year end. Where the cited rows have no
figure of the year named and a column dated in the week after the prior year's end, the question
is asked again with that date in place of the year, and the answer says how the year was read.
A question that also names the prior year is left as it is: both years would read the same column.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ragspine.facts.fiscal_dates import fiscal_year_closed_on
from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.facts.ports import FactStore
from ragspine.qa.dated_periods import DATE, MONTH_NUMBERS, YEAR
from ragspine.qa.result import AnswerResult, AnswerStatus, Route
from ragspine.qa.slots import Assumption
from ragspine.sensitivity import Sensitivity

# read once: on Python 3.11 a member read off its enum class goes through the metaclass's slow ``__getattr__`` hook,
# and every answer is checked here
_STRUCTURED, _NOT_FOUND_OR_PARTIAL = Route.STRUCTURED, (AnswerStatus.NOT_FOUND, AnswerStatus.PARTIAL)
_READ = "no figures of the year named; the one year end dated in it closes the year before (a 52/53-week year)"


def year_read_as_dated_end(result: AnswerResult, question: str, *, facts: FactStore, glossary: Glossary,
                           max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL,
                           ) -> tuple[str, Assumption] | None:
    """``question`` with its one year that has no figures replaced by the year-end date dated in it, and the
    assumption saying so; None when the answer found every figure or no such date reads the year."""
    if result.route is not _STRUCTURED or result.status not in _NOT_FOUND_OR_PARTIAL:
        return None
    named = {int(year) for year in YEAR.findall(DATE.sub(" ", question))}
    if not named or not result.slots.metrics:
        return None
    years: set[int] = set()
    ends: dict[int, set[str]] = {}
    calendar = glossary.fiscal_calendar
    for metric in result.slots.metrics:
        for entity in result.slots.entities or (glossary.home_entity,):
            for fact in facts.find(metric_code=metric, entity=entity):
                if fact.sensitivity > max_sensitivity or fact.period_type != "FY" or not fact.period.isdigit():
                    continue
                years.add(int(fact.period))
                dates = list(DATE.finditer(fact.source_locator.partition(",col=")[2]))
                if len(dates) != 1 or dates[0]["ended"]:
                    continue
                year, month, day = (int(dates[0]["y"]), MONTH_NUMBERS[(dates[0]["m1"] or dates[0]["m2"]).lower()],
                                    int(dates[0]["d1"] or dates[0]["d2"]))
                if year != int(fact.period) + 1:
                    continue
                if fiscal_year_closed_on(calendar, year, month, day) == year - 1:
                    ends.setdefault(year, set()).add(" ".join(dates[0].group().split()))
    unread = [year for year in named if year not in years]
    if len(unread) != 1:
        return None
    year = unread[0]
    dated = ends.get(year, set())
    if len(dated) != 1 or year - 1 in named:
        return None
    date = next(iter(dated))
    rewritten = re.sub(rf"(?<!\d){year}(?!\d)", date, question)
    return rewritten, Assumption(SlotKind.PERIOD, f"FY{year - 1} ({date})", _READ, typed=str(year))


def with_assumption(result: AnswerResult, assumption: Assumption, said: str) -> AnswerResult:
    """``result`` with ``assumption`` listed among its slots and ``said`` (its sentence) after the answer."""
    slots = replace(result.slots, assumptions=(*result.slots.assumptions, assumption))
    decisions = result.trace.get("decisions")
    listed = [*decisions, "period:year_read_as_dated_end"] if isinstance(decisions, list) else None
    trace = {**result.trace, "decisions": listed} if listed is not None else result.trace
    return replace(result, answer=f"{result.answer}\n{said}", slots=slots, trace=trace)
