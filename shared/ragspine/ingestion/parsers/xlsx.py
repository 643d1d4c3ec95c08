"""Excel (.xlsx) via openpyxl in read-only, cached-values mode: sheet regions become tables.

A sheet is cut into bands of consecutive non-empty rows. A row whose only content is one
cell (or one merged range) is a note, such as a title or a unit line ("In millions of CHF"),
not table data; notes at the top or bottom of a band become NOTE blocks and the caption of
the table they sit beside. Two bands separated by a single empty row belong to one table,
because real statements often leave a spacer row between the header and the figures.
Merged ranges: the range's value is copied into every cell it covers, so a header merged
across two columns heads both of them.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from typing import TYPE_CHECKING

from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.ingestion.parsers._blocks import locator_value, one_line, table_block, text_block
from ragspine.ingestion.parsers._xlsx_merges import CellRange, merged_ranges

if TYPE_CHECKING:
    from collections.abc import Iterable

Cell = tuple[int, int]  # (row, column), 1-based
_MAX_MERGE_FILL = 100_000  # a hostile merge over a whole column must not allocate millions of cells


class XlsxParser:
    """Reads every worksheet's cached cell values (formulas are not re-evaluated)."""

    media_types = (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "application/vnd.ms-excel.sheet.macroEnabled.12",
    )
    extensions = (".xlsx", ".xlsm")

    def parse(self, data: bytes, *, doc_id: str) -> ParsedDocument:
        """One TABLE block per sheet region (locator ``sheet=<name>``) plus NOTE blocks."""
        import openpyxl

        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            merges = merged_ranges(archive)
        workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            blocks: list[Block] = []
            sheets = [ws for ws in workbook.worksheets if hasattr(ws, "iter_rows")]
            for sheet in sheets:
                sheet.reset_dimensions()  # a stale <dimension> would pad or cut the rows we read
                values = {
                    (cell.row, cell.column): text
                    for row in sheet.iter_rows()
                    for cell in row
                    if cell.value is not None and (text := cell_text(cell.value, cell.number_format or ""))
                }
                blocks.extend(_SheetReader(sheet.title, values, merges.get(sheet.title, [])).blocks())
            title = one_line(workbook.properties.title or "")
        finally:
            workbook.close()
        return ParsedDocument(
            doc_id=doc_id,
            title=title,
            media_type=self.media_types[0],
            blocks=tuple(blocks),
            metadata={"format": "xlsx", "sheets": str(len(sheets))},
        )


def cell_text(value: object, number_format: str) -> str:
    """A cell value as text: numbers as Excel shows them at 15 significant digits, percentages scaled."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float):
        if "%" in number_format:
            return _number(value * 100) + "%"
        return _number(value)
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time(0) else value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return one_line(str(value))


def _number(value: float) -> str:
    return str(value) if isinstance(value, int) else format(value, ".15g")


class _SheetReader:
    """Turns one sheet's sparse cells into NOTE and TABLE blocks in row order."""

    def __init__(self, name: str, values: dict[Cell, str], merges: list[CellRange]) -> None:
        self.name = name
        self.values = dict(values)
        self.origin: dict[Cell, Cell] = {}
        self._fill_merges(merges)
        self.columns: dict[int, list[int]] = {}
        for row, col in sorted(self.values):
            self.columns.setdefault(row, []).append(col)

    def _fill_merges(self, merges: list[CellRange]) -> None:
        for min_row, min_col, max_row, max_col in merges:
            text = self.values.get((min_row, min_col))
            if not text or (max_row - min_row + 1) * (max_col - min_col + 1) > _MAX_MERGE_FILL:
                continue
            for row in range(min_row, max_row + 1):
                for col in range(min_col, max_col + 1):
                    self.values[(row, col)] = text
                    self.origin[(row, col)] = (min_row, min_col)

    def blocks(self) -> list[Block]:
        segments = self._segments()
        tables = [i for i, (kind, _) in enumerate(segments) if kind == "table"]
        blocks: list[Block] = []
        pending_notes: list[str] = []
        for index, (kind, rows) in enumerate(segments):
            if kind == "note":
                block = self._note(rows[0])
                blocks.append(block)
                pending_notes.append(block.text)
                continue
            caption_notes = list(pending_notes)
            if index == tables[-1]:  # notes below the last table (a unit line) describe it too
                caption_notes += [self._note(r[0]).text for k, r in segments[index + 1 :] if k == "note"]
            pending_notes = []
            table = self._table(rows, "; ".join(caption_notes))
            blocks.extend([table] if table else [])
        return blocks

    def _segments(self) -> list[tuple[str, list[int]]]:
        """Rows grouped into ("note", [row]) and ("table", rows) in sheet order."""
        segments: list[tuple[str, list[int]]] = []
        for band in _bands(sorted(self.columns)):
            notes = [self._is_note(row) for row in band]
            first = notes.index(False) if False in notes else len(band)
            last = len(band) - notes[::-1].index(False) if False in notes else len(band)
            segments.extend(("note", [row]) for row in band[:first])
            if first < last:
                previous = segments[-1] if segments else None
                if previous and previous[0] == "table" and band[first] - previous[1][-1] == 2:
                    previous[1].extend(band[first:last])  # header and figures split by one spacer row
                else:
                    segments.append(("table", band[first:last]))
            segments.extend(("note", [row]) for row in band[last:])
        return segments

    def _is_note(self, row: int) -> bool:
        return len({self.origin.get((row, col), (row, col)) for col in self.columns[row]}) == 1

    def _note(self, row: int) -> Block:
        first = (row, self.columns[row][0])
        cell = self.origin.get(first, first)
        locator = f"sheet={locator_value(self.name)},cell={_ref(cell)}"
        return text_block(BlockKind.NOTE, self.values[cell], locator, (self.name,))

    def _table(self, rows: list[int], caption: str) -> Block | None:
        span = sorted({col for row in rows for col in self.columns[row]})  # empty columns never enter
        return table_block(
            [[self.values.get((row, col), "") for col in span] for row in rows],
            cell_refs=[[_ref((row, col)) for col in span] for row in rows],
            locator=f"sheet={locator_value(self.name)}",
            heading_path=(self.name,),
            caption=caption,
        )


def _bands(rows: Iterable[int]) -> list[list[int]]:
    """Runs of consecutive row numbers."""
    bands: list[list[int]] = []
    for row in rows:
        if bands and row == bands[-1][-1] + 1:
            bands[-1].append(row)
        else:
            bands.append([row])
    return bands


def _ref(cell: Cell) -> str:
    from openpyxl.utils import get_column_letter

    return f"{get_column_letter(cell[1])}{cell[0]}"
