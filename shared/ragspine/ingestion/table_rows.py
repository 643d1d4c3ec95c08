"""Table rows as chunk text: ``header: value`` pairs, each row with its own locator."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ragspine.numbers import is_number

if TYPE_CHECKING:
    from ragspine.ingestion.model import Block

_CELL_ROW = re.compile(r"[A-Za-z]+(\d+)")  # xlsx cell name: C3 -> row 3
# A header cell may be a year (``2024``, ``FY2024`` is a label already): a table of years by metric
# still has its header row, and a data row read alone must still say which year each number is.
_YEAR = re.compile(r"(?:19|20)\d\d")


def table_row_texts(block: Block) -> list[tuple[str, str]]:
    """``(text, locator)`` per data row of a TABLE block.

    The first row is taken as the header when the table has more rows and that row is
    all non-empty labels or years; each data row then reads ``Region: HK; Revenue: 1320``
    so a row retrieved alone still says what its numbers are. Without a header, cells are
    joined with `` | ``. The locator is the block's plus ``row=N``: the sheet's own row
    number when the parser gave cell names (``cell_refs``), else the row's 1-based position
    in the table (the header being row 1). A table without ``rows`` falls back to one chunk
    of its flattened text.
    """
    rows = block.rows
    if not rows:
        return [(block.text.strip(), block.locator)] if block.text.strip() else []
    header = rows[0] if _is_header(rows) else None
    prefix = f"{block.caption.strip()}\n" if block.caption.strip() else ""
    out: list[tuple[str, str]] = []
    for index, row in enumerate(rows):
        if header is not None and index == 0:
            continue
        if header is not None:
            cells = [f"{h.strip()}: {v.strip()}" for h, v in zip(header, row, strict=False) if v.strip()]
            cells += [v.strip() for v in row[len(header):] if v.strip()]
            text = "; ".join(cells)
        else:
            text = " | ".join(v.strip() for v in row if v.strip())
        if text:
            out.append((prefix + text, f"{block.locator},row={row_number(block, index)}"))
    if header is not None and not out:  # a header-only table still says what it lists
        out.append((prefix + " | ".join(header), f"{block.locator},row={row_number(block, 0)}"))
    return out


def _is_header(rows: tuple[tuple[str, ...], ...]) -> bool:
    first = rows[0]
    return len(rows) > 1 and all(c.strip() and (not is_number(c) or _YEAR.fullmatch(c.strip())) for c in first)


def row_number(block: Block, index: int) -> int:
    """The sheet's row number of ``block.rows[index]`` (from its cell names, ``C3`` -> 3), else its 1-based place."""
    if index < len(block.cell_refs):
        for ref in block.cell_refs[index]:
            match = _CELL_ROW.fullmatch(ref.strip())
            if match:
                return int(match.group(1))
    return index + 1
