"""Render the region of a document one locator points at: the cells, slide table, paragraph or page.

Only the region leaves the server, never the file: a worksheet window around the cited cell with
its row and column headers, the slide's table, the docx paragraph or table, a PDF page as a PNG.
Locators are the ingestion parsers' own (``sheet=2024,cell=B2``, ``slide=2,table=1,row=REVENUE,col=FY2024``,
``heading=概要,para=2``, ``table=1,row=…,col=…``, ``page=1,para=3``; an undated table cell's may end
``,date=…``, the date its table states).
"""

from __future__ import annotations

import base64
import io
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from ragspine.errors import InvalidInputError, NotFoundError

_PAIR = re.compile(r"(?P<key>sheet|cell|slide|table|row|col|heading|para|page|date)=(?P<value>.*?)"
                   r"(?=,(?:sheet|cell|slide|table|row|col|heading|para|page|date)=|$)")
_HEADING = re.compile(r"^heading\s*[1-9]$", re.IGNORECASE)  # the docx parser's heading styles
_CELL = re.compile(r"^(?P<col>[A-Z]{1,3})(?P<row>[1-9][0-9]{0,6})$")
MAX_COLUMN, MAX_ROW = 16384, 1048576
WINDOW = 3  # rows and columns shown on each side of a cited worksheet cell
PDF_SCALE = 1.5  # 108 dpi: legible, and a page stays well under 300 KB as PNG


class UnknownLocatorError(NotFoundError):
    """The locator names no place in this document (a sheet, slide, table or paragraph it lacks)."""


@dataclass(frozen=True, slots=True)
class Region:
    """What the evidence panel shows: a table with one highlighted cell, a passage, or a page image."""

    format: Literal["table", "text", "image"]
    title: str
    rows: tuple[tuple[str, ...], ...] = ()
    highlight: tuple[int, int] | None = None  # (row, column) in ``rows``
    header_rows: int = 0  # leading rows of ``rows`` that are column headers
    header_cols: int = 0  # leading columns that are row headers
    text: str = ""
    image: str = ""  # data: URL of a PNG
    box: tuple[float, float, float, float] | None = None  # highlighted box in image pixels (x0, y0, x1, y1)
    extra: dict[str, Any] = field(default_factory=dict)


def parse_locator(locator: str) -> dict[str, str]:
    """``sheet=2024,cell=B2`` -> ``{"sheet": "2024", "cell": "B2"}`` (values may hold commas)."""
    return {m["key"]: m["value"] for m in _PAIR.finditer(locator)}


def render_region(data: bytes, suffix: str, locator: str, *, find: str | None = None) -> Region:
    """The region of ``data`` (a ``suffix`` file) at ``locator``; ``find`` is text to box on a PDF page.

    Raises:
        UnknownLocatorError: the locator names nothing in this document.
        InvalidInputError: the format has no region renderer.
    """
    parts = parse_locator(locator)
    if suffix == ".xlsx":
        return _xlsx(data, parts)
    if suffix == ".pptx":
        return _pptx(data, parts)
    if suffix == ".docx":
        return _docx(data, parts)
    if suffix == ".pdf":
        return _pdf(data, parts, find)
    if suffix in (".md", ".txt", ".html", ".htm"):
        return _plain(data, parts)
    raise InvalidInputError(f"no evidence view for {suffix} files; the citation {locator!r} is still in the answer")


def _xlsx(data: bytes, parts: dict[str, str]) -> Region:
    from openpyxl import load_workbook
    from openpyxl.utils.cell import get_column_letter

    letters, row, col = _cell_ref(parts.get("cell", "A1"))
    book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    sheet_name = parts.get("sheet", "")
    if sheet_name not in book.sheetnames:
        raise UnknownLocatorError(f"the workbook has no sheet {sheet_name!r}; sheets: {', '.join(book.sheetnames)}")
    sheet = book[sheet_name]
    first_row, last_row = max(2, row - WINDOW), row + WINDOW
    first_col, last_col = max(2, col - WINDOW), col + WINDOW
    grid: dict[tuple[int, int], str] = {}
    # The header row, then only the window's rows: a far-away cell never reads the rows before it.
    for start, end in ((1, 1), (first_row, last_row)):
        for r, line in enumerate(sheet.iter_rows(min_row=start, max_row=end, max_col=last_col, values_only=True),
                                 start):
            grid.update({(r, c): _cell_text(v) for c, v in enumerate(line, 1)})
    filled = [key for key, text in grid.items() if text]
    last_row = max(row, min(last_row, max((r for r, _ in filled), default=row)))
    last_col = max(col, min(last_col, max((c for _, c in filled), default=col)))
    columns = list(range(first_col, last_col + 1))
    lines = [tuple(["", "A", *[get_column_letter(c) for c in columns]]),
             tuple(["1", grid.get((1, 1), ""), *[grid.get((1, c), "") for c in columns]])]
    for r in range(first_row, last_row + 1):
        lines.append(tuple([str(r), grid.get((r, 1), ""), *[grid.get((r, c), "") for c in columns]]))
    highlight = (2 + row - first_row, 2 + columns.index(col)) if row >= first_row and col in columns else None
    return Region(format="table", title=f"{sheet_name}!{letters}{row}", rows=tuple(lines), highlight=highlight,
                  header_rows=2, header_cols=2, extra={"sheet": sheet_name, "cell": f"{letters}{row}"})


def _cell_ref(ref: str) -> tuple[str, int, int]:
    """``D2`` -> ("D", 2, 4) within Excel's grid (XFD1048576).

    Raises:
        UnknownLocatorError: not a cell reference, or outside the grid.
    """
    from openpyxl.utils.cell import column_index_from_string

    match = _CELL.match(ref.strip().upper())
    if match is None:
        raise UnknownLocatorError(f"cell={ref!r} is not a cell reference; cite it as cell=D2")
    letters, row = match["col"], int(match["row"])
    col = column_index_from_string(letters)
    if col > MAX_COLUMN or row > MAX_ROW:
        raise UnknownLocatorError(f"cell={ref!r} is outside a worksheet (last cell XFD1048576)")
    return letters, row, col


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _pptx(data: bytes, parts: dict[str, str]) -> Region:
    from pptx import Presentation
    from pptx.shapes.graphfrm import GraphicFrame

    deck = Presentation(io.BytesIO(data))
    number = _int(parts, "slide")
    if not 1 <= number <= len(deck.slides):
        raise UnknownLocatorError(f"the deck has {len(deck.slides)} slides, not slide {number}")
    slide = deck.slides[number - 1]
    title = slide.shapes.title.text_frame.text if slide.shapes.title is not None else f"slide {number}"
    tables = [s.table for s in slide.shapes if isinstance(s, GraphicFrame) and s.has_table]
    if "table" not in parts:
        text = "\n".join(s.text_frame.text for s in slide.shapes if s.has_text_frame)
        return Region(format="text", title=title, text=text)
    index = _int(parts, "table")
    if not 1 <= index <= len(tables):
        raise UnknownLocatorError(f"slide {number} has {len(tables)} tables, not table {index}")
    rows = tuple(tuple(cell.text.strip() for cell in row.cells) for row in tables[index - 1].rows)
    return Region(format="table", title=title, rows=rows, highlight=_labelled_cell(rows, parts),
                  header_rows=1, header_cols=1)


def _labelled_cell(rows: tuple[tuple[str, ...], ...], parts: dict[str, str]) -> tuple[int, int] | None:
    """The cell at row label ``row=`` and column header ``col=`` (first row and column hold the labels)."""
    if not rows or "row" not in parts or "col" not in parts:
        return None
    r = next((i for i, row in enumerate(rows) if row and row[0].strip() == parts["row"].strip()), None)
    c = next((j for j, head in enumerate(rows[0]) if head.strip() == parts["col"].strip()), None)
    return (r, c) if r is not None and c is not None else None


def _docx(data: bytes, parts: dict[str, str]) -> Region:
    from docx import Document

    document = Document(io.BytesIO(data))
    if "table" in parts:
        index = _int(parts, "table")
        if not 1 <= index <= len(document.tables):
            raise UnknownLocatorError(f"the document has {len(document.tables)} tables, not table {index}")
        rows = tuple(tuple(cell.text.strip() for cell in row.cells) for row in document.tables[index - 1].rows)
        return Region(format="table", title=f"table {index}", rows=rows, highlight=_labelled_cell(rows, parts),
                      header_rows=1, header_cols=1)
    paragraphs = [(p.style.name if p.style is not None else "", p.text.strip()) for p in document.paragraphs]
    return _section_paragraph([(_HEADING.match(style) is not None, text) for style, text in paragraphs if text], parts)


def _section_paragraph(items: list[tuple[bool, str]], parts: dict[str, str]) -> Region:
    """The ``para=n``-th paragraph under heading ``heading=`` (before any heading when none is named).

    A locator naming only a heading is the whole section: its heading and every paragraph under it.
    """
    heading = parts.get("heading")
    para = int(parts["para"]) if parts.get("para", "").isdigit() else 0
    current: str | None = None
    count = 0
    section: list[str] = []
    for is_heading, text in items:
        if is_heading:
            if section:
                break
            current, count = text, 0
            if heading is not None and _same(text, heading) and para == 0:
                section.append(text)
            continue
        count += 1
        if section:
            section.append(text)
            continue
        in_section = current is None if heading is None else current is not None and _same(current, heading)
        if in_section and count == para:
            return Region(format="text", title=current or "", text=text)
    if section:
        return Region(format="text", title=section[0], text="\n\n".join(section[1:]) or section[0])
    raise UnknownLocatorError(f"no paragraph {para} under heading {heading!r} in this document")


def _same(text: str, label: str) -> bool:
    return " ".join(text.split())[:len(label)] == label or " ".join(text.split()) == label


def _plain(data: bytes, parts: dict[str, str]) -> Region:
    items: list[tuple[bool, str]] = []
    for block in re.split(r"\n\s*\n", data.decode("utf-8", errors="replace")):
        block = block.strip()
        if not block:
            continue
        heading = re.match(r"#{1,6}\s+(.*)", block)
        if heading and "\n" not in block:
            items.append((True, heading.group(1).strip()))
        elif heading:
            first, rest = block.split("\n", 1)
            items.extend([(True, first.lstrip("# ").strip()), (False, rest.strip())])
        else:
            items.append((False, block))
    return _section_paragraph(items, parts)


def _pdf(data: bytes, parts: dict[str, str], find: str | None) -> Region:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(data)
    try:
        number = _int(parts, "page")
        if not 1 <= number <= len(document):
            raise UnknownLocatorError(f"the PDF has {len(document)} pages, not page {number}")
        page = document[number - 1]
        height = page.get_height()
        box = _find_box(page, find, parts) if (find or "row" in parts) else None
        image = page.render(scale=PDF_SCALE).to_pil()
        out = io.BytesIO()
        image.convert("L").save(out, format="PNG", optimize=True)
        pixel_box = None
        if box is not None:
            left, bottom, right, top = box
            pixel_box = (left * PDF_SCALE, (height - top) * PDF_SCALE, right * PDF_SCALE, (height - bottom) * PDF_SCALE)
        return Region(format="image", title=f"page {number}",
                      image="data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii"),
                      box=pixel_box, extra={"width": image.width, "height": image.height})
    finally:
        document.close()


def _find_box(page: Any, find: str | None, parts: dict[str, str]) -> tuple[float, float, float, float] | None:
    """The page box (PDF points) of ``find`` on the page; for a table cell, the hit on the row label's line."""
    textpage = page.get_textpage()
    try:
        hits = {t: _hits(textpage, t) for t in (parts.get("row"),) if t}
        found = _longest_prefix_hits(textpage, find) if find else []
        if find and "row" in parts and hits.get(parts["row"]):
            row_box = hits[parts["row"]][0]
            same_line = [b for b in found if abs((b[1] + b[3]) / 2 - (row_box[1] + row_box[3]) / 2) < 4]
            found = same_line or found
        if found:
            return found[0]
        return hits[parts["row"]][0] if "row" in parts and hits.get(parts["row"]) else None
    finally:
        textpage.close()


def _longest_prefix_hits(textpage: Any, text: str) -> list[tuple[float, float, float, float]]:
    """Hits of ``text``, else of its longest word prefix found (a passage wraps lines the search cannot cross)."""
    words = text.split()
    for count in range(len(words), 0, -1):
        prefix = " ".join(words[:count])
        if count < len(words) and len(prefix) < 4:
            break
        found = _hits(textpage, prefix)
        if found:
            return found
    return []


def _hits(textpage: Any, text: str) -> list[tuple[float, float, float, float]]:
    searcher = textpage.search(text, match_case=False, match_whole_word=False)
    boxes = []
    try:
        while (found := searcher.get_next()) is not None:
            start, count = found
            rects = [textpage.get_charbox(i) for i in range(start, start + count)]
            boxes.append((min(r[0] for r in rects), min(r[1] for r in rects),
                          max(r[2] for r in rects), max(r[3] for r in rects)))
    finally:
        searcher.close()
    return boxes


def _int(parts: dict[str, str], key: str) -> int:
    value = parts.get(key, "")
    if not value.isdigit():
        raise UnknownLocatorError(f"the locator has no {key} number (got {value!r}); cite it as {key}=N")
    return int(value)
