"""Layout analysis of PDF text lines: page furniture, headings, paragraphs and tables.

Works on the ``Line`` objects of ``pdf_lines`` (words with positions, font size and weight):

- *Furniture*: a line in the top or bottom band of the page that repeats (digits aside) on
  many pages, or is a bare page number there, is a running header or footer and is dropped.
- *Headings*: a short line set larger than the body text, set bold, or numbered like a
  filing's ``PART II`` / ``Item 7.`` / ``Note 5``. Levels come from those cues (part, item,
  then font sizes from large to small, then bold body text), and each block carries the
  trail of headings above it.
- *Paragraphs*: consecutive lines are one paragraph until the vertical gap, the font size or
  a bullet says otherwise; a soft hyphen at a line end is removed, a hard one kept.
- *Tables*: runs of lines whose words fall into columns with figures. Columns are found
  from the right edges of the figures (numbers are right-aligned); the header lines above
  give each column its label, and each row is written as
  ``row label: column label = value; …`` so a row read alone still says what its numbers are.
  The same table is also given as a grid (``TableGrid``), each cell with the page box it was
  read from, so the parser can check every cell against the page text before facts use it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from ragspine.facts.statements import is_statement_title
from ragspine.ingestion.model import Block, BlockKind
from ragspine.ingestion.parsers._blocks import locator_value, text_block
from ragspine.ingestion.parsers.pdf_lines import Line

_BAND = 0.06  # share of the page height, from the first and last text line, where headers and footers live
_REPEATED_SHARE = 0.2  # a band line on at least this share of pages (and 3) is furniture
_PAGE_NUMBER = re.compile(r"^(page\s*)?[-–—\s]*(#|[ivxlc]+)[-–—\s]*((of|/)\s*#)?$", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")
_NUMBER = re.compile(r"^[\$€£¥]?\(?[-+−]?[\$€£¥]?\d[\d,]*(\.\d+)?\)?\s?%?\)?$|^[—–-]+$|^n/?[am]$", re.IGNORECASE)
_SEPARATED = re.compile(r"\d[,.]\d")  # a figure with a thousands separator or a decimal point
_YEAR = re.compile(r"^(FY|fiscal\s)?(19|20)\d\d[A-Za-z]?$")
_UNITS = ("%", ")%", "pts", "bps")
_CURRENCY = {"$", "€", "£", "¥", "US$", "RMB", "HK$"}
_PART = re.compile(r"^part\s+[ivx]+\b", re.IGNORECASE)
_ITEM = re.compile(r"^item\s+\d+[a-c]?\b", re.IGNORECASE)
_NOTE = re.compile(r"^(note\s+\d+\b|\d+(\.\d+)*\.?\s+\S|第[一二三四五六七八九十百零\d]+[章节條条部])", re.IGNORECASE)
_BULLET = re.compile(r"^([•·▪●◦‣∙\-–—*]|\(?[a-z0-9]{1,3}\)|\d{1,2}\.)\s")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")
_LETTER = re.compile(r"[^\W\d_]")
_WORD_CHARS = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
_LINE_END_HYPHENS = ("-", "\u00ad", "\x02", "\ufffe")  # PDFium writes U+FFFE for a hyphen it sees at a line end
_HEADING_MAX_CHARS = 120
_CAPS_HEADING_MAX = 40  # a capitals-only line (not bold, not larger) longer than this is body text
_LARGER = 1.15  # a line this much larger than the body size is a heading candidate
_MAX_TRAIL = 4
# A financial statement's title (``facts.statements``) heads its page's trail at a level of
# its own, below PART (1) and Item (2), above every size or weight level.
_STATEMENT_LEVEL = 3
_HEADER_LINES = 4  # header lines looked at above a table's first row
_HEADER_CELL_MAX = 40  # a column heading is short
_CONTINUATION_GAP = 3  # lines between two parts of one table (a section line, rows the reader could not split)
_SAME_COLUMN = 4.0  # points between the right edges of one column's figures in two parts of a table
_CORNER_MAX = 90  # the corner over the labels may hold a unit note, when years head the columns


@dataclass(frozen=True, slots=True)
class Cell:
    """Adjacent words of a line separated from the next ones by a column-sized gap."""

    text: str
    left: float
    right: float


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle of the page in PDF points (y up)."""

    left: float
    bottom: float
    right: float
    top: float


@dataclass(frozen=True, slots=True)
class TableGrid:
    """A table as cells read from word positions, and where on the page each cell was read.

    ``rows`` is the header row first (the corner text, then one label per column), then each
    row label with one value per column (``""`` where the row has none); ``boxes`` has the
    same shape: the page box whose text should be exactly that cell (None: not checkable).
    ``problems`` says what made the reading ambiguous (a header over two columns, two figures
    in one column, a column without a header); such a table must not give facts.
    """

    locator: str
    rows: tuple[tuple[str, ...], ...]
    boxes: tuple[tuple[Box | None, ...], ...]
    problems: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _FoundTable:
    end: int
    header_lines: tuple[Line, ...]
    rows: tuple[tuple[str, list[Cell]], ...]
    row_lines: tuple[Line, ...]

    @property
    def text(self) -> str:
        return _render(self.header_lines, list(self.rows))


@dataclass(slots=True)
class DocumentStyle:
    """What is known about the whole document before its pages are laid out."""

    body_size: float
    large_sizes: tuple[float, ...]  # heading font sizes above the body size, largest first
    furniture: frozenset[str]
    words: frozenset[str] = frozenset()  # lower-cased words of the whole document, for hyphenation


@dataclass(slots=True)
class HeadingTrail:
    """The headings above the current position, outermost first, with their levels."""

    entries: list[tuple[int, str]] = field(default_factory=list)

    def new_page(self) -> None:
        """A statement title heads its own page only: the notes after the statements are not under it."""
        self.entries = [e for e in self.entries if e[0] != _STATEMENT_LEVEL]

    def enter(self, level: int, text: str) -> None:
        """A heading at ``level`` closes every heading at that level or deeper."""
        self.entries = [e for e in self.entries if e[0] < level][-(_MAX_TRAIL - 1):]
        self.entries.append((level, text))

    @property
    def in_statement(self) -> bool:
        """Whether this page is under a financial statement's title."""
        return any(level == _STATEMENT_LEVEL for level, _ in self.entries)

    @property
    def path(self) -> tuple[str, ...]:
        """The trail as heading texts."""
        return tuple(text for _, text in self.entries)


def document_style(pages: Sequence[tuple[Sequence[Line], float]]) -> DocumentStyle:
    """Body font size, heading sizes and the furniture keys of a document's ``(lines, height)`` pages."""
    sizes: Counter[float] = Counter()
    band_pages: Counter[str] = Counter()
    words: set[str] = set()
    for lines, height in pages:
        seen: set[str] = set()
        edges = _edges(lines)
        for line in lines:
            sizes[round(line.size, 1)] += len(line.text)
            words.update(_WORD_CHARS.findall(line.text.lower()))
            if _in_band(line, height, edges):
                seen.add(_furniture_key(line.text))
        band_pages.update(seen)
    body = sizes.most_common(1)[0][0] if sizes else 0.0
    threshold = max(3, _REPEATED_SHARE * len(pages))
    furniture = frozenset(key for key, count in band_pages.items() if count >= threshold)
    large = sorted({s for s in sizes if body and s >= body * _LARGER}, reverse=True)
    return DocumentStyle(body, tuple(large), furniture, frozenset(words))


def page_blocks(lines: Sequence[Line], *, page: int, height: float, style: DocumentStyle,
                trail: HeadingTrail, tables: list[TableGrid] | None = None) -> list[Block]:
    """The blocks of one page in reading order; ``trail`` carries headings across pages.

    When ``tables`` is given, the grid of each table found is appended to it (same locator
    as the table's text block).
    """
    edges = _edges(lines)
    kept = [line for line in lines if not _is_furniture(line, height, style, edges)]
    trail.new_page()
    blocks: list[Block] = []
    counters = {"para": 0, "table": 0}
    paragraph: list[Line] = []

    def flush() -> None:
        if paragraph:
            counters["para"] += 1
            blocks.append(text_block(BlockKind.PARAGRAPH, _join(paragraph, style.words),
                                     f"page={page},para={counters['para']}",
                                     trail.path))
            paragraph.clear()

    index = 0
    previous: _FoundTable | None = None
    while index < len(kept):
        table = _table_at(kept, index)
        if table is not None:
            if previous is not None and index - previous.end <= _CONTINUATION_GAP:
                table = _continued(previous, table)
            previous = table
            flush()
            counters["table"] += 1
            locator = f"page={page},table={counters['table']}"
            blocks.append(text_block(BlockKind.PARAGRAPH, table.text, locator, trail.path))
            if tables is not None:
                tables.append(_grid(locator, table))
            index = table.end
            continue
        line = kept[index]
        level = _heading_level(line, style)
        if level is not None and level > _STATEMENT_LEVEL and trail.in_statement:
            # A statement's bold captions ("Current liabilities:", "Years ended December 31")
            # stay in its text: the statement is packed as one section, not cut at each caption.
            level = None
        if level is not None:
            flush()
            text = line.text
            while index + 1 < len(kept) and _continues_heading(line, kept[index + 1], style):
                index += 1
                text = f"{text} {kept[index].text}"
            if is_statement_title(text):  # a title wrapped after "Statements of"
                level = _STATEMENT_LEVEL
            trail.enter(level, locator_value(text))
            blocks.append(text_block(BlockKind.HEADING, text, f"page={page}", trail.path))
        elif paragraph and not _continues(paragraph[-1], line):
            flush()
            paragraph.append(line)
        else:
            paragraph.append(line)
        index += 1
    flush()
    return blocks


# --- furniture ---------------------------------------------------------------------------

def _edges(lines: Sequence[Line]) -> tuple[float, float]:
    """The top of the highest and the bottom of the lowest line: pages are often printed with wide margins."""
    return (max((line.top for line in lines), default=0.0), min((line.bottom for line in lines), default=0.0))


def _in_band(line: Line, height: float, edges: tuple[float, float]) -> bool:
    band = height * _BAND
    return line.top >= edges[0] - band or line.bottom <= edges[1] + band


def _furniture_key(text: str) -> str:
    return _DIGITS.sub("#", " ".join(text.lower().split()))


def _is_furniture(line: Line, height: float, style: DocumentStyle, edges: tuple[float, float]) -> bool:
    if not _in_band(line, height, edges):
        return False
    key = _furniture_key(line.text)
    return key in style.furniture or bool(_PAGE_NUMBER.match(key))


# --- headings and paragraphs -------------------------------------------------------------

def _heading_level(line: Line, style: DocumentStyle) -> int | None:
    """The heading level of a line (1 = outermost), or None for body text.

    A heading is one run of words (no column gaps: a line with gaps is a table row or a
    form) with a letter, set larger or bold, or in capitals when short and without figures.
    """
    text = line.text
    if is_statement_title(text):
        return _STATEMENT_LEVEL
    if len(text) > _HEADING_MAX_CHARS or not _LETTER.search(text) or text.endswith((",", ";")):
        return None
    if text[:1].islower() or (text.startswith("(") and text.endswith(")")) or len(_cells(line)) > 1:
        return None  # a sentence's continuation, a unit line such as "(Dollars in millions)", a table row
    larger = bool(style.body_size) and line.size >= style.body_size * _LARGER
    capitals = text.isupper() and len(text) <= _CAPS_HEADING_MAX and not _DIGITS.search(text)
    if not (line.bold or larger or capitals or (_PART.match(text) or _ITEM.match(text)) and text[:1].isupper()):
        return None
    if _PART.match(text):
        return 1
    if _ITEM.match(text):
        return 2
    for rank, size in enumerate(style.large_sizes):
        if line.size >= size - 0.05:
            return _STATEMENT_LEVEL + 1 + rank
    if _NOTE.match(text) or not text.endswith("."):
        return _STATEMENT_LEVEL + 1 + len(style.large_sizes)  # bold or capitals at the body size: the innermost level
    return None  # a bold sentence


def _continues_heading(first: Line, line: Line, style: DocumentStyle) -> bool:
    """A heading wrapped onto a second line: same style, close below, itself heading-like."""
    return (abs(line.size - first.size) < 0.1 and line.bold == first.bold and _gap(first, line) < first.height * 0.6
            and _heading_level(line, style) is not None and not _PART.match(line.text) and not _ITEM.match(line.text)
            and not is_statement_title(line.text) and not is_statement_title(first.text)
            and len(first.text) + len(line.text) <= _HEADING_MAX_CHARS)


def _gap(above: Line, below: Line) -> float:
    return above.bottom - below.top


def _continues(previous: Line, line: Line) -> bool:
    """Whether ``line`` goes on the paragraph that ``previous`` ends."""
    if line.top > previous.top + 1:  # moved up: a new column or a new text box
        return False
    if _gap(previous, line) > max(previous.height, line.height) * 0.8:
        return False
    return abs(line.size - previous.size) <= 0.5 and not _BULLET.match(line.text)


def _join(lines: Iterable[Line], words: frozenset[str]) -> str:
    """Lines of one paragraph as one string: hyphenated words rejoined, CJK joined without spaces."""
    out = ""
    for line in lines:
        text = line.text
        if not out:
            out = text
        elif out.endswith(_LINE_END_HYPHENS) and text[:1].isalpha():
            out = out[:-1] + _hyphen(out[:-1], text, words) + text
        elif _CJK.match(out[-1]) and _CJK.match(text[0]):
            out += text
        else:
            out = f"{out} {text}"
    return out


def _hyphen(before: str, after: str, words: frozenset[str]) -> str:
    """The hyphen of a word broken at a line end, kept ("-") or removed ("") as the document spells it.

    ``long-`` + ``term`` stays ``long-term`` when the document writes "long-term" elsewhere;
    ``finan-`` + ``cial`` becomes ``financial`` when it writes "financial"; with neither, a
    lower-case continuation is taken as a word broken for justification and rejoined.
    """
    left = _WORD_CHARS.findall(before.lower()[-40:])
    right = _WORD_CHARS.findall(after.lower()[:40])
    if not left or not right:
        return "-"
    if f"{left[-1]}-{right[0]}" in words:
        return "-"
    if f"{left[-1]}{right[0]}" in words or after[:1].islower():
        return ""
    return "-"


# --- tables ------------------------------------------------------------------------------

def _cells(line: Line) -> list[Cell]:
    """The line's cells, computed once per line (layout analysis asks for them several times)."""
    cached: list[Cell] | None = line.__dict__.get("_cells")
    if cached is None:
        cached = line.__dict__["_cells"] = _split_cells(line)
    return cached


def _split_cells(line: Line) -> list[Cell]:
    """The line's words grouped at column-sized gaps; a lone currency sign joins its figure, a lone % its figure."""
    limit = max(3.0, 0.45 * line.size)
    groups: list[list[tuple[str, float, float]]] = []
    for word in line.words:
        if groups and word.left - groups[-1][-1][2] <= limit:
            groups[-1].append((word.text, word.left, word.right))
        else:
            groups.append([(word.text, word.left, word.right)])
    cells = [cell for g in groups for cell in _figures_apart(g)]
    merged: list[Cell] = []
    for cell in cells:
        sign_then_figure = merged and merged[-1].text in _CURRENCY and _NUMBER.match(cell.text)
        figure_then_unit = merged and cell.text in _UNITS and _NUMBER.match(merged[-1].text)
        if sign_then_figure or figure_then_unit:
            merged[-1] = Cell(f"{merged[-1].text}{cell.text}", merged[-1].left, cell.right)
        else:
            merged.append(cell)
    return merged


def _figures_apart(words: list[tuple[str, float, float]]) -> list[Cell]:
    """A group of words as one cell, or one cell per figure when the group is several figures.

    Columns set close together (or a gap measured against a wrongly scaled font) leave a row's
    figures in one group, ``$ 519,926 $ 510,329 $ 495,761``: each figure keeps its own words
    and extent, a currency sign the figure after it, so the columns are found from the figures'
    right edges as usual. Only figures that each hold a thousands separator or a decimal point
    are split (two such figures side by side are never one): a year and its footnote mark
    (``2018 (6)``) or digits grouped by spaces (``1 234 567``) stay one cell.
    """
    whole = Cell(" ".join(w[0] for w in words), words[0][1], words[-1][2])
    if len(words) < 2 or not all(w[0] in _CURRENCY or (_NUMBER.match(w[0]) and _SEPARATED.search(w[0]))
                                 for w in words):
        return [whole]
    figures: list[list[tuple[str, float, float]]] = []
    sign: list[tuple[str, float, float]] = []
    for word in words:
        if word[0] in _CURRENCY:
            sign.append(word)
            continue
        figures.append([*sign, word])
        sign = []
    if sign or len(figures) < 2:
        return [whole]  # a sign with no figure after it: not a row of figures
    return [Cell("".join(w[0] for w in f[:-1]) + f[-1][0], f[0][1], f[-1][2]) for f in figures]


def _is_years(values: Sequence[Cell]) -> bool:
    """Column headings such as ``2018 2017 2016`` look like figures but label the columns."""
    return all(_YEAR.match(c.text) for c in values)


def _is_figure(text: str) -> bool:
    return bool(_NUMBER.match(text.replace(" ", "")))


def _data_cells(line: Line) -> tuple[str, list[Cell]] | None:
    """(row label, figure cells) when the line is a table row with at least one figure."""
    cells = _cells(line)
    if not cells:
        return None
    label, values = ("", cells) if _is_figure(cells[0].text) else (cells[0].text, cells[1:])
    if not values or not all(_is_figure(c.text) for c in values) or _is_years(values):
        return None
    if not label and len(values) < 2:
        return None
    if label and len(values) == 1 and len(label) > 90:
        return None  # a sentence ending in a number, not a row
    return label, values


def _table_at(lines: Sequence[Line], start: int) -> _FoundTable | None:
    """A table starting at ``lines[start]`` (header lines first), or None.

    Up to four header lines (several cells, or years), then optionally label lines, then rows.
    """
    header_end = start
    while header_end < len(lines) and header_end - start < _HEADER_LINES and _is_header(lines[header_end]):
        header_end += 1
    first_row = header_end
    while first_row < len(lines) and first_row - header_end < 2 and _is_row_label(lines, first_row):
        first_row += 1
    if first_row >= len(lines) or _data_cells(lines[first_row]) is None:
        return None
    end = header_end
    rows: list[tuple[str, list[Cell]]] = []
    row_lines: list[Line] = []
    while end < len(lines):
        data = _data_cells(lines[end])
        if data is None and _is_row_label(lines, end):
            data = (lines[end].text, [])
        if data is None:
            break
        rows.append(data)
        row_lines.append(lines[end])
        end += 1
    if sum(1 for _, values in rows if values) < 2:
        return None
    return _FoundTable(end, tuple(lines[start:header_end]), tuple(rows), tuple(row_lines))


def _continued(previous: _FoundTable, table: _FoundTable) -> _FoundTable:
    """A table without headings right under one with headings and the same columns continues it.

    A statement is often cut by a line or two the reader cannot take as rows (a long label run
    into the next row's words by the PDF): the part below takes the column headings of the part
    above when its figures stand in the same columns (right edges within a few points), else it
    keeps none (and gives no facts).
    """
    if table.header_lines or not previous.header_lines:
        return table
    above = _columns([cell for _, values in previous.rows for cell in values])
    below = _columns([cell for _, values in table.rows for cell in values])
    if len(above) != len(below) or any(abs(a[1] - b[1]) > _SAME_COLUMN for a, b in zip(above, below, strict=True)):
        return table
    return replace(table, header_lines=previous.header_lines)


def _is_header(line: Line) -> bool:
    """Column headings: short cells, or years after a corner cell (``(Amounts in millions, except per share data)``)."""
    cells = _cells(line)
    if len(cells) < 2 or not all(len(c.text) <= _HEADER_CELL_MAX for c in cells[1:]):
        return False
    values = cells[1:] if not _YEAR.match(cells[0].text) else cells
    if len(cells[0].text) > _HEADER_CELL_MAX:
        return len(cells[0].text) <= _CORNER_MAX and _is_years(values)
    return _is_years(values) or _data_cells(line) is None


def _is_row_label(lines: Sequence[Line], index: int) -> bool:
    """A label-only line inside a table: short, followed within two lines by a figure row."""
    line = lines[index]
    if len(_cells(line)) != 1 or len(line.text) > 100:
        return False
    return any(_data_cells(lines[j]) is not None for j in range(index + 1, min(index + 3, len(lines))))


def _render(header_lines: Sequence[Line], rows: list[tuple[str, list[Cell]]]) -> str:
    columns = _columns([cell for _, values in rows for cell in values])
    labels = [""] * len(columns)
    corner: list[str] = []
    for line in header_lines:
        for cell in _cells(line):
            hits = _header_hits(columns, cell)
            if hits is None:
                corner.append(cell.text)
                continue
            for i in hits:
                labels[i] = f"{labels[i]} {cell.text}".strip()
    out: list[str] = [" ".join(corner)] if corner else []
    pending = ""
    for label, values in rows:
        if not values:
            pending = f"{pending} {label}".strip() if pending else label
            out.append(label)
            continue
        if not label and pending:
            out.pop()  # figures on their own line belong to the label line above
            label = pending
        pending = ""
        parts = []
        for cell in values:
            column = labels[_nearest(columns, cell)] if columns else ""
            parts.append(f"{column} = {cell.text}" if column else cell.text)
        out.append(f"{label}: {'; '.join(parts)}" if label else "; ".join(parts))
    return "\n".join(out)


def _header_hits(columns: list[tuple[float, float]], cell: Cell) -> list[int] | None:
    """The columns a header cell labels (None: left of every column, the corner)."""
    hit = [i for i, (left, right) in enumerate(columns) if left - 8 <= cell.right and cell.left - 4 <= right]
    if not hit and columns and cell.right < columns[0][0]:
        return None
    if len(hit) > 1:
        # Touching a column only within the slack (its "$" sign set at its far left reaching under the
        # next heading) is no hit when the heading lies over another column.
        overlapping = [i for i in hit if min(cell.right, columns[i][1]) > max(cell.left, columns[i][0])]
        hit = overlapping or hit
    return hit or [_nearest(columns, cell)]


def _grid(locator: str, table: _FoundTable) -> TableGrid:
    """The table's cells by column, with the page box of each, read as ``_render`` reads them."""
    rows = list(table.rows)
    columns = _columns([cell for _, values in rows for cell in values])
    problems: list[str] = []
    labels = [""] * len(columns)
    spans = [[left, right] for left, right in columns]
    corner: list[str] = []
    header_top, header_bottom = float("-inf"), float("inf")
    for line in table.header_lines:
        for cell in _cells(line):
            hits = _header_hits(columns, cell)
            if hits is None:
                corner.append(cell.text)
                continue
            if len(hits) > 1:
                problems.append(f"the header {cell.text!r} stands over {len(hits)} columns")
            header_top, header_bottom = max(header_top, line.top), min(header_bottom, line.bottom)
            for i in hits:
                labels[i] = f"{labels[i]} {cell.text}".strip()
                spans[i] = [min(spans[i][0], cell.left), max(spans[i][1], cell.right)]
    problems += [f"the figures at x={left:.0f}..{right:.0f} have no column header"
                 for (left, right), label in zip(columns, labels, strict=True) if not label]
    grid: list[tuple[str, ...]] = [(" ".join(corner), *labels)]
    boxes: list[tuple[Box | None, ...]] = [(None, *(
        Box(span[0], header_bottom, span[1], header_top) if label else None
        for span, label in zip(spans, labels, strict=True)))]
    pending: list[Line] = []
    for (label, values), line in zip(rows, table.row_lines, strict=True):
        if not values:
            pending.append(line)
            continue
        label_lines = [line] if label else pending
        label = label or " ".join(p.text for p in pending)
        pending = []
        cells = [""] * len(columns)
        for cell in values:
            i = _nearest(columns, cell)
            if cells[i]:
                problems.append(f"row {label!r}: two figures under one column")
            cells[i] = cell.text
        label_box = None
        if label_lines:
            label_box = Box(min(p.left for p in label_lines), min(p.bottom for p in label_lines),
                            max(_cells(p)[0].right for p in label_lines), max(p.top for p in label_lines))
        grid.append((label, *cells))
        boxes.append((label_box, *(Box(left, line.bottom, right, line.top) for left, right in columns)))
    return TableGrid(locator, tuple(grid), tuple(boxes), tuple(problems))


def _columns(cells: list[Cell]) -> list[tuple[float, float]]:
    """Column extents from figure cells clustered by their right edges."""
    spans: list[list[float]] = []
    for cell in sorted(cells, key=lambda c: c.right):
        if spans and cell.right - spans[-1][2] <= 12:
            spans[-1] = [min(spans[-1][0], cell.left), max(spans[-1][1], cell.right), cell.right]
        else:
            spans.append([cell.left, cell.right, cell.right])
    return [(s[0], s[1]) for s in spans]


def _nearest(columns: list[tuple[float, float]], cell: Cell) -> int:
    centre = (cell.left + cell.right) / 2
    return min(range(len(columns)), key=lambda i: min(abs(columns[i][1] - cell.right),
                                                      abs((columns[i][0] + columns[i][1]) / 2 - centre)))
