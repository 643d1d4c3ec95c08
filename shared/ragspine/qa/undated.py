"""Undated facts (a table stating no period) as a question reaches them: only one naming no period.

A question naming a period ("in 2019", "as of December 31, 2019", "last year") is never answered
with an undated fact: the document does not say the figure is of that period. A question naming
none is looked up first under the year assumed for it; a figure found there for no year is then
given, and the answer says the document states no period for it (the assumed year is not
listed, since it was not used); where its table states one date that ends no fiscal year, the
answer gives that date instead (carried on the fact's locator at ingestion, ``facts/model.py``).
Undated facts are never summed, ranked or put into a derived figure: a question that computes
anything is left as it is, except two rows of one undated table compared (``qa/undated_rows.py``)
and "the total B" with no period named: its one word "total" sums no periods, it names the figure a
table states as the row's total, read undated only from a column headed ``Total`` (a schedule's),
and never for a question naming a due span ("due within 5 years"), whose total the column is not.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from types import MappingProxyType

from ragspine.facts.glossary import Glossary, Period, SlotKind
from ragspine.facts.model import Fact, stated_date
from ragspine.facts.ports import FactStore
from ragspine.facts.query_metric import QueryStatus, run_query
from ragspine.lazy import LazyPattern
from ragspine.qa.arithmetic_cues import NO_ARITHMETIC, Arithmetic
from ragspine.qa.due_years import due_span
from ragspine.qa.language import Lang
from ragspine.qa.render import describe, render_result
from ragspine.qa.slots import Slots
from ragspine.qa.structured import StructuredOutcome, with_results
from ragspine.sensitivity import Sensitivity

_NOTICE = MappingProxyType({
    Lang.ZH: "（文件未注明该数值所属的期间。）",
    Lang.EN: " (the document states no period for this figure)",
    Lang.JA: "（資料にはこの数値の対象期間が記載されていません。）",
})
_DATED_NOTICE = MappingProxyType({
    Lang.ZH: "（文件注明该数值的日期为{date}，该日期并非财政年度末。）",
    Lang.EN: " (the document dates this figure {date}, which is not a fiscal year end)",
    Lang.JA: "（資料はこの数値の日付を{date}としていますが、決算期末ではありません。）",
})
_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")
_SPACES = LazyPattern(r"  +")
_TOTAL_COLUMN = LazyPattern(r"(?:^|,)col=(?:[^,]*/)?\s*total\s*$", flags=re.IGNORECASE)


def _written(day: date, lang: Lang) -> str:
    """A date as the answer's language writes it: September 30, 2019 / 2019年9月30日."""
    if lang is Lang.EN:
        return f"{_MONTH_NAMES[day.month - 1]} {day.day}, {day.year}"
    return f"{day.year}年{day.month}月{day.day}日"


def undated_notice(fact: Fact, lang: Lang) -> str:
    """What the answer says of an undated figure's period: the date its table states, or that it states none."""
    day = stated_date(fact)
    return _NOTICE[lang] if day is None else _DATED_NOTICE[lang].format(date=_written(day, lang))


def names_no_period(parsed_periods: tuple[Period, ...], slots: Slots) -> bool:
    """Whether the question named no period at all (its one period is the default year, assumed)."""
    return (not parsed_periods and len(slots.periods) == 1
            and any(a.slot is SlotKind.PERIOD and not a.cue for a in slots.assumptions))


def names_a_stated_total(arithmetic: Arithmetic) -> bool:
    """Whether a question's only arithmetic is the one word "total" ("What is the total capital leases?")."""
    return (arithmetic.period_sum == arithmetic.sum_words == 1
            and replace(arithmetic, period_sum=0, sum_words=0, places=None) == NO_ARITHMETIC)


def reads_stated_totals(outcome: StructuredOutcome, text: str) -> bool:
    """Whether every undated figure of ``outcome`` is from a column headed ``Total`` and ``text`` names no due span."""
    undated = [r.fact for r in outcome.results
               if r.fact is not None and Period(r.fact.period_type, r.fact.period).undated]
    return due_span(text) is None and all(
        _TOTAL_COLUMN.search(fact.source_locator) is not None for fact in undated)


def notice_dates(fact: Fact) -> tuple[str, ...]:
    """The date an undated figure's notice writes, as each language writes it (the provenance check's figures):
    the fact's own lineage states it, so its numbers are no claim of the answer's."""
    day = stated_date(fact)
    return () if day is None else tuple(_written(day, lang) for lang in Lang)


def with_undated(outcome: StructuredOutcome, slots: Slots, *, facts: FactStore, glossary: Glossary,
                 lang: Lang, max_sensitivity: Sensitivity) -> tuple[StructuredOutcome, Slots]:
    """``outcome`` with each figure not found under the assumed year found undated, and the slots without that year.

    Call only for a question that named no period and computes nothing (the caller checks both):
    the lines of ``outcome`` are then one per lookup, in order.
    """
    results = list(outcome.results)
    lines = list(outcome.lines)
    for i, result in enumerate(results):
        query = result.query
        if result.status is not QueryStatus.NOT_FOUND or query is None:
            continue
        undated = run_query(replace(query, period=Period.none_stated()), facts=facts, max_sensitivity=max_sensitivity)
        if undated.status is QueryStatus.FOUND and undated.query is not None and undated.fact is not None:
            what = _SPACES.sub(" ", describe(undated.query, glossary, lang))
            results[i] = undated
            lines[i] = render_result(undated, glossary, lang, what=what) + undated_notice(undated.fact, lang)
    if results == list(outcome.results):
        return outcome, slots
    return with_results(outcome, slots, tuple(results), tuple(lines))

