"""Tied rows of one line item told apart when one stands under a heading of shares the question does not ask.

A table may state a line item twice: its amount under one heading ("Participating shares at end of
period: Unvested restricted stock", 0.6) and its share under another ("Percentage of loss allocated to:
Unvested restricted stock", 1.3 %). A question naming the item alone ("the average unvested restricted
stock") asks the amount: a share is asked in words ("the percentage of loss allocated to …", "… as a
percentage of …"). Kept only where the tied rows share their line item, exactly one row stands under no
heading of shares, and the question writes no word of a share; otherwise every tied row stays offered back.
"""

from __future__ import annotations

from ragspine.facts.open_vocabulary import label_of
from ragspine.lazy import LazyPattern

# A heading of shares: "Percentage of loss allocated to", "% of total", "Proportion of sales"
_SHARES_HEADING = LazyPattern(r"(?<![a-z])(?:percent(?:age)?s?|proportions?)(?![a-z])|%")
# A question asking a share: "percentage", "percent", "%", "proportion", "share of", "ratio"
_SHARE_ASKED = LazyPattern(r"(?<![a-z])(?:percent(?:age)?s?|proportions?|ratios?|fractions?|share\s+of)(?![a-z])|%")


def amounts_unless_shares_asked(chosen: list[str], norm: str) -> list[str]:
    """The one tied row standing under no heading of shares, where the question asks no share; else all of them."""
    if len(chosen) < 2 or _SHARE_ASKED.search(norm):
        return chosen
    parts = [label_of(code).rpartition(": ") for code in chosen]
    if len({item for _, _, item in parts}) != 1:
        return chosen
    amounts = [code for code, (heading, _, _) in zip(chosen, parts, strict=True)
               if not _SHARES_HEADING.search(heading)]
    return amounts if len(amounts) == 1 else chosen
