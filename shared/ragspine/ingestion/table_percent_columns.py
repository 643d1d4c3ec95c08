"""Columns of percentages marked only on their first and last rows: a common-size statement.

Reports write a unit sign on a column's first and last figures and leave the rows between bare,
as they write ``$``. A statement of each line as a share of sales reads::

    Sales                | 100.0 % | 100.0 %
    Gross profit         |    40.0 |    50.9
    Operating expenses   |    33.1 |    27.0
    Net income           |   7.2 % |  20.5 %

Every figure of such a column is a percentage. Read so only where the first figure is ``100 %``
(the whole the other rows are shares of), the last figure is written with ``%`` too, and every
figure between is bare (no other sign or unit): a column of amounts with a percentage row in it
(``$182`` … ``22.6%``) is not one.

A rate reconciliation is written the same way: the statutory tax rate ``21.0%``, the items that
move it bare (``3.7``, ``(9.9)``), the effective rate ``13.0%``. Its bare figures are percentage
points where the first rate and every figure between sum to the last, within the rounding of
their written digits: the column proves it is one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import Decimal

from ragspine.numbers.cells import read_cell

# A figure written with nothing but digits, separators, signs and brackets: no currency, no unit.
_BARE = re.compile(r"[\s\d.,()+\-−–△▲]+")


def common_size_columns(rows: Sequence[Sequence[str]], body_rows: Iterable[int], columns: Iterable[int]) -> set[int]:
    """The value columns whose bare figures are percentages, by the rule of this module's docstring."""
    body = list(body_rows)
    found: set[int] = set()
    for c in columns:
        cells = [rows[r][c].strip() for r in body if c < len(rows[r]) and read_cell(rows[r][c]) is not None]
        if len(cells) < 3:
            continue
        first, last = read_cell(cells[0]), read_cell(cells[-1])
        if first is None or last is None or not (first.percent and last.percent):
            continue
        if all(_BARE.fullmatch(cell) for cell in cells[1:-1]) and (first.value == 100 or _reconciles(cells)):
            found.add(c)
    return found


def _reconciles(cells: Sequence[str]) -> bool:
    """Whether the first figure and those between sum to the last, each within half a unit of its last digit."""
    figures = [Decimal(str(number.value)) for cell in cells if (number := read_cell(cell)) is not None]
    if len(figures) != len(cells):
        return False
    slack = sum((Decimal(5) / Decimal(10) ** (max(-f.as_tuple().exponent, 0) + 1)  # type: ignore[operator]
                 for f in figures), Decimal(0))
    return abs(sum(figures[:-1], Decimal(0)) - figures[-1]) <= slack
