"""Whether a metric named over a table names the table's item or only ends a longer item's name.

A table whose rows and columns name no metric takes it from its caption, heading or lead. There the
glossary's "revenue" may be the tail of a line item it does not know: "Cost of revenue", "Deferred
revenue", 营业外收入, 其他业务收入. Read as revenue, each of that table's figures would be a wrong number,
so such a mention counts only where the words before it cannot be part of the name: the start of the
text, punctuation, a period, entity or channel the glossary reads there, or a word that qualifies a
figure without naming another item ("Total revenue", "2024年度营业收入", "分季度营业收入").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.facts.glossary import Mention, SlotKind, normalize_text

# Words before a metric's name that say how it is totalled or dated, never which item it is
_LATIN_QUALIFIERS = frozenset({
    "total", "totals", "quarterly", "annual", "yearly", "monthly", "half-year", "consolidated", "group",
    "the", "our", "its", "their",
})
# Chinese and Japanese words that date or consolidate a figure, written right before its name (分季度营业收入)
_CJK_QUALIFIERS = (
    "季度", "年度", "半年", "全年", "本年", "上年", "当年", "今年", "去年", "月度", "本期", "当期", "上期", "前期",
    "四半期", "通期", "合并", "合併", "连结", "連結",
)
# Japanese sets a figure out by segment or region with 別 ("セグメント別売上高"); 特別 and 個別 name other figures
_BY_SUFFIX = "別"
_NOT_BY = ("特別", "個別")
# A particle between a qualifier and the name ("2024年度の売上高", "2024年的营业收入")
_CJK_PARTICLES = ("の", "的")
_JOINERS = ("-", "‐", "‑")
_CONTEXT_KINDS = frozenset({SlotKind.PERIOD, SlotKind.ENTITY, SlotKind.CHANNEL})
_LAST_WORD = re.compile(r"[^\W_][\w&'’.-]*$")


def names_the_item(text: str, metric: Mention, mentions: Sequence[Mention]) -> bool:
    """Whether ``metric``, scanned from the context text ``text`` with its ``mentions``, is not the tail
    of a longer item's name."""
    norm = normalize_text(text)
    before = norm[:metric.start].rstrip()
    if before.endswith(_JOINERS) and len(before) == metric.start:  # "non-revenue": one word with the name
        return False
    if not before or not before[-1].isalnum():
        return True
    if _ends_in_a_context_word(norm, before, mentions):
        return True
    if _is_latin(norm[metric.start:metric.end]):
        word = _LAST_WORD.search(before)
        return word is not None and (word.group() in _LATIN_QUALIFIERS or word.group().isdigit())
    if before.endswith(_CJK_PARTICLES):
        before = before[:-1].rstrip()
        if not before or _ends_in_a_context_word(norm, before, mentions):
            return True
    return (before[-1].isdigit() or before.endswith(_CJK_QUALIFIERS)
            or (before.endswith(_BY_SUFFIX) and not before.endswith(_NOT_BY)))


def _ends_in_a_context_word(norm: str, before: str, mentions: Sequence[Mention]) -> bool:
    """Whether a period, entity or channel the glossary read ends right where ``before`` ends."""
    return any(m.kind in _CONTEXT_KINDS and m.code and len(norm[:m.end].rstrip()) == len(before)
               for m in mentions)


def _is_latin(name: str) -> bool:
    """Whether a name is written in Latin letters (its words are set apart by spaces, not by script)."""
    return name[:1].isascii()
