"""Deterministic wording of structured answers (seed 002: every number with its source)."""

from __future__ import annotations

from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.facts.model import format_number
from ragspine.facts.query_metric import MetricQuery, QueryResult, QueryStatus
from ragspine.qa.slots import Assumption, Unrecognized

_EXAMPLES = {
    "metric": SlotKind.METRIC,
    "entity": SlotKind.ENTITY,
    "channel": SlotKind.CHANNEL,
}


def describe(query: MetricQuery, glossary: Glossary) -> str:
    """``日本（ACME_JP）FY2024 毛利率（GROSS_MARGIN）``, plus the channel when it is not the total."""
    terms = glossary.terms
    entity, metric = terms[SlotKind.ENTITY][query.entity], terms[SlotKind.METRIC][query.metric_code]
    text = f"{entity.label}{query.period.label} {metric.label}"
    if query.channel != glossary.default_channel:
        text += f"·{terms[SlotKind.CHANNEL][query.channel].label}"
    return text


def render_result(result: QueryResult, glossary: Glossary) -> str:
    """One line per lookup: the value with its source, or an honest "not found"."""
    if result.status is QueryStatus.FOUND and result.query and result.fact:
        fact = result.fact
        return (f"{describe(result.query, glossary)}：{format_number(fact.value)} {fact.unit}"
                f"（来源：{fact.source_doc_id} · {fact.source_locator}）")
    if result.status is QueryStatus.NOT_FOUND and result.query:
        return f"未找到 {describe(result.query, glossary)} 的数据：事实表中没有这条记录，因此不提供数值。"
    return render_unrecognized(Unrecognized(result.param or "", result.raw or ""), glossary)


def render_unrecognized(problem: Unrecognized, glossary: Glossary) -> str:
    """Say plainly which parameter was not understood and what would be."""
    kind = _EXAMPLES.get(problem.param)
    if kind is not None:
        known = "、".join(term.name() for term in glossary.terms[kind].values())
    else:
        known = "FY2024、2024年、2024年度、2024Q3、2024年第三季度"
    return f"无法识别参数 {problem.param}：「{problem.raw}」。可识别的写法例如：{known}。"


def render_assumptions(assumptions: tuple[Assumption, ...], glossary: Glossary) -> str:
    """One sentence listing what was assumed for the slots the question left out."""
    parts = []
    for item in assumptions:
        if item.slot is SlotKind.ENTITY:
            parts.append(f"未指定主体，按{glossary.term(SlotKind.ENTITY, item.value).name()}（{item.value}）回答")
        else:
            parts.append(f"未指定期间，按最近完成的会计年度 {item.value} 回答")
    return "（假设：" + "；".join(parts) + "。）"
