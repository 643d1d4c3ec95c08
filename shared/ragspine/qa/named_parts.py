"""A total of named rows ("the total net sales of International and Foodservice"): their sum, not the grand total.

A table's ``Total`` row is a figure of its own, and "total net sales" reads as that row. When the
question names the parts it adds up ("of A and B", "A and B combined", A和B合计, AとBの合計) and
two rows or more of the documents are read beside that total row, the total asked is the sum of
those rows: the grand total answers another question, and a wrong number is worse than none. The
total row's figures and change are taken out; the parts' sum is computed for each period (and its
change, when two periods are asked), each input cited. Where the sum cannot be computed (a part's
figure missing, units that differ) a sentence says so and asks which figures to add, with no number.

A total that divides (a share, a ratio) or a total checked against its parts keeps its row.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from types import MappingProxyType
from typing import TYPE_CHECKING

from ragspine.citation import Source, source_dicts
from ragspine.facts.glossary import Glossary, Period, SlotKind, normalize_text
from ragspine.facts.model import Fact, format_number
from ragspine.facts.query_metric import QueryResult
from ragspine.lazy import LazyModule, LazyPattern
from ragspine.qa.arithmetic_cues import Arithmetic
from ragspine.qa.language import Lang
from ragspine.qa.render import label
from ragspine.qa.result import AnswerStatus
from ragspine.qa.structured import StructuredOutcome, format_decimal
from ragspine.qa.total_rows import is_a_total

if TYPE_CHECKING:
    from ragspine.qa import derived
else:
    derived = LazyModule("ragspine.qa.derived")  # its citing and unit words, read only when a sum is computed

_TOTAL = r"(?:total|combined|together|aggregate|sum)"
# "total net sales of International and Foodservice", "International and Foodservice combined",
# "国际和餐饮服务的净销售额合计", "海外と国内の売上高の合計"
_OF_PARTS = LazyPattern(
    rf"(?<![a-z]){_TOTAL}(?![a-z]).*?(?<![a-z])(?:of|for|from|in)(?![a-z]).+?(?<![a-z])(?:and|&)(?![a-z])"
    rf"|(?<![a-z])and(?![a-z]).+?(?<![a-z])(?:combined|together|in total|altogether)(?![a-z])"
    r"|(?:和|与|及|以及|加上|と|および|及び).+?(?:合计|合計|总计|總計|之和|总和|の和|合算|合わせ|加起来|共计)"
    r"|(?:合计|合計|总计|總計).+?(?:和|与|及|と|および|及び)")
_DIRECTIONS = MappingProxyType({Lang.ZH: ("增加", "减少", "持平"), Lang.EN: ("up", "down", "unchanged"),
                               Lang.JA: ("増加", "減少", "横ばい")})
_TEXT: MappingProxyType[Lang, dict[str, str]] = MappingProxyType({
    Lang.ZH: {"sum": "{who}{period} {terms}合计：{value}{unit}",
              "change": "{who}{terms}合计：{later} 较 {earlier} {direction} {amount}{percent}",
              "plus": " + ",
              "cannot": "问题所问的是{terms}的合计，但{why}，因此不提供数值（也不以总计行代替）。请指明要相加的数值。",
              "missing": "缺少 {what} 的数据", "units": "单位不同（{units}）"},
    Lang.EN: {"sum": "{who} {period} {terms} combined: {value}{unit}",
              "change": "{who} {terms} combined: {later} vs {earlier} {direction} {amount}{percent}",
              "plus": " + ",
              "cannot": "The question asks for the total of {terms}, but {why}, so no value is given (nor the "
                        "grand total in its place). Which figures should be added?",
              "missing": "there is no figure for {what}", "units": "the units differ ({units})"},
    Lang.JA: {"sum": "{who}{period} {terms}の合計：{value}{unit}",
              "change": "{who}{terms}の合計：{later} は {earlier} 比 {direction} {amount}{percent}",
              "plus": " + ",
              "cannot": "質問は{terms}の合計を求めていますが、{why}ため、数値は示しません（合計行でも代えません）。"
                        "足し合わせる数値を指定してください。",
              "missing": "{what} のデータがない", "units": "単位が異なる（{units}）"},
})


def asks_named_parts(question: str) -> bool:
    """Whether the question's words ask for a total of parts it names ("the total X of A and B", A和B合计)."""
    return _OF_PARTS.search(normalize_text(question)) is not None


def with_named_parts_sum(outcome: StructuredOutcome, question: str, arithmetic: Arithmetic, *,
                         glossary: Glossary, lang: Lang = Lang.ZH) -> StructuredOutcome:
    """``outcome`` with the grand total row replaced by the sum of the named rows read beside it, when asked."""
    if arithmetic.ratio or arithmetic.share_of or arithmetic.consistency or arithmetic.average or arithmetic.cagr:
        return outcome  # a total that divides, or one checked against its parts, is the row itself
    queries = [r.query for r in outcome.results if r.query is not None]
    metrics = list(dict.fromkeys(q.metric_code for q in queries))
    if len(metrics) < 3:  # a total and two parts at the least
        return outcome
    totals = [m for m in metrics if is_a_total(m)]
    parts = [m for m in metrics if not is_a_total(m)]
    if not totals or len(parts) < 2 or not asks_named_parts(question):
        return outcome
    kept = [i for i, r in enumerate(outcome.results) if r.query is None or r.query.metric_code not in totals]
    results = tuple(outcome.results[i] for i in kept)
    differences = tuple(d for d in outcome.differences if d.later.metric_code not in totals)
    lines = [outcome.lines[i] for i in kept]
    # the lines after the lookups' own are the change lines, in the order of ``differences``
    changes = outcome.lines[len(outcome.results):]
    lines += [line for line, d in zip(changes, outcome.differences, strict=False) if d.later.metric_code not in totals]
    made, numbers = _parts_sum(results, parts, glossary, lang)
    facts = [f for r in results for f in ((r.fact, *r.conflicts) if r.fact is not None else ())]
    sources = source_dicts(Source(f.source_doc_id, f.source_locator) for f in facts)
    if not numbers:  # asked back: no number in place of the sum
        return replace(outcome, lines=tuple(made), sources=(), status=AnswerStatus.NOT_FOUND, results=results,
                       differences=(), computed=(), leading=0)
    return replace(outcome, lines=(*made, *lines), sources=tuple(sources), results=results,
                   differences=differences, computed=(*outcome.computed, *numbers), leading=0)


def _parts_sum(results: tuple[QueryResult, ...], parts: list[str], glossary: Glossary,
               lang: Lang) -> tuple[list[str], list[str]]:
    """Each period's sum of the parts (and its change over two periods), or the sentence saying why not."""
    text = _TEXT[lang]
    terms = text["plus"].join(label(glossary.term(SlotKind.METRIC, m), lang) for m in parts)
    found: dict[tuple[str, Period], Fact] = {}
    periods: list[Period] = []
    for result in results:
        if result.query is None or result.query.metric_code not in parts:
            continue
        period = result.query.period
        periods = periods if period in periods else [*periods, period]
        if result.fact is not None:
            found[(result.query.metric_code, period)] = result.fact
    missing = [f"{label(glossary.term(SlotKind.METRIC, m), lang)} {p.label}"
               for p in periods for m in parts if (m, p) not in found]
    units = {f.unit for f in found.values()}
    if missing or len(units) > 1:
        why = (text["missing"].format(what="、".join(missing) if lang is not Lang.EN else ", ".join(missing))
               if missing else text["units"].format(units=", ".join(sorted(units))))
        return [text["cannot"].format(terms=terms, why=why)], []
    unit = next(iter(units), "")
    who = label(glossary.term(SlotKind.ENTITY, next(iter(found.values())).entity), lang)
    sums: list[tuple[Period, Decimal, list[Fact]]] = []
    made, numbers = [], []
    for period in periods:
        inputs = [found[(m, period)] for m in parts]
        total = sum((Decimal(format_number(f.value)) for f in inputs), Decimal(0))
        sums.append((period, total, inputs))
        made.append(text["sum"].format(who=who, period=period.label, terms=terms, value=format_decimal(total),
                                       unit=derived.spaced(unit)) + derived.cited(tuple(inputs)))
        numbers.append(format_decimal(total))
    if len(sums) == 2 and sums[0][0].period_type == sums[1][0].period_type:
        (p0, a, f0), (p1, b, f1) = sorted(sums, key=lambda s: s[0].period)
        change = b - a
        words = _DIRECTIONS[lang]
        direction = words[0] if change > 0 else words[1] if change < 0 else words[2]
        percent = ""
        if a != 0:
            rate = (change / a * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
            sign = "+" if rate > 0 else "−" if rate < 0 else "±"
            percent = f"（{sign}{format_decimal(abs(rate))}%）"
            numbers.append(format_decimal(abs(rate)))
        made.insert(0, text["change"].format(who=who, terms=terms, later=p1.label, earlier=p0.label,
                                             direction=direction, amount=f"{format_decimal(abs(change))}"
                                             f"{derived.spaced(unit)}", percent=percent) + derived.cited((*f0, *f1)))
        numbers.append(format_decimal(abs(change)))
    return made, numbers
