"""A why-question whose premise the fact table contradicts: said so, with the two figures cited.

"为什么2025年香港的毛利率下降了？" asks for the cause of a fall that did not happen (Hong Kong's
gross margin rose from 41.0 to 42.0). Passages retrieved for it speak of other falls (Japan's
2024 margin), and a model or the quoting default explains those. When the question names one
metric, one entity and one fiscal year, and says the metric rose or fell, the fact table is read
for that year and the year before; when their direction is the opposite of the question's, the
answer says the premise does not hold, with both figures and their sources, in the question's
language. Nothing is said when a figure is missing, disputed, above the asker's clearance or in
another unit, when the question says both directions, or when the two figures are equal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType

from ragspine.citation import Source
from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.facts.model import Fact, FactKey, format_number
from ragspine.facts.ports import FactStore
from ragspine.lazy import LazyPattern
from ragspine.qa.language import Lang
from ragspine.qa.slots import Slots
from ragspine.sensitivity import Sensitivity

FELL = "fell"
ROSE = "rose"
# The question's own word for the direction it takes for granted ("fall" = 下降 = 減少). "Improve"
# and "worsen" are left out: for a cost they point the other way than for a margin.
_WORDS = MappingProxyType({
    FELL: LazyPattern(r"下降|下滑|下跌|减少|降低|回落|走低|下行|減少|低下|減益|悪化|下がっ|下落|落ち込"
                      r"|\b(?:fall|fell|fallen|falling|decline|declined|declining|drop|dropped|decrease|decreased"
                      r"|shrink|shrank|shrunk|go down|went down)\b", re.IGNORECASE),
    ROSE: LazyPattern(r"上升|上涨|增长|增加|提高|提升|回升|走高|上行|増加|上昇|増益|回復|伸び|上がっ"
                      r"|\b(?:rise|rose|risen|rising|increase|increased|increasing|grow|grew|grown|growing"
                      r"|recover|recovered|go up|went up)\b", re.IGNORECASE),
})
# A change of pace ("增长放缓", "growth slowed") says nothing of the figure's own direction.
_PACE = LazyPattern(r"放缓|放慢|减速|鈍化|減速|\b(?:slow|slowed|slowing|slowdown|accelerat\w*)\b", re.IGNORECASE)
_TEXT = MappingProxyType({
    Lang.ZH: "问题的前提与数据不符：{entity}的{metric}{now_label}为{now}{now_cited}，{before_label}为{before}"
             "{before_cited}，{verdict}。",
    Lang.EN: "The question's premise does not hold: {entity}'s {metric} was {now} in {now_label}{now_cited} "
             "against {before} in {before_label}{before_cited}, so it {verdict}.",
    Lang.JA: "質問の前提はデータと一致しません：{entity}の{metric}は{now_label}が{now}{now_cited}、"
             "{before_label}が{before}{before_cited}で、{verdict}。",
})
# What the figures did, said against what the question assumed.
_VERDICT = MappingProxyType({
    (Lang.ZH, ROSE): "是上升而非下降", (Lang.ZH, FELL): "是下降而非上升",
    (Lang.EN, ROSE): "rose rather than fell", (Lang.EN, FELL): "fell rather than rose",
    (Lang.JA, ROSE): "低下ではなく上昇しています", (Lang.JA, FELL): "上昇ではなく低下しています",
})
_UNIT = MappingProxyType({"PCT": "%"})
_NAMED = frozenset({SlotKind.METRIC, SlotKind.ENTITY, SlotKind.PERIOD})


@dataclass(frozen=True, slots=True)
class ContradictedPremise:
    """The premise's correction, the two figures' sources (this year's first) and what the figures did."""

    text: str
    sources: tuple[Source, Source]
    direction: str  # ROSE or FELL: what the figures did


def assumed_direction(question: str) -> str | None:
    """``FELL`` or ``ROSE`` when the question says the one direction, else None (neither, both, or a pace)."""
    if _PACE.search(question):
        return None
    said = [direction for direction, words in _WORDS.items() if words.search(question)]
    return said[0] if len(said) == 1 else None


def contradicted_premise(question: str, slots: Slots, *, facts: FactStore, glossary: Glossary, lang: Lang,
                         max_sensitivity: Sensitivity) -> ContradictedPremise | None:
    """The correction when the fact table shows the opposite of the direction the question assumes, else None.

    Args:
        question: the user's question, asking why a figure rose or fell.
        slots: its slots as parsed; each of metric, entity and fiscal year named once, none assumed.
        facts: the fact table.
        glossary: names the entity and metric in the question's language.
        lang: the question's language.
        max_sensitivity: the asker's clearance; a figure above it is never read.
    """
    assumed = assumed_direction(question)
    if assumed is None or any(a.slot in _NAMED for a in slots.assumptions) or slots.unrecognized is not None:
        return None
    if len(slots.metrics) != 1 or len(slots.entities) != 1 or len(slots.periods) != 1 or len(slots.channels) != 1:
        return None
    period = slots.periods[0]
    if period.period_type != "FY" or not period.period.isdigit():
        return None
    key = FactKey(slots.metrics[0], slots.entities[0], slots.channels[0], "FY", period.period)
    now = _one(facts, key, max_sensitivity)
    before = _one(facts, key._replace(period=str(int(period.period) - 1)), max_sensitivity)
    if now is None or before is None or now.unit != before.unit or now.value == before.value:
        return None
    happened = ROSE if now.value > before.value else FELL
    if happened == assumed:
        return None
    now_source = Source(now.source_doc_id, now.source_locator)
    before_source = Source(before.source_doc_id, before.source_locator)
    text = _TEXT[lang].format(
        entity=glossary.term(SlotKind.ENTITY, now.entity).name(lang.value),
        metric=glossary.term(SlotKind.METRIC, now.metric_code).name(lang.value),
        now_label=f"FY{now.period}", now=_shown(now), now_cited=now_source.cited(),
        before_label=f"FY{before.period}", before=_shown(before), before_cited=before_source.cited(),
        verdict=_VERDICT[(lang, happened)])
    return ContradictedPremise(text, (now_source, before_source), happened)


def _one(facts: FactStore, key: FactKey, max_sensitivity: Sensitivity) -> Fact | None:
    """The fact of ``key`` when it is stated once, undisputed and within the clearance."""
    fact, conflicts = facts.get_with_conflicts(key)
    if fact is None or conflicts or fact.sensitivity > max_sensitivity:
        return None
    return fact


def _shown(fact: Fact) -> str:
    unit = _UNIT.get(fact.unit)
    return f"{format_number(fact.value)}{unit}" if unit else f"{format_number(fact.value)} {fact.unit}"
