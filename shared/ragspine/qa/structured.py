"""The structured channel: one ``query_metric`` per enumerated combination, differences computed here."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import TYPE_CHECKING, NamedTuple

from ragspine.errors import FieldError, InvalidInputError
from ragspine.facts.glossary import Glossary, Period, SlotKind
from ragspine.facts.model import Fact
from ragspine.facts.ports import FactStore
from ragspine.facts.query_metric import MetricQuery, QueryResult, QueryStatus, run_query
from ragspine.lazy import LazyModule
from ragspine.qa.differing_figures import differing
from ragspine.qa.language import Lang
from ragspine.qa.render import describe, label, render_result
from ragspine.qa.result import AnswerStatus
from ragspine.qa.scale_wording import RESCALED
from ragspine.qa.slots import Slots
from ragspine.sensitivity import Sensitivity

if TYPE_CHECKING:
    from ragspine.qa import difference as change
    from ragspine.qa.difference import Difference
else:
    # Loaded by the first question over two periods: a figure of one period builds no difference.
    change = LazyModule("ragspine.qa.difference")

MAX_LOOKUPS = 48  # metrics x entities x periods x channels a single question may enumerate


@dataclass(frozen=True, slots=True)
class StructuredOutcome:
    """Rendered lines, sources in citation order, status, every lookup and computed difference."""

    lines: tuple[str, ...]
    sources: tuple[dict[str, str], ...]
    status: AnswerStatus
    results: tuple[QueryResult, ...]
    differences: tuple[Difference, ...]
    computed: tuple[str, ...] = ()  # numbers of other computed figures (rank gaps, shares, sums)
    leading: int = 0  # lines put before the lookups' own (the figure asked: a mean of computed margins)
    mean_refused: bool = False  # a mean of computed figures was asked and could not be given
    # formula metrics computed from stated facts (``derived.ComputedFigure``): inputs of the question's arithmetic
    figures: tuple[Fact, ...] = ()


class Lookup(NamedTuple):
    """One figure a question asks for: the normalised query and how its answer line names it."""

    query: MetricQuery
    what: str  # ``describe(query, glossary, lang)``: depends on the question, never on a fact


def plan_lookups(slots: Slots, *, glossary: Glossary, lang: Lang = Lang.ZH) -> tuple[Lookup, ...]:
    """Every metric x entity x period x channel the question names, each described once.

    A pure function of the slots, the glossary and the language, so a parsed question may keep it.

    Raises:
        InvalidInputError: the question enumerates more than ``MAX_LOOKUPS`` combinations.
    """
    return tuple([Lookup(q, describe(q, glossary, lang)) for q in _queries(slots)])


def _queries(slots: Slots) -> list[MetricQuery]:
    combinations = list(itertools.product(slots.metrics, slots.entities, slots.periods, slots.channels))
    if len(combinations) > MAX_LOOKUPS:
        raise InvalidInputError(
            f"the question asks for {len(combinations)} figures; at most {MAX_LOOKUPS} per question: split it",
            field_errors=(FieldError("question", f"at most {MAX_LOOKUPS} metric/entity/period/channel combinations"),))
    return [MetricQuery(*c) for c in combinations]


def look_up(plan: tuple[Lookup, ...], *, facts: FactStore,
            max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL) -> tuple[QueryResult, ...]:
    """Read every planned figure from the fact store (on every ask: facts are never cached)."""
    return tuple([run_query(lookup.query, facts=facts, max_sensitivity=max_sensitivity) for lookup in plan])


def run_structured(slots: Slots, *, facts: FactStore, glossary: Glossary, lang: Lang = Lang.ZH,
                   max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL,
                   plan: tuple[Lookup, ...] | None = None,
                   results: tuple[QueryResult, ...] | None = None) -> StructuredOutcome:
    """Look up every metric x entity x period x channel the question names (no LLM).

    ``plan`` is ``plan_lookups`` of the same slots, glossary and language when the caller kept
    one from an earlier ask; without it each line is described as it is rendered, which costs
    no more than planning would. The facts themselves are read from ``facts`` on every call,
    unless the caller just read them with ``look_up(plan)`` and passes them as ``results``.

    Raises:
        InvalidInputError: the question enumerates more than ``MAX_LOOKUPS`` combinations.
    """
    if plan is None:
        results = tuple([run_query(q, facts=facts, max_sensitivity=max_sensitivity) for q in _queries(slots)])
        lines = [render_result(r, glossary, lang) for r in results]
    else:
        if results is None:
            results = look_up(plan, facts=facts, max_sensitivity=max_sensitivity)
        lines = [render_result(r, glossary, lang, what=lookup.what) for r, lookup in zip(results, plan, strict=True)]
    differences, apart = _differences(results) if len(slots.periods) == 2 else ((), ())
    lines.extend(render_units_apart(earlier, later, glossary, lang) for earlier, later in apart)
    lines.extend(render_difference(d, glossary, lang) for d in differences)  # last: change_asks finds them there
    return StructuredOutcome(tuple(lines), outcome_sources(results), outcome_status(results), results, differences)


def _differences(results: tuple[QueryResult, ...]) -> tuple[tuple[Difference, ...], tuple[tuple[Fact, Fact], ...]]:
    """Pairs of found facts differing only in period, when both periods are of the same type, and the pairs
    whose units no arithmetic joins (two currencies: the change is said not to be computed).

    A figure the sources state in different amounts (``conflicts``) gives one change per figure, each
    citing its own: the answer says the sources differ and chooses neither, so no change may take one side.
    """
    series: dict[tuple[str, str, str], list[tuple[Fact, ...]]] = {}
    for result in results:
        if result.fact is not None:
            fact = result.fact
            series.setdefault((fact.metric_code, fact.entity, fact.channel), []).append(
                (fact, *differing(fact, result.conflicts)))
    found: list[Difference] = []
    apart: list[tuple[Fact, Fact]] = []
    for pair in series.values():
        if len(pair) == 2 and pair[0][0].period_type == pair[1][0].period_type:
            earliers, laters = sorted(pair, key=lambda figures: figures[0].period)
            pairs = [(earlier, later) for earlier in earliers for later in laters]
            found += [change.difference(*p) for p in pairs if change.change_unit(*p) is not None]
            apart += [p for p in pairs if change.change_unit(*p) is None]
    return tuple(found), tuple(apart)


def format_decimal(value: Decimal) -> str:
    """A decimal without exponent notation."""
    return format(value, "f")


_CHANGE = {
    Lang.ZH: ("{entity}{metric}：{later} 较 {earlier} {direction} {amount}{percent}", ("增加", "减少", "持平"),
              "个百分点"),
    Lang.EN: ("{entity} {metric}: {later} vs {earlier} {direction} {amount}{percent}", ("up", "down", "unchanged"),
              " points"),
    Lang.JA: ("{entity}{metric}：{later} は {earlier} 比 {direction} {amount}{percent}", ("増加", "減少", "横ばい"),
              "ポイント"),
}


# Two figures written as negatives (a cost or an allowance in parentheses): "up" as signed numbers is
# "down" by size, and "the change in voyage expenses" is read both ways, so both are said.
_BY_SIZE = {
    Lang.ZH: "；两者均以负数列示，按绝对值{direction} {amount}",
    Lang.EN: "; both are written as negatives, so by size {direction} {amount}",
    Lang.JA: "；いずれも負の値で記載されており、絶対値では{direction} {amount}",
}

# An earlier figure below zero and a later one at or above it (a loss turned to a profit): the percentage
# divides the change by the earlier figure as written (as TAT-QA's golds and most tables do), so "up"
# comes with a negative percentage; the rule is said so the two signs are not read as a contradiction.
_NEGATIVE_BASE = {
    Lang.ZH: "；基期数值为负：百分比为变化额除以基期原值，故其符号与变化方向相反",
    Lang.EN: "; the earlier figure is negative: the percentage is the change divided by it as written, "
             "so its sign is the opposite of the change's",
    Lang.JA: "；基準の値が負のため、変化率は変化額を符号のままの基準の値で割ったもので、符号は増減と逆になる",
}
_READ_IN = {
    Lang.ZH: "（{periods} 未注明单位，按 {unit} 计）",
    Lang.EN: " ({periods} states no unit: read in {unit})",
    Lang.JA: "（{periods} は単位の記載がないため、{unit} として計算）",
}
_UNITS_APART = {
    Lang.ZH: "{entity}{metric}：{later} 较 {earlier} 的变化无法计算：单位不同（{units}），币种之间不作换算，"
             "因此不提供数值。",
    Lang.EN: "{entity} {metric}: the change from {earlier} to {later} cannot be computed: the units differ ({units}) "
             "and currencies are never converted, so no value is given.",
    Lang.JA: "{entity}{metric}：{later} の {earlier} 比の増減は計算できません：単位が異なり（{units}）、"
             "通貨は換算しないため、数値は示しません。",
}
_JOIN = {Lang.ZH: "、", Lang.EN: ", ", Lang.JA: "、"}
_UNSTATED = {Lang.ZH: "未注明单位", Lang.EN: "unit not stated", Lang.JA: "単位の記載なし"}


def render_difference(diff: Difference, glossary: Glossary, lang: Lang = Lang.ZH) -> str:
    """``中国内地（ACME_CN）营业收入（REVENUE）：FY2025 较 FY2024 增加 132 USD_M（+10.00%）`` with both sources.

    When both figures are negative the change by size is said after the signed one: "FY2019 vs
    FY2018 up 6850 USD_K（−24.26%）; both are written as negatives, so by size down 6850 USD_K".
    When only the earlier one is, the sign rule of the percentage is said after it.
    """
    later, earlier = diff.later, diff.earlier
    template, words, points = _CHANGE[lang]
    direction = words[0] if diff.absolute > 0 else words[1] if diff.absolute < 0 else words[2]
    unit = points if diff.unit == "PCT" else f" {diff.unit}" if diff.unit else ""  # "": no unit stated
    percent = ""
    if diff.percent is not None:
        sign = "+" if diff.percent > 0 else "−" if diff.percent < 0 else "±"
        percent = f"（{sign}{format_decimal(abs(diff.percent))}%）"
    line = template.format(entity=label(glossary.term(SlotKind.ENTITY, later.entity), lang),
                           metric=label(glossary.term(SlotKind.METRIC, later.metric_code), lang),
                           later=_label(later), earlier=_label(earlier), direction=direction,
                           amount=f"{format_decimal(abs(diff.absolute))}{unit}", percent=percent)
    if earlier.value < 0 <= later.value and diff.percent is not None:
        line += _NEGATIVE_BASE[lang]
    if earlier.value < 0 and later.value < 0 and diff.absolute != 0:
        line += _BY_SIZE[lang].format(direction=words[1] if diff.absolute > 0 else words[0],
                                      amount=f"{format_decimal(abs(diff.absolute))}{unit}")
    if diff.rescaled:
        line += RESCALED[lang].format(units=_JOIN[lang].join(diff.rescaled), target=diff.unit)
    if diff.unstated:
        line += _READ_IN[lang].format(periods=_JOIN[lang].join(_label(f) for f in diff.unstated), unit=diff.unit)
    return f"{line}{_cited(earlier, later)}"


def render_units_apart(earlier: Fact, later: Fact, glossary: Glossary, lang: Lang = Lang.ZH) -> str:
    """The change between two figures in different currencies (or money beside a percentage) is not
    computed: the line says why and gives no number (the figures' own lines cite them)."""
    units = _JOIN[lang].join(sorted({f.unit or _UNSTATED[lang] for f in (earlier, later)}))
    return _UNITS_APART[lang].format(entity=label(glossary.term(SlotKind.ENTITY, later.entity), lang),
                                     metric=label(glossary.term(SlotKind.METRIC, later.metric_code), lang),
                                     later=_label(later), earlier=_label(earlier), units=units)


def _cited(earlier: Fact, later: Fact) -> str:
    return (f"（计算自：{earlier.source_doc_id} · {earlier.source_locator}；"
            f"{later.source_doc_id} · {later.source_locator}）")


def _label(fact: Fact) -> str:
    return f"FY{fact.period}" if fact.period_type == "FY" else fact.period


def outcome_sources(results: tuple[QueryResult, ...]) -> tuple[dict[str, str], ...]:
    """Each found fact's and differing figure's document and locator once, in order of first appearance.

    ``source_dicts`` of their ``Source``s, without building one: a pair of strings hashes in C.
    """
    cited = dict.fromkeys((fact.source_doc_id, fact.source_locator) for result in results if result.fact is not None
                          for fact in (result.fact, *result.conflicts))
    return tuple([{"doc": doc, "locator": locator} for doc, locator in cited])


def outcome_status(results: tuple[QueryResult, ...]) -> AnswerStatus:
    found = [r.status for r in results].count(QueryStatus.FOUND)
    if found == len(results):
        return AnswerStatus.FOUND
    return AnswerStatus.PARTIAL if found else AnswerStatus.NOT_FOUND


def with_results(outcome: StructuredOutcome, slots: Slots, results: tuple[QueryResult, ...],
                 lines: tuple[str, ...]) -> tuple[StructuredOutcome, Slots]:
    """``outcome`` with some results filled in from figures of no fiscal year (undated or due), and ``slots``
    without the assumed period when no answer is of one: saying it was assumed would name a period no answer is of."""
    outcome = replace(outcome, lines=lines, results=results, sources=outcome_sources(results),
                      status=outcome_status(results))
    if not any(r.fact is not None and not Period(r.fact.period_type, r.fact.period).undated for r in results):
        slots = replace(slots, assumptions=tuple(a for a in slots.assumptions if a.slot is not SlotKind.PERIOD))
    return outcome, slots
