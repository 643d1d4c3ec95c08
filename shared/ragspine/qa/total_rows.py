"""Whether a metric is a total row: the whole a share divides by, the grand total a sum of named parts replaces.

A total row is one of the glossary's own totals (``TOTAL_ASSETS``) or a document's row whose own
line item is named as a total: it begins with a total word ("Total fees", "Total contractual
obligations") or, as Chinese and Japanese statements write it, ends with one (净销售额合计, 流動資産合計).
"""

from __future__ import annotations

from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.lazy import LazyPattern

# The words of a sum (those the question's sum cue reads), leading a row's own line item: "Total fees".
_LEADING_TOTAL = LazyPattern(r"(?:total|sum|altogether|in total|combined)(?![a-z])|合计|总计|总和|合計|合算")
_CJK_TOTALS = ("合计", "合計", "总计", "總計", "总额", "総額")


def is_a_total(metric: str) -> bool:
    """Whether a metric is a total row ("Total net sales", 净销售额合计, the glossary's TOTAL_ASSETS)."""
    if metric.startswith("TOTAL_"):
        return True
    if not metric.startswith(METRIC_PREFIX):
        return False
    item = label_of(metric).rpartition(": ")[2]  # a row under its section: the row's own words
    return bool(_LEADING_TOTAL.match(item)) or item.endswith(_CJK_TOTALS)
