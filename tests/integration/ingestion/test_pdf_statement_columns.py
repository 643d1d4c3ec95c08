"""A financial statement page of a PDF gives one cell per period column, and its facts.

Many filings select their fonts at a large size and scale them down by the text matrix (a
font at 352 shown at 7.4 points). Read at the selected size, every gap between a row's figures
looked smaller than a word space, so a row's three years came out as one cell
(``$ 519,926 $ 510,329 $ 495,761``), which is no figure: such statements gave no facts at all.
The page here is written that way at test time (pypdf, Helvetica); the same reading is then
checked on real 10-K filings of the shared corpus when it is mounted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.domain.files import GLOSSARY
from ragspine.domain.glossary_file import read_glossary
from ragspine.domain.starter import init_domain
from ragspine.facts.glossary import Glossary
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.model import Block, ParsedDocument
from ragspine.ingestion.parsers.pdf import PdfParser
from ragspine.ingestion.parsers.pdf_layout import _split_cells
from ragspine.ingestion.parsers.pdf_lines import Line, Word
from tests.integration.ingestion.documents import PdfLine, pdf_layout

CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus" / "financebench_dev"

# Helvetica advance widths (1/1000 em) of the characters figures use.
_WIDTHS = {**dict.fromkeys("0123456789", 556), ",": 278, ".": 278, "(": 333, ")": 333, "$": 556}
SIZE = 7.4
COLUMNS = (439.0, 513.0, 587.0)  # right edges of the 2020, 2019 and 2018 figures
SIGNS = (377.0, 453.0, 526.0)  # a "$" set at the left of its column, as filings set it

ROWS = [
    ("Net sales", ("519,926", "510,329", "495,761"), True),
    ("Membership and other income", ("4,038", "4,076", "4,582"), False),
    ("Cost of sales", ("394,605", "385,301", "373,396"), False),
    ("Operating, selling, general and administrative expenses", ("108,791", "107,147", "106,510"), False),
    ("Operating income", ("20,568", "21,957", "20,437"), False),
    ("Interest income", ("(189)", "(217)", "(152)"), False),
]


def _right(x: float, y: float, text: str) -> PdfLine:
    return (x - sum(_WIDTHS[c] for c in text) * SIZE / 1000, y, SIZE, False, text)


def statement_page() -> list[PdfLine]:
    """An income statement: title, period heading, unit note and years, six rows of three years."""
    lines: list[PdfLine] = [
        (240, 726, 8.75, True, "Consolidated Statements of Income"),
        (434, 693, SIZE, False, "Fiscal Years Ended January 31,"),
        (20, 679, SIZE, False, "(Amounts in millions, except per share data)"),
        *(_right(x, 679, year) for x, year in zip(COLUMNS, ("2020", "2019", "2018"), strict=True)),
    ]
    for i, (label, figures, dollar) in enumerate(ROWS, start=1):
        y = 679 - 13.6 * i
        lines.append((37, y, SIZE, False, label))
        for sign, right, figure in zip(SIGNS, COLUMNS, figures, strict=True):
            if dollar:
                lines.append((sign, y, SIZE, False, "$"))
            lines.append(_right(right, y, figure))
    return lines


def _tables(doc: ParsedDocument) -> list[Block]:
    return [b for b in doc.blocks if b.rows]


def _glossary(tmp_path: Path) -> Glossary:
    """A domain folder fresh from ``ragspine domain init``, the finance pack included, its currency USD."""
    folder = tmp_path / "domain"
    init_domain(folder)
    (folder / "domain.yaml").write_text(
        (folder / "domain.yaml").read_text(encoding="utf-8") + "include: [finance]\n", encoding="utf-8")
    glossary = folder / GLOSSARY
    glossary.write_text(glossary.read_text(encoding="utf-8").replace("EUR", "USD"), encoding="utf-8")
    return read_glossary(glossary)


@pytest.mark.parametrize("font_scale", [1.0, 0.021], ids=["font at its size", "font scaled by the text matrix"])
def test_each_year_of_a_statement_row_is_its_own_cell(font_scale: float) -> None:
    doc = PdfParser().parse(pdf_layout(statement_page(), font_scale=font_scale), doc_id="statement.pdf")
    [table] = _tables(doc)
    assert table.rows[0] == ("(Amounts in millions, except per share data)", "2020", "2019", "2018")
    assert table.rows[1] == ("Net sales", "$519,926", "$510,329", "$495,761")
    assert [row[0] for row in table.rows[1:]] == [label for label, _, _ in ROWS]
    assert [row[1:] for row in table.rows[2:]] == [figures for _, figures, _ in ROWS[1:]]
    assert table.cell_check == ""  # every cell is exactly the page text inside its box


def test_a_scaled_statement_gives_one_fact_per_cell_located_in_its_own_words(tmp_path: Path) -> None:
    doc = PdfParser().parse(pdf_layout(statement_page(), font_scale=0.021), doc_id="statement.pdf")
    result = extract_facts(doc, glossary=_glossary(tmp_path), source_file_hash="sha256:0")
    found = {f.source_locator: (f.period, f.value, f.unit) for f in result.facts}
    expected = {}
    for label, figures, _ in ROWS:
        for year, figure in zip(("2020", "2019", "2018"), figures, strict=True):
            value = -int(figure.strip("()").replace(",", "")) if figure.startswith("(") else int(figure.replace(",", ""))
            expected[f"page=1,table=1,row={label.replace(',', '')},col={year}"] = (year, value, "USD_M")
    assert found == expected


def _line(*words: tuple[str, float, float], size: float = 10.0) -> Line:
    return Line(tuple(Word(t, left, right) for t, left, right in words), top=700, bottom=692, size=size, bold=False,
                soft_hyphen=False)


class TestFiguresSetCloseTogether:
    """Columns closer than a word gap still give one cell per figure; a figure written with spaces stays whole."""

    def test_figures_in_one_group_are_split_at_their_own_words(self) -> None:
        line = _line(("Cost", 20, 38), ("of", 40, 48), ("sales", 50, 72), ("11,108.4", 345, 374), ("10,304.8", 377, 406),
                     ("10,052.0", 409, 438))
        assert [(c.text, c.left, c.right) for c in _split_cells(line)] == [
            ("Cost of sales", 20, 72), ("11,108.4", 345, 374), ("10,304.8", 377, 406), ("10,052.0", 409, 438)]

    def test_a_currency_sign_goes_with_the_figure_after_it(self) -> None:
        line = _line(("Net", 20, 34), ("sales", 36, 58), ("$", 330, 335), ("16,865.2", 337, 374), ("$", 376, 381),
                     ("15,740.4", 383, 420), ("(87.9)", 422, 446))
        assert [c.text for c in _split_cells(line)] == ["Net sales", "$16,865.2", "$15,740.4", "(87.9)"]

    @pytest.mark.parametrize("words", [
        (("1", 300, 305), ("234", 307, 322), ("567", 324, 339)),  # digits grouped by spaces
        (("2018", 300, 318), ("(6)", 320, 330)),  # a year and its footnote mark
        (("30.0", 300, 318), ("-", 320, 323), ("6.5", 325, 338)),  # a dash is no figure to split at
    ], ids=["spaced digits", "year and footnote", "dash"])
    def test_figures_that_may_be_one_stay_one_cell(self, words: tuple[tuple[str, float, float], ...]) -> None:
        line = _line(("Staff", 20, 42), *words)
        assert [c.text for c in _split_cells(line)] == ["Staff", " ".join(w[0] for w in words)]

    def test_words_that_are_not_all_figures_stay_one_cell(self) -> None:
        line = _line(("Up", 20, 30), ("12", 32, 42), ("percent", 44, 70))
        assert [c.text for c in _split_cells(line)] == ["Up 12 percent"]


def _filing(name: str) -> ParsedDocument:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared corpus is not mounted here)")
    return PdfParser().parse(path.read_bytes(), doc_id=name)


def _statement_row(doc: ParsedDocument, label: str) -> Block:
    """The table of a ``Consolidated Statements of …`` page holding a row ``label``."""
    return next(b for b in _tables(doc) if any(h.startswith("Consolidated Statements of") for h in b.heading_path)
                and any(row[0] == label for row in b.rows))


@pytest.mark.corpus
@pytest.mark.parametrize(("name", "label", "cells"), [
    ("WALMART_2020_10K.pdf", "Membership and other income", ("4,038", "4,076", "4,582")),
    ("GENERALMILLS_2019_10K.pdf", "Cost of sales", ("11,108.4", "10,304.8", "10,052.0")),
])
def test_a_real_filings_statement_rows_have_one_cell_per_year(name: str, label: str, cells: tuple[str, ...],
                                                              tmp_path: Path) -> None:
    doc = _filing(name)
    table = _statement_row(doc, label)
    assert table.cell_check == ""
    assert next(row for row in table.rows if row[0] == label)[1:] == cells
    result = extract_facts(doc, glossary=_glossary(tmp_path), source_file_hash="sha256:0")
    located = {(f.period, f.value) for f in result.facts
               if f.source_locator.startswith(f"{table.locator},row={label},col=")}
    years = [int(year) for year in table.rows[0][1:]]
    assert located == {(str(year), float(cell.replace(",", "")) if "." in cell else int(cell.replace(",", "")))
                       for year, cell in zip(years, cells, strict=True)}


@pytest.mark.parametrize(("heading", "facts"), [("Consolidated Statements of Income", 18), ("Walmart U.S. Segment", 0)],
                         ids=["the company's statement", "a segment's table"])
def test_a_table_under_a_segment_heading_is_never_filed_under_the_company(heading: str, facts: int,
                                                                         tmp_path: Path) -> None:
    page = [(19, 740, 8.75, True, heading), *statement_page()[1:]]
    doc = PdfParser().parse(pdf_layout(page, font_scale=0.021), doc_id="WALMART_2020_10K.pdf")
    result = extract_facts(doc, glossary=_glossary(tmp_path), source_file_hash="sha256:0")
    assert len(result.facts) == facts
    assert {f.entity for f in result.facts} == ({"company:walmart"} if facts else set())
    named = [w for w in result.warnings if "names a part of the company ('Walmart U.S. Segment')" in w]
    assert len(named) == (0 if facts else 1), result.warnings


def test_a_dollar_sign_at_a_columns_far_left_does_not_put_the_heading_before_it_over_two_columns() -> None:
    """A balance sheet: ``2021`` ends 3.5 points right of its figures, the next column's ``$`` starts 5.5 points after."""
    lines: list[PdfLine] = [(240, 790, 8.2, True, "Consolidated Balance Sheets"),
                            (246, 779, 8.2, False, "(in millions, except par value)"),
                            _right(517.5, 744, "2021"), _right(576, 744, "2020")]
    rows = [("Cash and cash equivalents", "3,604", "3,160", True), ("Receivables, net", "1,963", "1,978", False),
            ("Total current assets", "19,815", "19,378", False)]
    for i, (label, this_year, last_year, dollar) in enumerate(rows, start=1):
        y = 744 - 11 * i
        lines.append((23, y, SIZE, False, label))
        if dollar:
            lines += [(463, y, SIZE, False, "$"), (523, y, SIZE, False, "$")]
        lines += [_right(514, y, this_year), _right(574, y, last_year)]
    [table] = _tables(PdfParser().parse(pdf_layout(lines), doc_id="balance.pdf"))
    assert table.cell_check == ""
    assert table.rows[0][1:] == ("2021", "2020")
    assert table.rows[-1] == ("Total current assets", "19,815", "19,378")


def test_the_part_of_a_statement_below_a_line_that_is_no_row_takes_the_column_headings_above() -> None:
    """A cash-flow statement cut by a line that is no row: both parts give their cells under 2020, 2019, 2018."""
    page = statement_page()
    at = 679 - 13.6 * 4  # where the fourth row stood: it and the rows below move down one line
    cut = (37, at, SIZE, False, "Proceeds from issuances of employee stock plans and direct stock "
           "purchase plan, net of taxes paid of $3, $5 and $8 in 2020, 2019")
    lines = [(x, y - (13.6 if y <= at + 0.1 else 0), size, bold, text) for x, y, size, bold, text in page]
    in_order = sorted([*lines, cut], key=lambda line: -line[1])  # the content stream top to bottom, as filings are
    tables = _tables(PdfParser().parse(pdf_layout(in_order, font_scale=0.021), doc_id="statement.pdf"))
    assert len(tables) == 2 and all(t.cell_check == "" for t in tables)
    assert tables[1].rows[0][1:] == ("2020", "2019", "2018")
    assert [row[0] for row in tables[0].rows[1:]] == [label for label, _, _ in ROWS[:3]]
    assert tables[1].rows[1:] == tuple((label, *figures) for label, figures, _ in ROWS[3:])
