"""Liabilities a balance sheet writes in brackets because it deducts them: read at their size.

A UK "net assets" balance sheet subtracts its liabilities on the way from total assets to net
assets, and shows that by writing them in brackets: ``Current liabilities (239,410)``, ``Total
liabilities (498,045)``. The liability is 239,410; the brackets are the layout's minus sign. A
check such as "total assets = net assets + total liabilities" or a current ratio needs the size.

Only a liabilities section of the table is read so, cell by cell down each column: a run of
figures written negative, uninterrupted by a figure at its size, that either holds the section's
own total written negative (``Current liabilities``, ``Total liabilities``, ``Creditors: amounts
falling due within one year``) or fills a section under a heading of those words up to its end
(the next heading, a ``Net …`` or ``Total …`` row, the table's end). A result line (``Net current
assets``, ``Net assets``, ``Net current liabilities``) is the balance the deduction leaves, never
part of the section: it keeps its sign, as does every figure outside such a section (a loss, a
negative change, a deduction of an asset). A statement writing its liabilities at their size
has no such run, so nothing changes there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.ingestion.table_axes import TableShape, clean_label
from ragspine.numbers.cells import read_cell

# A liabilities section named by itself: its heading, or its total ("Total current liabilities").
_SECTION = re.compile(r"(?i)(?:total\s+)?(?:(?:current|non[-\s]?current|long[-\s]term|short[-\s]term)\s+)?"
                      r"liabilities|creditors\b.*\bfalling\s+due\b.*")
# A row closing a section: the balance the deduction leaves ("Net current assets"), or a total.
_RESULT = re.compile(r"(?i)net\b")
_TOTAL = re.compile(r"(?i)total\b")


def deducted_liabilities(rows: Sequence[Sequence[str]], shape: TableShape) -> frozenset[tuple[int, int]]:
    """The cells ``(row, column)`` of ``rows`` that a liabilities section writes negative as a deduction."""
    cells: set[tuple[int, int]] = set()
    for c in shape.col_headers:
        cells.update((r, c) for r in _deducted_rows(rows, shape, c))
    return frozenset(cells)


def _deducted_rows(rows: Sequence[Sequence[str]], shape: TableShape, c: int) -> list[int]:
    """The rows of column ``c`` in a deducted liabilities section."""
    found: list[int] = []
    run: list[int] = []  # rows written negative since the last figure at its size, heading or closing row
    headed = False  # the run began right under a heading naming a liabilities section
    for r, row in enumerate(rows):
        if r in shape.header_rows:
            continue
        label = _label(row, shape, r)
        values = row[shape.label_cols:]
        if not any(cell.strip() for cell in values):  # a heading (or a blank line): a section ends, another begins
            if label:
                found += _section(run, rows, shape, headed, closed=True)
                run, headed = [], bool(_SECTION.fullmatch(label))
            continue
        number = read_cell(row[c]) if c < len(row) else None
        if number is None:
            continue  # no figure in this column: the run goes on
        closing = bool(_RESULT.match(label) or _TOTAL.match(label) and not _SECTION.fullmatch(label))
        if closing or number.value >= 0:
            found += _section(run, rows, shape, headed, closed=closing)
            run, headed = [], False
            continue
        run.append(r)
    return found + _section(run, rows, shape, headed, closed=True)


def _section(run: list[int], rows: Sequence[Sequence[str]], shape: TableShape, headed: bool,
             *, closed: bool) -> list[int]:
    """``run`` when it is a deducted liabilities section: it holds its own total, or fills its heading's section."""
    if any(_SECTION.fullmatch(_label(rows[r], shape, r)) for r in run) or (run and headed and closed):
        return run
    return []


def _label(row: Sequence[str], shape: TableShape, r: int) -> str:
    """The row's own label (its last label column), without note marks or a closing colon."""
    labels = shape.row_labels.get(r)
    text = labels[-1] if labels else (row[shape.label_cols - 1] if shape.label_cols else "")
    return clean_label(text).rstrip(":：").strip()
