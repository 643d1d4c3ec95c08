"""Counting periods over a threshold: "How many years did net sales exceed $200,000 thousand?".

The count is taken over the figures the documents state for the metric and entity asked, one per
period: every year (or quarter) stated, or every one of a range the question names ("From 2017
to 2019, how many of the years …"). The answer is the count, the periods that meet the threshold,
and every compared figure cited, met or not. Nothing is counted when the set is not complete or
the comparison is not clear, and the answer says why with no number:

- a year of the named range has no stated figure (that year might have met it);
- a metric, entity or channel is not one (the question does not say whose figures to count);
- the threshold's scale and the figures' unit cannot be put side by side: a threshold in
  thousands against figures in no stated unit, a percentage against amounts, two currencies;
- the same period is stated twice with different values.

Strictly more ("exceed", "above", "more than", "over", 超过, 超える) or strictly less ("below",
"less than", "under", 低于, 下回る); a threshold is read as written, its scale word ("thousand",
"million", "billion") or ``%`` applied.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from types import MappingProxyType

from ragspine.citation import Source, source_dicts
from ragspine.facts.glossary import Glossary, Period, SlotKind
from ragspine.facts.model import Fact, format_number
from ragspine.facts.ports import FactStore
from ragspine.facts.unit_scales import money_unit
from ragspine.qa.language import Lang
from ragspine.qa.render import label
from ragspine.qa.result import AnswerStatus
from ragspine.qa.slots import Assumption, Slots
from ragspine.qa.structured import StructuredOutcome
from ragspine.sensitivity import Sensitivity

_SCALE_WORDS = MappingProxyType({"thousand": Decimal(10) ** 3, "million": Decimal(10) ** 6,
                                 "billion": Decimal(10) ** 9, "万": Decimal(10) ** 4, "億": Decimal(10) ** 8,
                                 "亿": Decimal(10) ** 8})

_TEXT = MappingProxyType({
    Lang.ZH: MappingProxyType({
        "count": "{who}{what}{op} {threshold} 的{kind}数：{n}（{met}；共比较 {total} 个{kind}）",
        "none_met": "无", "above": "超过", "below": "低于", "years": "年份", "quarters": "季度", "join": "、",
        "unclear": "无法计数：{why}，因此不提供数值。",
        "missing": "缺少 {what} 的数据（该期间可能也满足条件）",
        "units": "阈值（{threshold}）与数值的单位（{units}）无法比较",
        "one": "问题所指的指标、主体或渠道不止一个",
        "conflict": "{period} 的数值在文件中不一致",
        "nothing": "没有可计数的数值",
    }),
    Lang.EN: MappingProxyType({
        "count": "{who}{what} {kind} {op} {threshold}: {n} ({met}; {total} {kind} compared)",
        "none_met": "none", "above": "above", "below": "below", "years": "years", "quarters": "quarters",
        "join": ", ",
        "unclear": "Nothing is counted: {why}, so no value is given.",
        "missing": "there is no figure for {what} (that period might meet it too)",
        "units": "the threshold ({threshold}) and the figures' unit ({units}) cannot be compared",
        "one": "the question names more than one metric, entity or channel, so whose figures to count is not clear",
        "conflict": "{period} is stated with different values",
        "nothing": "no figure is stated to count",
    }),
    Lang.JA: MappingProxyType({
        "count": "{who}{what}が {threshold} {op}の{kind}：{n}（{met}；比較した{kind} {total}）",
        "none_met": "なし", "above": "を超えた", "below": "を下回った", "years": "年度", "quarters": "四半期",
        "join": "、",
        "unclear": "数えられません：{why}ため、数値は示しません。",
        "missing": "{what} の数値がない（その期間も条件を満たすかもしれない）",
        "units": "閾値（{threshold}）と数値の単位（{units}）を比べられない",
        "one": "質問の指標・主体・チャネルが一つではない",
        "conflict": "{period} の数値が資料間で異なる",
        "nothing": "数える数値がない",
    }),
})


@dataclass(frozen=True, slots=True)
class CountAsk:
    """A count the question asks: of years or quarters, above or below a threshold in a scale."""

    quarters: bool
    below: bool
    threshold: Decimal
    scale: str  # "", "thousand", "million", "billion", "%", 万, 億
    written: str  # the threshold as the question writes it


def count_over_periods(ask: CountAsk, slots: Slots, *, facts: FactStore, glossary: Glossary, lang: Lang,
                       max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL,
                       ) -> tuple[StructuredOutcome, Slots] | None:
    """The answer to the count ``read_count`` read from the question and the slots it stands on, or None
    when the question names no metric.

    The slots come back without an assumed period: the count is over every period stated (or
    the range named), never over the default year.
    """
    if not slots.metrics:
        return None
    text = _TEXT[lang]
    assumed = any(a.slot is SlotKind.PERIOD for a in slots.assumptions)
    kept = _counted_slots(slots)
    if len(kept.metrics) != 1 or len(kept.entities) != 1 or len(kept.channels) != 1:
        return _unclear(text["one"], text), kept
    metric, entity, channel = kept.metrics[0], kept.entities[0], kept.channels[0]
    kind = "Q" if ask.quarters else "FY"
    stated = [f for f in facts.find(metric_code=metric, entity=entity)
              if f.channel == channel and f.period_type == kind and f.sensitivity <= max_sensitivity]
    by_period: dict[str, Fact] = {}
    for fact in stated:
        _, differing = facts.get_with_conflicts(fact.key)
        seen = by_period.setdefault(fact.period, fact)
        if seen.value != fact.value or seen.unit != fact.unit or any(
                c.sensitivity <= max_sensitivity and (c.value != fact.value or c.unit != fact.unit) for c in differing):
            return _unclear(text["conflict"].format(period=_period(fact)), text), kept
    if not assumed:  # a range named: every period of it must be stated
        named = [p for p in slots.periods if p.period_type == kind]
        if kind == "Q" and not named:  # "in 2018, how many quarters": the four quarters of each year named
            named = [Period("Q", f"{p.period}Q{n}") for p in slots.periods if p.period_type == "FY"
                     for n in range(1, 5)]
        missing = [p for p in named if p.period not in by_period]
        if missing:
            what = text["join"].join(f"{_describe(metric, entity, glossary, lang)} {p.label}" for p in missing)
            return _unclear(text["missing"].format(what=what), text), kept
        by_period = {p.period: by_period[p.period] for p in named}
    compared = sorted(by_period.values(), key=lambda f: f.period, reverse=True)
    if not compared:
        return _unclear(text["nothing"], text), kept
    bound = threshold_in(ask, {f.unit for f in compared})
    if bound is None:
        units = text["join"].join(sorted({f.unit or "—" for f in compared}))
        return _unclear(text["units"].format(threshold=ask.written, units=units), text), kept
    met = [f for f in compared if (Decimal(format_number(f.value)) < bound if ask.below
                                   else Decimal(format_number(f.value)) > bound)]
    kind_word = text["quarters" if ask.quarters else "years"]
    line = text["count"].format(
        who=f"{label(glossary.term(SlotKind.ENTITY, entity), lang)} ",
        what=label(glossary.term(SlotKind.METRIC, metric), lang), kind=kind_word,
        op=text["below" if ask.below else "above"], threshold=ask.written, n=len(met),
        met=text["join"].join(f"{_period(f)} {format_number(f.value)}" for f in met) or text["none_met"],
        total=len(compared))
    cited = "；".join(f"{f.source_doc_id} · {f.source_locator}" for f in compared)
    sources = source_dicts(Source(f.source_doc_id, f.source_locator) for f in compared)
    # the counts, the figures that met it and the years of the periods named ("2019" of 2019Q3)
    numbers = (str(len(met)), str(len(compared)), *(format_number(f.value) for f in met),
               *{f.period[:4] for f in compared})
    return StructuredOutcome((f"{line}（计算自：{cited}）",), sources, AnswerStatus.FOUND, (), (),
                             computed=numbers), kept


def _counted_slots(slots: Slots) -> Slots:
    """The slots a count stands on: no assumed period (every period stated counts), and the home group
    itself where a comparison word ("more than") had the parts of the home group assumed for a ranking."""
    assumptions: list[Assumption] = []
    entities = slots.entities
    for made in slots.assumptions:
        if made.slot is SlotKind.PERIOD:
            continue
        if made.slot is SlotKind.ENTITY and made.cue == "children":
            entities = (made.value,)
            made = Assumption(SlotKind.ENTITY, made.value, "no entity named: the home group")
        assumptions.append(made)
    return replace(slots, entities=entities, assumptions=tuple(assumptions))


def threshold_in(ask: CountAsk, units: set[str]) -> Decimal | None:
    """The threshold in the figures' own unit, or None when the two cannot be compared."""
    if len(units) != 1:
        return None
    unit = next(iter(units))
    if ask.scale == "%":
        return ask.threshold if unit == "PCT" else None
    if unit == "PCT":
        return None
    money = money_unit(unit)
    if money is None:  # no stated unit, a count, shares: only a bare threshold compares
        return ask.threshold if not ask.scale else None
    return ask.threshold * _SCALE_WORDS.get(ask.scale, Decimal(1)) / money.factor


def _unclear(why: str, text: MappingProxyType[str, str]) -> StructuredOutcome:
    return StructuredOutcome((text["unclear"].format(why=why),), (), AnswerStatus.NOT_FOUND, (), ())


def _period(fact: Fact) -> str:
    return Period(fact.period_type, fact.period).label


def _describe(metric: str, entity: str, glossary: Glossary, lang: Lang) -> str:
    who = label(glossary.term(SlotKind.ENTITY, entity), lang)
    return f"{who} {label(glossary.term(SlotKind.METRIC, metric), lang)}"

