"""A margin row that states amounts: ``Gross margin | 32,666 | 29,870`` in a table of money.

"Gross margin" names a ratio (gross profit over revenue) and, in many companies' statements, the gross
profit itself. A row of amounts is never filed under the ratio: a margin of 32,666 % is no figure. A
row is read as amounts where the table states money and every figure of it not marked ``%`` lies
beyond ±100 (a margin in percent lies within it but for losses above revenue, which a table of money
would mark ``%``). A figure marked ``%`` stays a percentage.

Such a row is the amount the margin is of, the numerator of its formula (``GROSS_PROFIT / REVENUE``),
only where its label calls it a margin in English with no word of a rate ("Gross margin", never
"Gross margin %"): 毛利率 and 売上総利益率 say "rate" in their own words and are never an amount. Nor
where a note keeps percentages out of the table's money ("in thousands, except percentages"): which
its figures are is then unsaid. Any such ratio row is left unread.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.numbers.cells import read_cell
from ragspine.numbers.units import unit_dimension

# A margin named in English with no word making it a rate: "Gross margin", "Operating margin", never
# "Gross margin %", "gross margin percentage" or "margin rate".
_MARGIN = re.compile(r"(?i)(?<![a-z])margins?(?![a-z])")
_RATE_WORDS = re.compile(r"(?i)%|％|(?<![a-z])(?:percent\w*|pct|ratios?|rates?)(?![a-z])")
# What a margin in percent stays within, but for losses above revenue (which a table of money marks ``%``).
_PERCENT_BOUND = 100


def states_amounts(cells: Iterable[str]) -> bool:
    """Whether a row's figures not marked ``%`` are amounts: each beyond ±100, where a margin in percent is not."""
    numbers = [number for cell in cells if (number := read_cell(cell)) is not None and not number.percent]
    return bool(numbers) and all(abs(n.value) > _PERCENT_BOUND for n in numbers)


def margin_amount(glossary: Glossary, ratio: str, label: str) -> str | None:
    """The money metric a ratio row of amounts is, by its label: the numerator of a margin, else None."""
    if not _MARGIN.search(label) or _RATE_WORDS.search(label):
        return None
    formula = glossary.formulas.get(ratio)
    tree = formula.tree if formula is not None else None
    if not (isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.Div) and isinstance(tree.left, ast.Name)):
        return None
    numerator = glossary.terms[SlotKind.METRIC].get(tree.left.id)
    if numerator is None or unit_dimension(numerator.unit or "") != "money":
        return None
    return tree.left.id
