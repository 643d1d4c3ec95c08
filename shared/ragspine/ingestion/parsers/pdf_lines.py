"""Text lines of a PDF page with their geometry and font, read from PDFium's text page.

PDFium (through pypdfium2) already joins characters into words and lines in reading order;
this module adds what layout analysis needs and PDFium's plain text drops: where each word
sits (to find table columns and page furniture), the font size and weight of each line (to
find headings) and which line-end hyphens are soft (to rejoin hyphenated words).

Geometry is read per word (first and last character), not per character: a dense 10-K page
has 4,000 characters but 500 words, and each ctypes call costs about a microsecond.

PDFium may run several printed lines into one text line: filings that select a font at 416
points and scale it down judge a line break against the selected size, so a statement's
period heading, its years and its first row come out as one line ("For the Years Ended
December 31, 2021 2020 2019 Operating revenues $ 3,930 …"). A line is cut where a word lies
wholly above or below the words before it, and a piece cut off joins the line just read
that stands at its height ("May 27," printed beside "May 26," above the years).
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
_SAME_SIZE = 0.6  # a word at least this share of the height of the one before is set at its size
_SAME_LINE = 0.5  # a piece overlapping this share of a line's height stands on that line
_LOOK_BACK = 3  # lines just read that a piece of a run-together line may stand beside


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
        if end > start:
            add_printed_lines(lines, _lines(textpage, text[start:end], start))
        start = separator.end() if separator is not None else end
    return lines


@dataclass(frozen=True, slots=True)
class PlacedWord:
    """A word of a text line with its characters' offsets and its vertical extent."""

    word: Word
    first: int
    last: int
    top: float
    bottom: float

    @property
    def height(self) -> float:
        return self.top - self.bottom


def _lines(textpage: pdfium.PdfTextPage, text: str, offset: int) -> list[Line]:
    """PDFium's text line as the printed lines it holds (one, unless PDFium ran several together)."""
    import pypdfium2.raw as raw

    handle = textpage.raw
    box = _BOX
    placed: list[PlacedWord] = []
    for match in _WORD.finditer(text):
        first, last = offset + match.start(), offset + match.end() - 1
        raw.FPDFText_GetCharBox(handle, first, *box.refs)
        left, low, high = box.left.value, box.bottom.value, box.top.value
        raw.FPDFText_GetCharBox(handle, last, *box.refs)
        placed.append(PlacedWord(Word(match.group(), left, max(box.right.value, left)), first, last,
                                  max(high, box.top.value), min(low, box.bottom.value)))
    pieces = printed_pieces(placed)
    if not pieces:
        return []
    last = pieces[-1][-1].last
    hyphen = text.rstrip().endswith(("-", "\u00ad", "\x02")) and bool(raw.FPDFText_IsHyphen(handle, last))
    return [_line(textpage, piece, hyphen and piece is pieces[-1]) for piece in pieces]


def printed_pieces(words: list[PlacedWord]) -> list[list[PlacedWord]]:
    """A text line's words, in PDFium's order, cut into the printed lines they stand on."""
    pieces: list[list[PlacedWord]] = []
    for word in words:
        if pieces and not _next_printed_line(pieces[-1], word):
            pieces[-1].append(word)
        else:
            pieces.append([word])
    return pieces


def _next_printed_line(piece: list[PlacedWord], word: PlacedWord) -> bool:
    """Whether ``word`` starts another printed line: wholly above or below the piece's words, set at their size.

    A footnote mark raised beside a word is smaller than the piece's tallest word, and so never starts a
    line; a dash ("—" for nil) is too, and stays with the figures before it.
    """
    top, bottom = max(w.top for w in piece), min(w.bottom for w in piece)
    tallest = max(w.height for w in piece)
    comparable = min(tallest, word.height) >= _SAME_SIZE * max(tallest, word.height)
    return comparable and (word.top < bottom or word.bottom > top)


def _line(textpage: pdfium.PdfTextPage, words: list[PlacedWord], hyphen: bool) -> Line:
    top, bottom = max(w.top for w in words), min(w.bottom for w in words)
    size = _set_size(textpage, words[0].first)
    bold = _is_bold(textpage, words[0].first) and _is_bold(textpage, words[-1].last)
    if top < bottom:
        top = bottom = 0.0
    return Line(tuple(w.word for w in words), top, bottom, size, bold, hyphen)


def add_printed_lines(lines: list[Line], found: list[Line]) -> None:
    """Append ``found``; a piece of a line PDFium ran together joins a line just read at its height."""
    if len(found) == 1:
        lines.append(found[0])
        return
    for piece in found:
        at = next((i for i in range(len(lines) - 1, max(len(lines) - _LOOK_BACK, 0) - 1, -1)
                   if _beside(lines[i], piece)), None)
        if at is None:
            lines.append(piece)
            continue
        line = lines[at]
        left, right = (line, piece) if line.right < piece.left else (piece, line)
        lines[at] = Line((*left.words, *right.words), max(line.top, piece.top), min(line.bottom, piece.bottom),
                         line.size, left.bold and right.bold, right.soft_hyphen)


def _beside(line: Line, piece: Line) -> bool:
    """Whether ``piece`` stands on ``line``'s printed line: at its height, apart from its words."""
    overlap = min(line.top, piece.top) - max(line.bottom, piece.bottom)
    apart = piece.left > line.right or piece.right < line.left
    return apart and overlap >= _SAME_LINE * min(line.height, piece.height)


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
