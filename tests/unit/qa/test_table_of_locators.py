"""The table a figure stands in, read from its locator in every form ingestion writes.

A cell of a numbered table (``table=2``, a PDF's ``page=3,table=2``, a deck's ``slide=4,table=1``) is of
the table its locator names before ``,row=``; a sheet's cell (``sheet=Q4,cell=C3,row=…``) and a figure read
from a sentence (``page=3,para=2,sentence=1``) name no numbered table. The row counter and the comparison
of an undated table's rows read it through ``citation.table_of``: rows of one table are told apart from
rows of another, and a sheet's cell or a sentence's figure is kept out of both as it always was.
"""

from __future__ import annotations

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from ragspine.citation import table_of
from ragspine.facts.model import Fact, with_stated_date
from ragspine.ingestion.parsers._blocks import locator_value
from ragspine.qa import row_counts, undated_rows

# Words of a row or column label: ingestion turns commas into spaces and writes no "=" of its own in one.
_LABEL = st.text(alphabet="AbcXyz 09()/%&.'$:-—売上高营业收入", min_size=1, max_size=24).map(str.strip).filter(bool)
# A heading or sheet name keeps its commas.
_NAME = st.text(alphabet="AbcXyz 09()/%&.'$:-,，売上高营业收入", min_size=1, max_size=24).map(str.strip).filter(bool)
_N = st.integers(min_value=1, max_value=400)

_NUMBERED_TABLE = st.one_of(
    st.builds("table={}".format, _N),  # Markdown, Word, HTML, CSV
    st.builds("page={},table={}".format, _N, _N),  # PDF
    st.builds("slide={},table={}".format, _N, _N),  # PowerPoint
)
_SHEET = st.builds(lambda name: f"sheet={locator_value(name)}", _NAME)
_CELL_REF = st.builds("{}{}".format, st.sampled_from(["A", "C", "AB", "XFD"]), _N)
_PARAGRAPH = st.one_of(
    st.builds("page={},para={}".format, _N, _N),
    st.builds(lambda heading, n: f"heading={locator_value(heading)},para={n}", _NAME, _N),
    st.builds("para={}".format, _N),
    st.builds("slide={}".format, _N),
)
_STATED = st.none() | st.dates(min_value=date(1990, 1, 1), max_value=date(2040, 12, 31))


def _cell(table: str, row: str, col: str, stated: date | None, ref: str = "") -> str:
    """A table cell's locator as ingestion writes it: the block's, its cell name, row, column, stated date."""
    locator = f"{table}{f',cell={ref}' if ref else ''},row={row},col={col}"
    return with_stated_date(locator, stated) if stated is not None else locator


def _fact(locator: str) -> Fact:
    return Fact("label:other", "ACME", "", "TOTAL", "FY", "2024", 1.0, "USD_M", "report.md", locator)


@given(table=_NUMBERED_TABLE, row=_LABEL, col=_LABEL, stated=_STATED)
def test_a_numbered_tables_cell_is_of_that_table(table: str, row: str, col: str, stated: date | None) -> None:
    locator = _cell(table, row, col, stated)

    assert table_of(locator) == table
    assert row_counts._table_of(_fact(locator)) == table
    assert undated_rows._table_of(locator) == table


@given(sheet=_SHEET, ref=_CELL_REF, row=_LABEL, col=_LABEL, stated=_STATED)
def test_a_sheets_cell_names_no_numbered_table(sheet: str, ref: str, row: str, col: str, stated: date | None) -> None:
    locator = _cell(sheet, row, col, stated, ref)

    assert table_of(locator) == sheet
    assert row_counts._table_of(_fact(locator)) is None
    assert undated_rows._table_of(locator) == ""


@given(paragraph=_PARAGRAPH, sentence=_N)
def test_a_sentences_figure_names_no_table(paragraph: str, sentence: int) -> None:
    locator = f"{paragraph},sentence={sentence}"

    assert row_counts._table_of(_fact(locator)) is None
    assert undated_rows._table_of(locator) == ""
