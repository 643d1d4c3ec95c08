"""One grid holding several tables: headers set again inside the body start a new table.

A quarters table sets ``Fiscal 2019 | First … Fourth Quarter`` over its first block of rows and
``Fiscal 2018 | First … Fourth Quarter`` again over a second one. Read as one table, the second
block's rows would sit under the first block's headers (fiscal 2019). Where rows below the body
write text in the very cells the header rows write (no figure, and no label other than the header
rows' own corner text, such as ``(In Millions)`` written again over a roll-forward of the year
before) followed by rows of figures, each block is read as its own table under its own headers.

A second table may also open with a header row of its own inside the body, a label beside its
periods (``Breakup of revenue growth | FY 2019 (%) | FY 2018 (%)`` under ``Currency | Weightage (%) |
FY 2019 | FY 2018``), set one column apart from the first table's. Read under the first headers,
its FY 2018 cells would be filed under FY 2019; such a row (every value cell written names a
period, no figure, a row of figures after it) starts a block read under its own periods.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


def header_blocks(rows: Sequence[Sequence[str]], header_rows: Sequence[int], label_cols: int,
                  is_figure: Callable[[str], bool],
                  names_period: Callable[[str], bool] = lambda _: False) -> list[tuple[int, int]]:
    """The ``(start, end)`` row ranges of the tables a grid holds; one range when headers are never set again.

    ``header_rows`` are the grid's header rows (above its first body row) and ``label_cols``
    its label columns. A block starts where as many rows as the headers write text in the same
    columns as the headers do, with blank labels and no figure, and a row with a figure follows;
    or at a row whose value cells written (two or more) each name a period (``names_period``),
    with no figure, and a row with a figure follows.
    """
    if not header_rows or header_rows[0] != 0:
        return [(0, len(rows))]
    height = len(header_rows)
    layout = [_written(rows[h], label_cols) for h in header_rows]
    if not any(layout):
        return [(0, len(rows))]
    # the header rows' own label cells ("(In Millions)" in the corner), which a header set again may repeat
    corners = [_labels(rows[h], label_cols) for h in header_rows]
    starts = [0]
    in_headers: set[int] = set()
    r = height + 1
    while r + height < len(rows):
        candidate = rows[r:r + height]
        if (all(_written(row, label_cols) == want for row, want in zip(candidate, layout, strict=True))
                and all(_header_like(row, label_cols, is_figure, corner)
                        for row, corner in zip(candidate, corners, strict=True))
                and any(is_figure(cell) for cell in rows[r + height][label_cols:])):
            starts.append(r)
            in_headers.update(range(r, r + height))
            r += height + 1
            continue
        if _periods_row(rows[r], label_cols, is_figure, names_period) \
                and any(is_figure(cell) for cell in rows[r + 1][label_cols:]):
            starts.append(r)
            in_headers.add(r)
        r += 1
    # any other such row in the body (a year over the second block whose first year is the caption's) leaves the
    # blocks in doubt: the grid stays one table
    if any(_header_like(rows[b], label_cols, is_figure) and _written(rows[b], label_cols)
           for b in range(height, len(rows)) if b not in in_headers):
        return [(0, len(rows))]
    return [(start, end) for start, end in zip(starts, [*starts[1:], len(rows)], strict=True)]


def _periods_row(row: Sequence[str], label_cols: int, is_figure: Callable[[str], bool],
                 names_period: Callable[[str], bool]) -> bool:
    """A header row set inside the body: two or more value cells written, each naming a period, and no figure."""
    written = [row[c] for c in _written(row, label_cols)]
    return (len(written) >= 2 and all(names_period(cell) for cell in written)
            and not any(is_figure(cell) for cell in row))


def _header_like(row: Sequence[str], label_cols: int, is_figure: Callable[[str], bool],
                 corner: tuple[str, ...] | None = None) -> bool:
    """A row with no figure whose labels are blank, or the header row's own label cells written again."""
    labels = _labels(row, label_cols)
    return (not any(labels) or (corner is not None and any(corner) and labels == corner)) and not any(
        is_figure(cell) for cell in row)


def _labels(row: Sequence[str], label_cols: int) -> tuple[str, ...]:
    """A row's label cells as written, stripped."""
    return tuple(cell.strip() for cell in row[:label_cols])


def _written(row: Sequence[str], label_cols: int) -> frozenset[int]:
    """The value columns a row writes text in."""
    return frozenset(c for c in range(label_cols, len(row)) if row[c].strip())
