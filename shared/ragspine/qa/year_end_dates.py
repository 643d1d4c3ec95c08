"""A cited column dated by a January or February year end: the year it was read as, said in the answer.

A retailer's year ending ``February 1, 2019`` is fiscal 2018 in some reports and 2019 in others.
The table reader files such a column under the year its date writes unless the text around the
table names such years by their start (``ingestion/table_stated_years``). That reading is an
assumption wherever the report does not say which it is, so an answer citing such a column states
it ("the year ended February 1 2019 read as FY2019, the year its end falls in") beside the other
assumptions, never silently. The locator keeps the header as written: a locator naming one such
date and no other year is the column read this way; one marked with the report's own name for it
("February 1 2019 (fiscal 2019)", where the text says "fiscal 2019 ended February 1, 2019") is in no doubt.

A year the question names may be read the other way, though: "2019" as the year ending in
January 2020. Where the cited row has a column for every year named read that way too, both
readings find figures and the question is asked back with both; where the other reading lacks a
column ("2020" of a table whose latest year ends in February 2020), it cannot be what was meant.
A year the question writes as its end date ("the year ended February 1, 2020") is in no doubt.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.fiscal_dates import year_name_unsure
from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.facts.model import UNDATED
from ragspine.facts.ports import FactStore
from ragspine.lazy import LazyModule, LazyPattern
from ragspine.qa.dated_periods import DATE, MONTH_NUMBERS, YEAR
from ragspine.qa.language import Lang, detect_language
from ragspine.qa.render import YEAR_END_DATE, render_assumptions
from ragspine.qa.result import AnswerResult, AnswerStatus, Route
from ragspine.qa.slots import Assumption
from ragspine.sensitivity import Sensitivity

if TYPE_CHECKING:
    from ragspine.qa import clarification
else:  # only a question asked back loads it
    clarification = LazyModule("ragspine.qa.clarification")

_NAMED = LazyPattern(r"\(fiscal (?:19|20)\d{2}\)")  # the table reader's mark of a year the report names
_READ = "a January or February year end, read as the calendar year it ends in"


def year_end_readings(locators: Iterable[str], calendar: FiscalCalendar) -> tuple[Assumption, ...]:
    """One assumption per January or February year-end date the locators cite as a year of their own."""
    readings: dict[str, Assumption] = {}
    for locator in locators:
        if not _may_name_year_end(locator):
            continue  # most locators name no such month: the date pattern is not run over them
        dates = list(DATE.finditer(locator))
        if len(dates) != 1 or dates[0]["ended"]:
            continue
        match = dates[0]
        year, month, day = _day(match)
        if (set(YEAR.findall(locator)) != {match["y"]} or not year_name_unsure(calendar, year, month, day)
                or _NAMED.search(locator)):
            continue  # another year beside the date, or the report's own name for it ("(fiscal 2019)"): no doubt
        written = " ".join(match.group().split())
        readings.setdefault(written, Assumption(SlotKind.PERIOD, f"FY{year}", _READ, YEAR_END_DATE, written))
    return tuple(sorted(readings.values(), key=lambda a: (a.value, a.typed or "")))


def _may_name_year_end(locator: str) -> bool:
    """Whether ``locator`` may write a January or February date (its month's first three letters, any case)."""
    low = locator.lower()
    return "jan" in low or "feb" in low


def with_year_ends_said(result: AnswerResult, question: str, *, facts: FactStore, glossary: Glossary,
                        lang: Lang | None = None,
                        max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL) -> AnswerResult:
    """``result`` with a sentence saying which year each cited January or February year end was read as, or
    the question asked back when each year it names could be either of two columns of the cited rows.

    ``lang``: the language to say it in; None reads the question's, only when there is something to say.
    """
    # only a locator naming January or February can be read so: most answers cite none, and neither the
    # question's dates nor the figures' periods are read for them (the route, an enum's member, read only then)
    locators = []
    for source in result.sources:  # a loop, not a comprehension calling ``_may_name_year_end``: every answer passes
        locator = source.get("locator", "")
        low = locator.lower()
        if "jan" in low or "feb" in low:  # ``_may_name_year_end``
            locators.append(locator)
    if not locators or result.route is Route.NARRATIVE:
        return result
    # a figure of no period (a column of a date of its own) was read as no year: no year end to say
    undated = {r.fact.source_locator for r in result.results if r.fact is not None and r.fact.period_type == UNDATED}
    written = {_day(match) for match in DATE.finditer(question)}
    readings = tuple(reading for reading in year_end_readings([loc for loc in locators if loc not in undated],
                                                              glossary.fiscal_calendar)
                     if _day_written(reading.typed or "") not in written)  # a date the question writes: no doubt
    if not readings:
        return result
    ends = _year_ends_of_cited_rows(result, facts, glossary, max_sensitivity)
    said_in = lang if lang is not None else detect_language(question)
    named = sorted({int(year) for year in YEAR.findall(DATE.sub(" ", question))})
    if named and all(year in ends and year + 1 in ends for year in named):
        return _asked_back(result, question, named, ends, said_in)
    answer = f"{result.answer}\n{render_assumptions(readings, glossary, said_in)}"
    slots = replace(result.slots, assumptions=(*result.slots.assumptions, *readings))
    return replace(result, answer=answer, slots=slots, trace=_decided(result.trace, "period:year_end_read_as_written"))


def _day(match: re.Match[str]) -> tuple[int, int, int]:
    """A date pattern match as (year, month, day)."""
    return (int(match["y"]), MONTH_NUMBERS[(match["m1"] or match["m2"]).lower()], int(match["d1"] or match["d2"]))


def _day_written(text: str) -> tuple[int, int, int] | None:
    match = DATE.search(text)
    return None if match is None else _day(match)


def _decided(trace: dict[str, object], decision: str, **changed: object) -> dict[str, object]:
    """The answer's trace with this decision added (and the fields it changes)."""
    decisions = trace.get("decisions")
    listed = [*decisions, decision] if isinstance(decisions, list) else [decision]
    return {**trace, **changed, "decisions": listed} if trace else trace


def _year_ends_of_cited_rows(result: AnswerResult, facts: FactStore, glossary: Glossary,
                             max_sensitivity: Sensitivity) -> dict[int, str]:
    """Each January or February year-end date the cited rows' columns are headed by, by the year it writes."""
    cited = {(source.get("doc", ""), _row_of(source.get("locator", ""))) for source in result.sources}
    ends: dict[int, str] = {}
    for metric in result.slots.metrics:
        for entity in result.slots.entities or (glossary.home_entity,):
            for fact in facts.find(metric_code=metric, entity=entity):
                row = (fact.source_doc_id, _row_of(fact.source_locator))
                if fact.sensitivity > max_sensitivity or row not in cited:
                    continue
                for reading in year_end_readings((fact.source_locator,), glossary.fiscal_calendar):
                    ends[int(reading.value.removeprefix("FY"))] = reading.typed or ""
    return ends


def _row_of(locator: str) -> str:
    """The table and row a cell's locator names (``table=1,row=Net sales``), without its column."""
    return locator.split(",col=")[0]


_ASK = {
    Lang.EN: ("Which year do you mean? The report does not say whether it names a year ending in January or "
              "February by the year it ends in or the year it starts in. Choose one: {options}"),
    Lang.ZH: "您指的是哪一年？文件未说明截至1月或2月的会计年度按结束年份还是开始年份命名。请选择：{options}",
    Lang.JA: "どの年度のことですか？資料は1月または2月に終わる年度を終了年と開始年のどちらで呼ぶかを示していません。"
             "次から選んでください：{options}",
}
_OR = {Lang.EN: ", or ", Lang.ZH: "；或", Lang.JA: "；または"}
_AS = {Lang.EN: "{year} as the year ended {date}", Lang.ZH: "{year}年即截至 {date} 的年度",
       Lang.JA: "{year}年を {date} に終了した年度として"}


def _asked_back(result: AnswerResult, question: str, named: list[int], ends: dict[int, str],
                lang: Lang) -> AnswerResult:
    """The question asked back: each year named as the year ending in it, or as the one starting in it."""
    options = []
    for shift in (0, 1):  # read by the year its end falls in, then by the year it starts in
        dated = {year: ends[year + shift] for year in named}
        label = ("; " if lang is Lang.EN else "，").join(_AS[lang].format(year=year, date=date)
                                                        for year, date in dated.items())
        asked = question
        for year, date in dated.items():
            asked = re.sub(rf"(?<!\d){year}(?!\d)(?:\s*年(?!度))?", f"the year ended {date}", asked)
        periods = ",".join(f"FY{year + shift}" for year in named)
        options.append(clarification.Option(label, asked, SlotKind.PERIOD.value, periods))
    listed = _OR[lang].join(o.label for o in options)
    ask = clarification.Clarification(_ASK[lang].format(options=listed), tuple(options))
    trace = _decided(result.trace, "clarify:year_end_reading", route=str(Route.CLARIFICATION),
                     status=str(AnswerStatus.NEEDS_CLARIFICATION), fact_ids=[])
    return replace(result, answer=ask.question, sources=(), route=Route.CLARIFICATION,
                   status=AnswerStatus.NEEDS_CLARIFICATION, results=(), clarification=ask, refinements=tuple(options),
                   trace=trace)
