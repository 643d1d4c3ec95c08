"""Text lines of a PDF page with their geometry and font, read from PDFium's text page.

PDFium (through pypdfium2) already joins characters into words and lines in reading order;
this module adds what layout analysis needs and PDFium's plain text drops: where each word
sits (to find table columns and page furniture), the font size and weight of each line (to
find headings) and which line-end hyphens are soft (to rejoin hyphenated words).

Geometry is read per word (first and last character), not per character: a dense 10-K page
has 4,000 characters but 500 words, and each ctypes call costs about a microsecond.
"""

from __future__ import annotations

import ctypes
import math
import re
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pypdfium2 as pdfium

_WORD = re.compile(r"\S+")
# PDFium ends a line that it saw hyphenated with U+FFFE and may run the next line on without
# a break: split after it too, so each line keeps its own geometry.
_LINE_BREAK = re.compile(r"\r\n|\n|\r|(?<=\ufffe)")
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)
_BOLD_WEIGHT = 600
_FONT_NAME_BYTES = 128


class _CharBox:
    """Reused ctypes out-parameters of ``FPDFText_GetCharBox`` (left, right, bottom, top)."""

    def __init__(self) -> None:
        self.left, self.right, self.bottom, self.top = (ctypes.c_double() for _ in range(4))
        self.refs = tuple(ctypes.byref(v) for v in (self.left, self.right, self.bottom, self.top))


_BOX = _CharBox()  # safe to share: the parser holds the PDFium lock while reading


@dataclass(frozen=True, slots=True)
class Word:
    """A run of non-space characters and its horizontal extent in PDF points."""

    text: str
    left: float
    right: float


@dataclass(frozen=True)
class Line:
    """One text line of a page: its words left to right, vertical extent (PDF points, y up), font."""

    words: tuple[Word, ...]
    top: float
    bottom: float
    size: float
    bold: bool
    soft_hyphen: bool  # the line ends in a hyphen PDFium marked as a word break

    @cached_property
    def text(self) -> str:
        """The words joined by single spaces (layout analysis reads it many times: computed once)."""
        return " ".join(w.text for w in self.words)

    @property
    def left(self) -> float:
        """The left edge of the first word."""
        return self.words[0].left

    @property
    def right(self) -> float:
        """The right edge of the last word."""
        return self.words[-1].right

    @property
    def height(self) -> float:
        """The line's height (at least 1 point)."""
        return max(self.top - self.bottom, 1.0)


def page_lines(textpage: pdfium.PdfTextPage) -> list[Line]:
    """The non-blank lines of a page in PDFium's reading order."""
    import pypdfium2.raw as raw

    count = textpage.count_chars()
    if count <= 0:
        return []
    text = textpage.get_text_range(0, count)
    if len(text) != count:  # ligatures or surrogates broke the text/char alignment: read char by char
        text = "".join(chr(raw.FPDFText_GetUnicode(textpage, i) or 32) for i in range(count))
    lines: list[Line] = []
    start = 0
    for separator in [*_LINE_BREAK.finditer(text), None]:
        end = separator.start() if separator is not None else len(text)
        line = _line(textpage, text[start:end], start) if end > start else None
        if line is not None:
            lines.append(line)
        start = separator.end() if separator is not None else end
    return lines


def _line(textpage: pdfium.PdfTextPage, text: str, offset: int) -> Line | None:
    import pypdfium2.raw as raw

    words: list[Word] = []
    top, bottom = float("-inf"), float("inf")
    handle = textpage.raw
    box = _BOX
    for match in _WORD.finditer(text):
        first, last = offset + match.start(), offset + match.end() - 1
        raw.FPDFText_GetCharBox(handle, first, *box.refs)
        left, low, high = box.left.value, box.bottom.value, box.top.value
        raw.FPDFText_GetCharBox(handle, last, *box.refs)
        right = box.right.value
        words.append(Word(match.group(), left, max(right, left)))
        top, bottom = max(top, high, box.top.value), min(bottom, low, box.bottom.value)
    if not words:
        return None
    first_char = offset + len(text) - len(text.lstrip())
    last_char = offset + len(text.rstrip()) - 1
    size = _set_size(textpage, first_char)
    bold = _is_bold(textpage, first_char) and _is_bold(textpage, last_char)
    hyphen = text.rstrip().endswith(("-", "\u00ad", "\x02")) and bool(raw.FPDFText_IsHyphen(textpage, last_char))
    if top < bottom:
        top = bottom = 0.0
    return Line(tuple(words), top, bottom, size, bold, hyphen)


def _set_size(textpage: pdfium.PdfTextPage, index: int) -> float:
    """The size a character is set at on the page, in points.

    PDFium's font size is the one the text object selects (``Tf``); many filings select a
    font at 416 and scale it down by the text matrix to 8.75 points, so the size on the page
    is the font size times the matrix's scale. Column gaps and heading sizes are measured
    against this size.
    """
    import pypdfium2.raw as raw

    size = float(raw.FPDFText_GetFontSize(textpage, index))
    matrix = raw.FS_MATRIX()
    if raw.FPDFText_GetMatrix(textpage, index, ctypes.byref(matrix)):
        scale = math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c))
        if scale > 0:
            return size * scale
    return size


def _is_bold(textpage: pdfium.PdfTextPage, index: int) -> bool:
    import pypdfium2.raw as raw

    if raw.FPDFText_GetFontWeight(textpage, index) >= _BOLD_WEIGHT:
        return True
    name = ctypes.create_string_buffer(_FONT_NAME_BYTES)
    flags = ctypes.c_int()
    raw.FPDFText_GetFontInfo(textpage, index, name, _FONT_NAME_BYTES, ctypes.byref(flags))
    return bool(_BOLD_NAME.search(name.value.decode("latin-1", "replace")))
