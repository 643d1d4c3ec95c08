"""Printed lines PDFium runs into one text line are read apart, and a statement's table read from them.

Filings that select a font at a large size and scale it down may come out of PDFium with a
statement's period heading, its years and its first row as one text line; a balance sheet's
dates set on two lines over each column ("June 30," over "2024") may come out as "June 30,",
"2024 June 30," and "2023 ASSETS". The words keep where they stand on the page: the line is cut
where a word stands wholly above or below the words before it, and a piece cut off joins the
printed line just read at its height. The tables then read as the page shows them.
"""

from __future__ import annotations

from ragspine.ingestion.parsers.pdf_layout import DocumentStyle, HeadingTrail, TableGrid, page_blocks
from ragspine.ingestion.parsers.pdf_lines import Line, PlacedWord, Word, add_printed_lines, printed_pieces

SIZE = 7.0
_CHAR = 3.5  # points per character, near enough for Helvetica at 7 points


def placed(text: str, left: float, baseline: float, first: int = 0) -> list[PlacedWord]:
    """The words of ``text`` set from ``left`` on ``baseline``, each as tall as the font."""
    words, x = [], left
    for part in text.split():
        words.append(PlacedWord(Word(part, x, x + _CHAR * len(part)), first, first, baseline + SIZE * 0.7,
                                baseline - SIZE * 0.2))
        x += _CHAR * len(part) + 2.0  # a word space, well under a column gap
    return words


def right(text: str, edge: float, baseline: float) -> list[PlacedWord]:
    """A figure set flush right at ``edge``."""
    return placed(text, edge - _CHAR * len(text), baseline)


def as_lines(pieces: list[list[PlacedWord]]) -> list[Line]:
    return [Line(tuple(w.word for w in piece), max(w.top for w in piece), min(w.bottom for w in piece), SIZE, False,
                 False) for piece in pieces]


def read(text_lines: list[list[PlacedWord]]) -> list[TableGrid]:
    lines: list[Line] = []
    for words in text_lines:
        add_printed_lines(lines, as_lines(printed_pieces(words)))
    tables: list[TableGrid] = []
    style = DocumentStyle(SIZE, (), frozenset())
    page_blocks(lines, page=1, height=792, style=style, trail=HeadingTrail(), tables=tables)
    return tables


def test_a_heading_its_years_and_a_row_run_together_are_three_lines() -> None:
    run_together = [*placed("For the Years Ended December 31,", 330, 700), *right("2024", 400, 690),
                    *right("2023", 480, 690), *placed("Net revenues", 20, 680), *right("$5,120", 400, 680),
                    *right("$4,870", 480, 680)]
    pieces = printed_pieces(run_together)
    assert [" ".join(w.word.text for w in piece) for piece in pieces] == [
        "For the Years Ended December 31,", "2024 2023", "Net revenues $5,120 $4,870"]


def test_a_statement_run_together_with_its_headers_reads_as_the_page_shows_it() -> None:
    text_lines = [
        placed("(In millions)", 20, 712),
        [*placed("For the Years Ended December 31,", 330, 700), *right("2024", 400, 690), *right("2023", 480, 690),
         *placed("Net revenues", 20, 680), *right("$5,120", 400, 680), *right("$4,870", 480, 680)],
        [*placed("Operating income", 20, 670), *right("812", 400, 670), *right("779", 480, 670)],
    ]
    [table] = read(text_lines)
    assert table.rows == (("", "2024", "2023"), ("Net revenues", "$5,120", "$4,870"),
                          ("Operating income", "812", "779"))
    assert not table.problems


def test_dates_set_on_two_lines_over_each_column_join_their_printed_lines() -> None:
    text_lines = [
        right("June 30,", 400, 700),
        [*right("2024", 398, 690), *right("June 30,", 480, 700)],
        [*right("2023", 478, 690), *placed("ASSETS", 20, 678)],
        [*placed("Receivables", 20, 668), *right("1,310.5", 400, 668), *right("1,255.0", 480, 668)],
        [*placed("Inventories", 20, 658), *right("980.2", 400, 658), *right("1,004.7", 480, 658)],
    ]
    [table] = read(text_lines)
    assert table.rows == (("", "June 30, 2024", "June 30, 2023"), ("Receivables", "1,310.5", "1,255.0"),
                          ("Inventories", "980.2", "1,004.7"))
    assert not table.problems


def test_a_raised_footnote_mark_stays_on_its_line() -> None:
    label = placed("Net revenues", 20, 680)
    mark = PlacedWord(Word("(1)", 64, 72), 0, 0, 680 + SIZE * 1.1, 680 + SIZE * 0.75)  # small, above the words
    words = [*label, mark, *right("$5,120", 400, 680)]
    assert len(printed_pieces(words)) == 1
