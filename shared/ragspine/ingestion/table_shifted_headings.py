"""Section headings a converter set in the first value column instead of the label column.

PDF-to-table converters often centre a section heading (``Expenses:``, ``Cloud and License
Revenues:``) into the first value column, leaving the label cell blank. Read where it stands, the
heading is a header of one period's column (its other columns then lack it) or a row without a
label among the figures. A row whose label cells are blank and whose one written cell is a text
ending in a colon, holding no figure, is such a heading: it is read as written in the label
column, so it heads the rows below it as any section heading does.
"""

from __future__ import annotations

from collections.abc import Sequence

from ragspine.numbers.cells import read_cell

_COLONS = (":", "：")


def headings_into_label_column(rows: Sequence[Sequence[str]]) -> list[list[str]]:
    """``rows`` with each shifted section heading moved into the first column (the other rows as they are)."""
    moved = [list(row) for row in rows]
    if not any(len(row) > 1 and read_cell(row[1]) is not None for row in moved):
        return moved  # the second column holds no figure: a label column (``Segment | Metric``), not shifted into
    for row in moved:
        if len(row) < 3 or row[0].strip():
            continue
        written = [c for c in range(1, len(row)) if row[c].strip()]
        if len(written) != 1 or written[0] != 1:
            continue
        text = row[1].strip()
        if text.endswith(_COLONS) and read_cell(text) is None and any(ch.isalpha() for ch in text):
            row[0], row[1] = text, ""
    return moved
