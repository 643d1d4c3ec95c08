"""A question naming the total of a glossary metric ("total sales", 売上高合計) reaches the table's total row of it.

A fresh glossary reads "total sales" as its total channel ("total") and its revenue ("sales"):
the figure of all channels, which a statement of line items never states. The document's own
row "Total net sales" (or ``Revenue: Total``, 净销售额合计) is the figure the question names. The pair
is read as that row when exactly one total row of the documents is a total of those words: its
words, less the total word and "net", are words the metric was named by. A row of anything
else ("Total cost of revenue", "Cloud revenues: Total revenues") is never read so, and two such
rows leave the question as it was (the glossary's metric, or its "no data" line).
"""

from __future__ import annotations

from ragspine.facts.glossary import Glossary, Mention, SlotKind, normalize_text
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.lazy import LazyPattern
from ragspine.qa.label_words import label_words
from ragspine.qa.total_rows import is_a_total

# The words that make a row a total, and "net": "Total net sales" is the total of sales as stated.
_TOTAL_WORDS = frozenset({"total", "totals", "grand", "net"})
_CJK_TOTAL = LazyPattern(r"(?:合计|合計|总计|總計|总额|総額)$")
_CJK_NET = ("净", "純", "纯")
_ASCII_TOTAL = LazyPattern(r"(?:grand\s+)?totals?")


def with_total_rows_read(question: str, mentions: list[Mention], glossary: Glossary) -> list[Mention]:
    """``mentions`` with each total word beside a glossary metric read as the documents' one total row of it."""
    norm = normalize_text(question)
    channels = [m for m in mentions if m.kind is SlotKind.CHANNEL and _is_total_word(m.raw)]
    if not channels:
        return mentions
    metrics = [m for m in mentions if m.kind is SlotKind.METRIC and m.code and not m.code.startswith(METRIC_PREFIX)]
    rows = [code for code in glossary.terms[SlotKind.METRIC] if code.startswith(METRIC_PREFIX) and is_a_total(code)]
    if not metrics or not rows:
        return mentions
    read = list(mentions)
    for total in channels:
        for metric in metrics:
            first, second = (total, metric) if total.start < metric.start else (metric, total)
            if norm[first.end:second.start].strip() or (first is metric and total.raw.isascii()):
                continue  # "total" before its metric in English; 合计 after it in Chinese and Japanese
            named = [code for code in rows if _totals(code, metric.raw)]
            if len(named) == 1 and total in read and metric in read:
                at = read.index(first)
                read[at:at + 1] = [Mention(SlotKind.METRIC, named[0], norm[first.start:second.end], first.start,
                                           second.end)]
                read.remove(second)
    return read


def _is_total_word(raw: str) -> bool:
    text = normalize_text(raw).strip()
    return bool(_ASCII_TOTAL.fullmatch(text)) or bool(_CJK_TOTAL.fullmatch(text))


def _totals(code: str, named_by: str) -> bool:
    """Whether open row ``code`` is a total of what ``named_by`` names ("Total net sales" of "sales")."""
    label = normalize_text(label_of(code))
    if not named_by.isascii():  # no word breaks: the row is the name, "net" before it at most, then 合计
        rest = _CJK_TOTAL.sub("", label.rpartition(": ")[2])
        return rest == named_by or (rest.endswith(named_by) and rest[:-len(named_by)] in _CJK_NET)
    own = label_words(label) - _TOTAL_WORDS
    return bool(own) and own <= label_words(named_by)
