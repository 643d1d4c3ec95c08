"""A share asked of rows the documents state in percent: "the average percentage of revenue from Apple and Huawei".

"The percentage of revenue from Apple" reads a ratio of two figures, Apple's over revenue. A
table may state such rows as the shares themselves (a customer's share of revenue, the lines of a
common-size statement, a channel's "as percentage of net revenues" column). Where every figure of
every row named is in percent and the documents hold no figure of the whole at all, the figures
stated are the shares asked: the whole is dropped, the rows are read as stated (averaged, added or
compared as the question says), and the answer says how the words were read. Read so only then:
a whole the documents state, or a row stated as an amount, keeps the ratio reading. Shares of one
whole add up: "the total percentage of revenue from Apple and Huawei" is the sum of the two rows.
"""

from __future__ import annotations

from dataclasses import replace

from ragspine.facts.glossary import Glossary, SlotKind, normalize_text
from ragspine.facts.open_vocabulary import label_of, open_metric_code, stated_share_label
from ragspine.facts.ports import FactStore
from ragspine.lazy import LazyPattern
from ragspine.qa.clarify import Proceed
from ragspine.qa.intent_model import Intent
from ragspine.qa.named_parts import asks_named_parts
from ragspine.qa.render import STATED_SHARE
from ragspine.qa.slots import Assumption
from ragspine.sensitivity import Sensitivity

# "percentage of revenue", "percent of net sales", "% of total revenues", "as a percentage of", 占…的百分比, 構成比
_SHARE_WORDS = LazyPattern(r"(?<![a-z])(?:percent(?:ages?)?|%)\s+of\s+(?:the\s+)?(?:total\s+)?[a-z]+(?:\s+[a-z]+)?"
                           r"|占\S{1,12}(?:的)?(?:百分比|比例|比重)|構成比")


def stated_shares(intent: Intent, decision: Proceed, question: str, *, facts: FactStore, glossary: Glossary,
                  max_sensitivity: Sensitivity) -> tuple[Intent, Proceed] | None:
    """The intent and decision over the rows alone when they are the shares asked, stated in percent; else None."""
    slots = decision.slots
    if len(slots.metrics) < 2 or intent.arithmetic.explicit or intent.arithmetic.by_formula:
        return None
    words = _SHARE_WORDS.search(normalize_text(question).lower())
    if words is None:
        return None
    beside = _shares_stated_beside(slots.metrics, slots.entities, facts, max_sensitivity)
    if beside:  # "the percent of total sales from APAC", where the table states APAC's percent of total net sales
        arithmetic = replace(intent.arithmetic, ratio=False, share_of=False, whole=None, denominator=None,
                             parts_whole=(), parts_over=())
        # a row read from the question's words ("read 'apac' as net sales: apac") is read as its share
        read_as = dict(beside)
        assumed = tuple(replace(a, value=read_as[a.value]) if a.slot is SlotKind.METRIC and a.value in read_as else a
                        for a in slots.assumptions)
        return replace(intent, arithmetic=arithmetic), replace(
            decision, slots=replace(slots, metrics=tuple(read_as.values()), assumptions=assumed))
    stated = {code: [f for entity in slots.entities for f in facts.find(metric_code=code, entity=entity)
                     if f.sensitivity <= max_sensitivity] for code in slots.metrics}
    wholes = [code for code, found in stated.items() if not found]
    parts = tuple(code for code in slots.metrics if stated[code])
    if len(wholes) != 1 or not parts or not all(f.unit == "PCT" for code in parts for f in stated[code]):
        return None
    reading = Assumption(SlotKind.METRIC, wholes[0], "the rows are stated as the shares asked", cue=STATED_SHARE,
                         typed=words.group().strip())
    read = replace(slots, metrics=parts, assumptions=(*slots.assumptions, reading))
    # "the total percentage of revenue from A and B": shares of the one whole, added up
    added = intent.arithmetic.add or (len(parts) >= 2 and asks_named_parts(question))
    arithmetic = replace(intent.arithmetic, ratio=False, share_of=False, whole=None, denominator=None,
                         parts_whole=(), parts_over=(), add=added)
    return replace(intent, arithmetic=arithmetic), replace(decision, slots=read)


def _shares_stated_beside(metrics: tuple[str, ...], entities: tuple[str, ...], facts: FactStore,
                          max_sensitivity: Sensitivity) -> tuple[tuple[str, str], ...]:
    """Each row with its stated share of the one whole named with it (``net sales: apac, percent of total``
    for ``net sales: apac`` beside ``total net sales``); empty unless every metric but the whole has one."""
    for whole in metrics:
        rows = [m for m in metrics if m != whole]
        stated = tuple((row, code) for row in rows for code in _share_codes(whole, row)
                       if _stated_beside(code, row, entities, facts, max_sensitivity))
        if rows and len(stated) == len(rows) == len(dict(stated)):
            return stated
    return ()


def _stated_beside(share: str, row: str, entities: tuple[str, ...], facts: FactStore,
                   max_sensitivity: Sensitivity) -> bool:
    """Whether every figure of ``share`` is a percentage stated beside one of ``row``'s: the same document,
    table, row and block of columns (``…,col=Fiscal Year 2018/% of Total`` beside ``…/Net Sales``)."""
    found = [f for entity in entities for f in facts.find(metric_code=share, entity=entity)
             if f.sensitivity <= max_sensitivity]
    amounts = {(f.entity, f.period_type, f.period, f.source_doc_id, f.source_locator.rpartition("/")[0])
               for entity in entities for f in facts.find(metric_code=row, entity=entity)}
    return bool(found) and all(
        f.unit == "PCT" and "/" in f.source_locator
        and (f.entity, f.period_type, f.period, f.source_doc_id, f.source_locator.rpartition("/")[0]) in amounts
        for f in found)


def _share_codes(whole: str, row: str) -> list[str]:
    """The codes a row's share of ``whole`` is stated under: ``net sales: apac, percent of total`` of
    ``total net sales`` (its section's total), ``…, percent of net sales`` of ``net sales``."""
    label = label_of(row)
    section = label.rpartition(": ")[0]
    named = label_of(whole).lower()
    wholes = ["total"] if section and named in (section, f"total {section}") else []
    wholes += [named, named.removeprefix("total ")]
    return [code for words in dict.fromkeys(wholes)
            if (code := open_metric_code(stated_share_label(label, f"percent of {words}"))) is not None]
