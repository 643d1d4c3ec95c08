"""Header cells as converters split or set them: a heading's tail in the next cell, a date's day in the corner.

Two layouts of the rows over a table's labels leave a heading where the reader cannot use it:

* A merged heading broken over two cells, its end written again in the cell right of it
  (``Years Ended December 31, | 31,`` over ``2019 | 2018 | 2017``). Read as it stands, the tail
  ``31,`` is a header of its own: the column under it names no period and is skipped. A header
  cell whose whole text ends the written heading left of it, at a word's start and without a
  year of its own, is that heading's remainder and is dropped, so the heading spans the columns.
* A month and day without a year written alone in the corner over the row labels
  (``October 31,`` over a row of ``2019 | 2018``). There it heads no column, so the columns'
  locators lose the date the years are at, and a question naming ``October 31, 2019`` finds no
  figure stated at that date. It is moved over the first value column, where a merged heading
  stands and heads every column right of it.

Only rows above the body (those before the first row with a label and a figure) are touched, and for the
split tails also the header rows a grid sets again inside its body over a second block (no label, no figure),
so that block's headers read as the first block's do (``table_blocks``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.facts.fiscal_dates import MONTH_PATTERN
from ragspine.numbers.cells import read_cell

# A month and day with no year: "October 31,", "Dec. 31", "31 December".
_MONTH_DAY = re.compile(rf"(?:{MONTH_PATTERN}\s+\d{{1,2}}|\d{{1,2}}\s+{MONTH_PATTERN}),?", re.IGNORECASE)
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
_LETTER = re.compile(r"[^\W\d_]")


def headings_made_whole(rows: Sequence[Sequence[str]]) -> list[list[str]]:
    """``rows`` with each split heading's tail dropped and a corner month and day set over the value columns."""
    out = [list(row) for row in rows]
    start = _body_start(out)
    for row in out[:start]:
        if len(row) < 2:
            continue
        _drop_split_tails(row)
        if _MONTH_DAY.fullmatch(row[0].strip()) and not any(cell.strip() for cell in row[1:]):
            row[0], row[1] = "", row[0].strip()
    for row in out[start:]:
        if len(row) >= 2 and not row[0].strip() and all(read_cell(cell) is None for cell in row[1:]):
            _drop_split_tails(row)  # a header row set again over the next block
    return out


def _body_start(rows: Sequence[Sequence[str]]) -> int:
    """The first row with a label and a figure beside it (the rows above it are headers)."""
    for r, row in enumerate(rows):
        if row and row[0].strip() and any(read_cell(cell) is not None for cell in row[1:]):
            return r
    return len(rows)


def _drop_split_tails(row: list[str]) -> None:
    """Blank each value cell whose text is the end of the written heading left of it (``… December 31, | 31,``)."""
    left = ""
    for c in range(1, len(row)):
        text = " ".join(row[c].split())
        if not text:
            continue
        if (left and len(text) < len(left) and left.endswith(" " + text) and not _YEAR.search(text)
                and _LETTER.search(left) and read_cell(left) is None):
            row[c] = ""
            continue
        left = text
