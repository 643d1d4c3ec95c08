"""A question naming a year or a due span reaches a payment schedule's figure falling due then, said so.

A schedule's year column (``Total | 2021 | 2022 | Thereafter``) or due span (``Less than 1 year |
1-3 years``) says when its figures fall due, not which fiscal year they are of: ingestion stores
them undated under the row qualified by the column as written (``label:2021: operating leases``,
``ingestion/table_facts.py``). A question naming the year and the row ("operating leases in 2021")
is answered from that cell only where the documents state no fiscal-year figure of the row for
that year (the lookup found none); one naming a span ("due in less than one year", "within 1-3
years") from the cell of the same span, however written. The answer says the figure falls due
then rather than calling it a fiscal year's. Nothing computed reads such a figure: the caller
passes only questions that compute nothing.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from ragspine.facts.glossary import Glossary, Period, SlotKind
from ragspine.facts.model import Fact
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.facts.ports import FactStore
from ragspine.facts.query_metric import MetricQuery, QueryResult, QueryStatus, run_query
from ragspine.lazy import LazyPattern
from ragspine.qa.language import Lang
from ragspine.qa.render import describe, render_result
from ragspine.qa.slots import Slots
from ragspine.qa.structured import StructuredOutcome, with_results
from ragspine.sensitivity import Sensitivity

_YEAR_NOTICE = MappingProxyType({
    Lang.ZH: "（文件的付款计划表列明该金额于{due}年到期，并非某一财政年度的数值。）",
    Lang.EN: " (falling due in {due}, as the document's payment schedule states; no fiscal year's figure)",
    Lang.JA: "（資料の支払予定表では{due}年に期日が到来する金額で、いずれかの会計年度の数値ではありません。）",
})
_SPAN_NOTICE = MappingProxyType({
    Lang.ZH: "（文件的付款计划表列明该金额的到期期限为“{due}”，并非某一财政年度的数值。）",
    Lang.EN: " (falling due in {due}, as the document's payment schedule states; no fiscal year's figure)",
    Lang.JA: "（資料の支払予定表では期日が「{due}」の金額で、いずれかの会計年度の数値ではありません。）",
})
_YEARS_NOTICE = MappingProxyType({
    Lang.ZH: "（文件的计划表列明该数值属于“{due}”期间，并非某一财政年度的数值。）",
    Lang.EN: " (in {due}, the span of years the document's schedule states; no fiscal year's figure)",
    Lang.JA: "（資料の予定表では「{due}」の期間の数値で、いずれかの会計年度の数値ではありません。）",
})
_SPACES = LazyPattern(r"  +")
_YEAR = LazyPattern(r"(?:19|20)\d{2}")
# a span of years a schedule's row writes ("2020 – 2024"): when its figures expire or fall due
_YEARS = LazyPattern(r"(?:19|20)\d{2}\s*[-–—]\s*(?:19|20)?\d{2}")
_COUNT = r"\d{1,2}|one|two|three|four|five|ten"
# A due span as a question or a schedule's header writes it: below n years, from n to m years ("years 3-5" too),
# beyond n years.
_SPAN = LazyPattern(
    rf"(?<![a-z\d])(?:(?:less\s+than|up\s+to|within|under|no\s+more\s+than)\s+(?P<below>{_COUNT})\s+years?"
    rf"|(?:within\s+|between\s+|in\s+)?(?P<low>{_COUNT})\s*(?:-|–|—|to|and)\s*(?P<high>{_COUNT})\s+years"
    rf"|(?:more\s+than|over|after|beyond|greater\s+than)\s+(?P<above>{_COUNT})\s+years?"
    rf"|years?\s*(?P<first>\d{{1,2}})\s*(?:-|–|—|to)\s*(?P<last>\d{{1,2}})(?!\d))(?![a-z])")
# A year or a span of years as a schedule heads a column and a question names it ("2020", "2021-2022", "2021–22")
HEADING = LazyPattern(r"(?<![\d.,$])(?P<first>(?:19|20)\d{2})(?:\s*[-–—]\s*(?P<last>(?:19|20)\d{2}|\d{2}))?(?![\d.,%])")
_WORDS = MappingProxyType({"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "ten": 10})


def _count(word: str) -> int:
    return _WORDS[word] if word in _WORDS else int(word)


def due_span(text: str) -> tuple[str, int, int] | None:
    """The one due span a text writes, however worded (``less than one year`` = ``Less than 1 year``), else None."""
    spans = set()
    for m in _SPAN.finditer(text.lower()):
        if m["below"]:
            spans.add(("below", _count(m["below"]), 0))
        elif m["above"]:
            spans.add(("above", _count(m["above"]), 0))
        elif m["low"]:
            spans.add(("from", _count(m["low"]), _count(m["high"])))
        else:
            spans.add(("from", int(m["first"]), int(m["last"])))
    return spans.pop() if len(spans) == 1 else None


def heading_years(heading: str) -> tuple[int, int] | None:
    """The years a column heading writes, alone (``2021``: 2021 to 2021) or as a span (``2021-2022``, ``2021–22``)."""
    match = HEADING.fullmatch(heading.strip())
    if match is None:
        return None
    first = int(match["first"])
    if match["last"] is None:
        return first, first
    last = int(match["last"]) if len(match["last"]) == 4 else first // 100 * 100 + int(match["last"])
    return (first, last) if last > first else None


def span_of_a_cell_read(span: tuple[str, int, int], metrics: tuple[str, ...]) -> bool:
    """Whether ``span``, the one due span a question writes (``due_span``), is the column of a schedule cell read
    among ``metrics`` ("the operating leases of more than 5 years", read as ``more than 5 years: operating
    leases``): the span is named by its own cell, not asked of another column's figure."""
    return any(due_span(_qualifier(code)[0]) == span for code in metrics
               if code.startswith(METRIC_PREFIX) and _qualifier(code)[0])


def _qualifier(code: str) -> tuple[str, str]:
    """An open metric's qualifying year, span of years or due span and its row's label (``2021``, ``operating
    leases``); ("", label) if none."""
    qualifier, _, row = label_of(code).partition(": ")
    if row and (heading_years(qualifier) is not None or _YEARS.fullmatch(qualifier)
                or due_span(qualifier) is not None):
        return qualifier, row
    return "", label_of(code)


def schedule_year(code: str) -> int | None:
    """The year a schedule cell's code is qualified by (``label:2021: operating leases``: 2021), else None."""
    qualifier, _ = _qualifier(code)
    return int(qualifier) if _YEAR.fullmatch(qualifier) else None


def due_line(found: QueryResult, glossary: Glossary, lang: Lang, *, what: str | None = None) -> str:
    """A schedule cell's line, saying when it falls due rather than calling it a fiscal year's figure."""
    assert found.fact is not None and found.query is not None
    qualifier, _ = _qualifier(found.fact.metric_code)
    if what is None:  # the cell's own row, described with no period: no gap where the period would be
        what = _SPACES.sub(" ", describe(found.query, glossary, lang))
    notices = _YEAR_NOTICE if _YEAR.fullmatch(qualifier) else _YEARS_NOTICE if _span_row(found.fact, qualifier) \
        else _SPAN_NOTICE
    notice = notices[lang].format(due=qualifier)
    return render_result(found, glossary, lang, what=what) + notice


def _span_row(fact: Fact, qualifier: str) -> bool:
    """Whether a span of years heads the cell's row (``2020 – 2024`` down a table of expiries), not its column
    (``2021-2022`` of a payment schedule): such a row may say when its figures expire, not only fall due."""
    return _YEARS.fullmatch(qualifier) is not None and f",row={qualifier}," in fact.source_locator.lower()


def notice_words(fact: Fact) -> tuple[str, ...]:
    """The year or span a schedule figure's notice writes (the provenance check's figures): the fact's own column."""
    if ": " not in fact.metric_code:  # a label is the end of its code: no column and row (every glossary metric)
        return ()
    qualifier, _ = _qualifier(fact.metric_code)
    return (qualifier,) if qualifier else ()


def _due_queries(query: MetricQuery, span: tuple[str, int, int] | None, named: tuple[Period, ...],
                 glossary: Glossary) -> MetricQuery | None:
    """The undated lookup of the row qualified by the year or span the question names, if a schedule has one."""
    if not query.metric_code.startswith(METRIC_PREFIX):
        return None
    _, row = _qualifier(query.metric_code)
    codes = glossary.terms[SlotKind.METRIC]
    if span is not None:
        found = [code for code in codes if code.startswith(METRIC_PREFIX) and code.endswith(f": {row}")
                 and _qualifier(code) != ("", label_of(code)) and due_span(_qualifier(code)[0]) == span]
        return replace(query, metric_code=found[0], period=Period.none_stated()) if len(found) == 1 else None
    if query.period.period_type != "FY" or query.period not in named:
        return None  # an assumed year reaches no schedule
    code = f"{METRIC_PREFIX}{query.period.period}: {row}"
    return replace(query, metric_code=code, period=Period.none_stated()) if code in codes else None


def with_due_figures(outcome: StructuredOutcome, slots: Slots, text: str, named: tuple[Period, ...], *,
                     facts: FactStore, glossary: Glossary, lang: Lang,
                     max_sensitivity: Sensitivity) -> tuple[StructuredOutcome, Slots]:
    """``outcome`` with each figure not found for the year asked found as falling due in the year or span named.

    Call only for a question that computes nothing (its lines are then one per lookup, in order);
    ``named``: the periods the question itself wrote.
    """
    if all(result.status is not QueryStatus.NOT_FOUND for result in outcome.results):
        return outcome, slots  # every figure found as asked (most questions): no span to read, nothing to refill
    span = due_span(text)
    results: list[QueryResult] = list(outcome.results)
    lines = list(outcome.lines)
    for i, result in enumerate(results):
        query = result.query
        if result.status is not QueryStatus.NOT_FOUND or query is None:
            continue
        due = _due_queries(query, span, named, glossary)
        found = run_query(due, facts=facts, max_sensitivity=max_sensitivity) if due is not None else None
        if found is not None and found.status is QueryStatus.FOUND and found.fact is not None:
            _, row = _qualifier(found.fact.metric_code)
            what = _SPACES.sub(" ", describe(replace(query, period=Period.none_stated()), glossary, lang))
            if row != label_of(query.metric_code):  # the question named the span's own row: say the row alone
                what = what.replace(label_of(query.metric_code), row)
            results[i] = found
            lines[i] = due_line(found, glossary, lang, what=what)
    if results == list(outcome.results):
        return outcome, slots
    return with_results(outcome, slots, tuple(results), tuple(lines))
