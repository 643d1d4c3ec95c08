"""A row labelled with a total word alone (``Total``, ``合計``): what it totals, and whether its figures show it.

A bare total names no metric: it is the total of the rows above it. It is given their subject
(a section heading, a heading over the label column, a column naming the kind of figure) only
where its figures are the sum of those rows within rounding, so a grand total set after the last
section of a table without indentation is never read as that section's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from ragspine.numbers.cells import read_cell

BARE_TOTAL = re.compile(r"(?i:\s*(?:grand\s+)?totals?\s*[:：.]?\s*)|\s*(?:合計|合计|总计|總計|総計)\s*")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def is_bare_total(label: str) -> bool:
    """Whether a row label is a total word alone ("Total", "Total:", "Grand total", "合計")."""
    return bool(BARE_TOTAL.fullmatch(label))


def total_of(subject: str, word: str) -> str:
    """The label a bare total row states under its subject: "Total" under "Net sales" is "Total net sales"."""
    word = word.strip().rstrip(":：.").strip()
    if _CJK.search(word):
        return f"{subject}{word}"  # 流動資産 + 合計 = 流動資産合計, as Japanese and Chinese statements write it
    if subject.casefold().startswith(f"{word.casefold()} "):
        return subject  # "Total costs and expenses" states its total already
    first = subject[:1].lower() if subject[1:2].islower() else subject[:1]  # "Net sales", never "NET SALES" lowered
    return f"{word.capitalize()} {first}{subject[1:]}"


def states_the_sum(rows: Sequence[Sequence[str]], total_row: int, parts: Sequence[int], columns: Sequence[int]) -> bool:
    """Whether ``total_row`` states the sum of the ``parts`` rows in every column checked, within rounding.

    Rounding is half a unit of the last written decimal per part; percentage cells are left
    aside (a row of ``100%`` alone sums nothing). At least one column must check.
    """
    checked = False
    for c in columns:
        total = read_cell(rows[total_row][c])
        if total is None or total.percent:
            continue
        values = [Decimal(str(n.value)) for p in parts if (n := read_cell(rows[p][c])) is not None and not n.percent]
        stated = Decimal(str(total.value))
        if not values:
            return False
        places = max(-min(int(v.as_tuple().exponent) for v in [*values, stated]), 0)
        if abs(sum(values) - stated) > Decimal(len(values)) * Decimal(5) / Decimal(10) ** (places + 1):
            return False
        checked = True
    return checked
