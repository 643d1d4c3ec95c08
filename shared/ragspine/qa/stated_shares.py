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
from ragspine.facts.ports import FactStore
from ragspine.lazy import LazyPattern
from ragspine.qa.clarify import Proceed
from ragspine.qa.intent_model import Intent
from ragspine.qa.named_parts import asks_named_parts
from ragspine.qa.render import STATED_SHARE
from ragspine.qa.slots import Assumption
from ragspine.sensitivity import Sensitivity

# "percentage of revenue", "percent of net sales", "% of total revenues", "as a percentage of", 占…的百分比, 構成比
_SHARE_WORDS = LazyPattern(r"(?<![a-z])(?:percent(?:age)?|%)\s+of\s+(?:the\s+)?(?:total\s+)?[a-z]+(?:\s+[a-z]+)?"
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
