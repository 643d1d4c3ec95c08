"""PDF via PDFium (pypdfium2): text in reading order, headings, tables as labelled rows.

PDFium was chosen by measurement on 21 real 10-K filings (docs/evaluation.md, "Library choices"):
it joins words and lines where pypdf split them one word per line, and reads several times
faster than pypdf, pdfminer.six or pdfplumber. ``pdf_lines`` reads each line's words with
their positions and font; ``pdf_layout`` drops running headers and footers, finds headings
and tables, and rejoins paragraphs.

Blocks are located ``page=N,para=M`` (a paragraph), ``page=N,table=K`` (a table, one row a
line) and ``page=N`` (a heading), and carry the heading trail above them. Tables are given as
text (PARAGRAPH blocks, what search indexes) with their cells in ``rows``. Cells recovered
from positions can be misaligned, and a misread cell fed to fact extraction would be a wrong
number with a source, which is worse than none: so every cell is read a second time as the
page text PDFium finds inside the cell's box, and a table where any cell, row label or column
header differs (or whose reading was ambiguous) is marked in ``cell_check``; fact extraction
takes no figure from it.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import TYPE_CHECKING

from ragspine.ingestion.errors import EncryptedDocumentError
from ragspine.ingestion.model import Block, ParsedDocument
from ragspine.ingestion.parsers._blocks import one_line
from ragspine.ingestion.parsers.pdf_layout import Box, HeadingTrail, TableGrid, document_style, page_blocks
from ragspine.ingestion.parsers.pdf_lines import Line, page_lines

if TYPE_CHECKING:
    import pypdfium2 as pdfium

# PDFium is not thread-safe: one document is read at a time per process.
_PDFIUM = threading.Lock()


class PdfParser:
    """Reads text-based PDFs; scanned pages have no text layer and yield nothing (OCR first)."""

    media_types = ("application/pdf",)
    extensions = (".pdf",)

    def parse(self, data: bytes, *, doc_id: str) -> ParsedDocument:
        """Blocks page by page; a password-protected file raises ``EncryptedDocumentError``."""
        with _PDFIUM:
            document = _open(data)
            try:
                pages = [_read_page(document, i) for i in range(len(document))]
                title = one_line(str(document.get_metadata_value("Title") or ""))
                style = document_style(pages)
                trail = HeadingTrail()
                blocks: list[Block] = []
                for number, (lines, height) in enumerate(pages, start=1):
                    tables: list[TableGrid] = []
                    found = page_blocks(lines, page=number, height=height, style=style, trail=trail, tables=tables)
                    blocks.extend(_with_cells(document, number - 1, found, tables) if tables else found)
            finally:
                document.close()
        return ParsedDocument(
            doc_id=doc_id,
            title=title,
            media_type="application/pdf",
            blocks=tuple(blocks),
            metadata={"format": "pdf", "pages": str(len(pages))},
        )


def _open(data: bytes) -> pdfium.PdfDocument:
    """Open a PDF that needs no password to read (owner-password only is fine), else refuse it."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == raw.FPDF_ERR_PASSWORD:
            raise EncryptedDocumentError(
                "The PDF is password-protected; remove the password (or save an unprotected copy) and upload it again."
            ) from exc
        raise


def _with_cells(document: pdfium.PdfDocument, index: int, blocks: list[Block],
                tables: list[TableGrid]) -> list[Block]:
    """The page's blocks, each table's carrying its cells and the result of checking them against the page."""
    grids = {table.locator: table for table in tables}
    page = document[index]
    try:
        textpage = page.get_textpage()
        try:
            return [replace(b, rows=grids[b.locator].rows, cell_check=_check(textpage, grids[b.locator]))
                    if b.locator in grids else b for b in blocks]
        finally:
            textpage.close()
    finally:
        page.close()


def _check(textpage: pdfium.PdfTextPage, table: TableGrid) -> str:
    """'' when every cell is exactly the page text inside its box, else the first difference or ambiguity."""
    if table.problems:
        return table.problems[0]
    for row, boxes in zip(table.rows, table.boxes, strict=True):
        for cell, box in zip(row, boxes, strict=True):
            if box is None:
                continue
            shown = _text_in(textpage, box)
            if shown.replace(" ", "") != cell.replace(" ", ""):  # word spacing may differ ("$ 245" for "$245")
                return f"read {cell!r} where the page shows {shown!r}"
    return ""


def _text_in(textpage: pdfium.PdfTextPage, box: Box) -> str:
    """The page text inside ``box`` (a quarter point of slack each side), on one line."""
    slack = 0.25
    text = textpage.get_text_bounded(box.left - slack, box.bottom - slack, box.right + slack, box.top + slack)
    return " ".join(text.replace("\ufffe", "-").split())


def _read_page(document: pdfium.PdfDocument, index: int) -> tuple[list[Line], float]:
    page = document[index]
    try:
        textpage = page.get_textpage()
        try:
            return page_lines(textpage), float(page.get_height())
        finally:
            textpage.close()
    finally:
        page.close()
