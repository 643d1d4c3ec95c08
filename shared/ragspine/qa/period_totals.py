"""A row's own "total" over two or more named periods: the sum of those periods' figures.

"What is the total cost of revenue in both 2019 and 2018?", "What was the total revenue of
Brantwell in 2023 and 2024?": the word "total" is also the row's own ("Total cost of revenue")
or one of the metric's names ("total revenue"), so the names blanked leave no sum word of the
question's own, and the two years would be answered one by one with their change. Written in lower case beside two or
more periods named, "total" asks their sum; each period's figure is still shown below it.

Not read so: a capitalised "Total" mid-sentence, which quotes the row's label ("What was the
Total operating expense in 2019 and 2018?" asks each year's row); "respectively" or "each",
which ask the figures one by one; any other computation asked; more than one row or company
(whose sum over the years or over the companies is left open); periods of more than one kind (a
year and its quarters never add up).
"""

from __future__ import annotations

from ragspine.lazy import LazyPattern
from ragspine.qa.arithmetic_cues import Arithmetic
from ragspine.qa.slots import ParsedSlots

_LOWER_TOTAL = LazyPattern(r"(?<![A-Za-z])total(?![A-Za-z])")
_ONE_BY_ONE = LazyPattern(r"(?i)(?<![a-z])(?:respectively|each)(?![a-z])")


def totals_named_periods(question: str, arithmetic: Arithmetic, slots: ParsedSlots) -> bool:
    """Whether a lower-case "total", a name's own or not, asks the sum of the two or more periods the question names."""
    if not arithmetic.sum_words:
        return False
    other = (arithmetic.average or arithmetic.ratio or arithmetic.cagr or arithmetic.subtract or arithmetic.add
             or arithmetic.entity_gap or arithmetic.consistency or arithmetic.change or arithmetic.share_of)
    if other or len(slots.metrics) != 1 or len(slots.entities) > 1 or len(slots.periods) < 2:
        return False
    if len({period.period_type for period in slots.periods}) != 1:
        return False
    return _LOWER_TOTAL.search(question) is not None and _ONE_BY_ONE.search(question) is None
