"""Helpers every parser shares: text clean-up, decoding, paragraph numbering and table blocks."""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Sequence

from ragspine.ingestion.errors import CorruptDocumentError
from ragspine.ingestion.model import Block, BlockKind

# Locators are shown beside every cited number; a long heading would drown the citation.
_LOCATOR_VALUE_MAX = 80
_BLANK_LINE = re.compile(r"\n[ \t\u3000]*\n")
# BOMs are checked longest first: the UTF-32-LE mark starts with the UTF-16-LE one.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def one_line(text: str) -> str:
    """Collapse every run of whitespace (newlines included) to one space."""
    return " ".join(text.split())


def locator_value(text: str) -> str:
    """A heading or sheet name made short and single-line enough to sit inside a locator."""
    value = one_line(text)
    if len(value) > _LOCATOR_VALUE_MAX:
        return value[: _LOCATOR_VALUE_MAX - 1] + "…"
    return value


def decode_text(data: bytes, *, what: str) -> str:
    """Decode a text file: a BOM decides, otherwise it must be UTF-8.

    Guessing a legacy code page (GBK, Shift_JIS) would silently index mojibake, so a file
    that is not UTF-8 is refused with a message that says how to fix it.
    """
    encoding = next((name for bom, name in _BOMS if data.startswith(bom)), "utf-8")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise CorruptDocumentError(
            f"The {what} file is not valid {encoding.upper()} text (first bad byte at offset {exc.start}); "
            "re-save it as UTF-8 and upload it again."
        ) from exc
    if "\x00" in text:
        raise CorruptDocumentError(
            f"The {what} file contains binary data (NUL bytes), so it is not plain text; "
            "check that the file extension matches its format."
        )
    return text.replace("\r\n", "\n").replace("\r", "\n")


def split_paragraphs(text: str) -> list[str]:
    """Paragraphs of plain text: separated by blank lines, trimmed, empty ones dropped."""
    return [part.strip() for part in _BLANK_LINE.split(text) if part.strip()]


class SectionCounter:
    """Numbers paragraphs under the current heading, giving ``heading=…,para=n`` locators.

    Numbering restarts at each heading, so a citation stays valid when an earlier section
    of the document is edited.
    """

    def __init__(self) -> None:
        self.path: tuple[str, ...] = ()
        self._para = 0
        self._table = 0

    def enter_heading(self, text: str, level: int) -> str:
        """Record a heading at ``level`` (1 = top) and return its locator."""
        self.path = (*self.path[: max(level - 1, 0)], one_line(text))
        self._para = 0
        return f"heading={locator_value(text)}"

    def next_paragraph(self) -> str:
        """Locator of the next paragraph-like block in the current section."""
        self._para += 1
        if self.path:
            return f"heading={locator_value(self.path[-1])},para={self._para}"
        return f"para={self._para}"

    def next_table(self) -> str:
        """Locator of the next table: tables are numbered through the whole document."""
        self._table += 1
        return f"table={self._table}"


def text_block(kind: BlockKind, text: str, locator: str, heading_path: tuple[str, ...] = ()) -> Block:
    """A non-table block."""
    return Block(kind=kind, text=text, locator=locator, heading_path=heading_path)


def table_block(
    rows: Sequence[Sequence[str]],
    *,
    locator: str,
    heading_path: tuple[str, ...] = (),
    caption: str = "",
    cell_refs: Sequence[Sequence[str]] = (),
) -> Block | None:
    """A TABLE block from a grid of cell texts, or None when every cell is empty.

    Rows and columns with no text are dropped (layout spacers, not data); ``cell_refs``,
    when given, is the same grid of native cell names and is trimmed in step with ``rows``.
    """
    width = max((len(row) for row in rows), default=0)
    grid = [[one_line(cell) for cell in row] + [""] * (width - len(row)) for row in rows]
    refs = [list(row) + [""] * (width - len(row)) for row in cell_refs] if cell_refs else []
    keep_rows = [r for r, row in enumerate(grid) if any(row)]
    keep_cols = [c for c in range(width) if any(grid[r][c] for r in keep_rows)]
    if not keep_rows or not keep_cols:
        return None
    table = tuple(tuple(grid[r][c] for c in keep_cols) for r in keep_rows)
    ref_grid = tuple(tuple(refs[r][c] for c in keep_cols) for r in keep_rows) if refs else ()
    return Block(
        kind=BlockKind.TABLE,
        text=flatten_table(table),
        locator=locator,
        heading_path=heading_path,
        rows=table,
        cell_refs=ref_grid,
        caption=one_line(caption),
    )


def flatten_table(rows: Iterable[Sequence[str]]) -> str:
    """The table as ``a | b | c`` lines, the form ``Block.text`` promises."""
    return "\n".join(" | ".join(row) for row in rows)
