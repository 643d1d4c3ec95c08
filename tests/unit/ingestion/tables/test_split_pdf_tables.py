"""A PDF statement the parser split in two around rows it could not grid keeps the unit noted above it.

A cash flow statement's "(In millions)" heads the page; the parser reads the rows in two tables
with the rows between them left as one paragraph of labels and figures. That paragraph is part
of the statement, so the note above the first table is the second's unit too. A sentence between
two tables still stops the walk: the second table is then another, whose unit is not known.
"""

from __future__ import annotations

from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from tests.support.glossary import default_glossary

HEADING = ("Consolidated Statements of Cash Flows",)
HEADER = ("", "2020", "2019")


def _units(between: str) -> set[tuple[str, str, str]]:
    blocks = (
        Block(BlockKind.HEADING, HEADING[0], "page=86", heading_path=HEADING),
        Block(BlockKind.PARAGRAPH, "(In millions)", "page=86,para=1", heading_path=HEADING),
        Block(BlockKind.PARAGRAPH, "For the Years Ended December 31,", "page=86,para=2", heading_path=HEADING),
        Block(BlockKind.PARAGRAPH, "Net income: 2020 = $709; 2019 = $621", "page=86,table=1", heading_path=HEADING,
              rows=(HEADER, ("Net income", "$709", "$621"))),
        Block(BlockKind.PARAGRAPH, between, "page=86,para=3", heading_path=HEADING),
        Block(BlockKind.PARAGRAPH, "Dividends paid: 2020 = (389); 2019 = (353)", "page=86,table=2",
              heading_path=HEADING, rows=(HEADER, ("Dividends paid", "(389)", "(353)"),
                                          ("Net cash flows provided by financing activities", "$1,120", "$494"))),
    )
    doc = ParsedDocument("cash_flows.pdf", "Annual report", "application/pdf", blocks)
    facts = extract_facts(doc, glossary=default_glossary(), source_file_hash="sha256:00").facts
    return {(f.source_locator.split(",row=")[0], f.period, f.unit) for f in facts if f.period == "2020"}


def test_rows_left_between_two_tables_continue_the_statement_and_its_unit() -> None:
    units = _units("Proceeds from term loan 500 — — Net short-term borrowings with maturities less than "
                   "three months (5) (178)")
    assert units == {("page=86,table=1", "2020", "USD_M"), ("page=86,table=2", "2020", "USD_M")}


def test_a_sentence_between_two_tables_leaves_the_second_unit_unknown() -> None:
    units = _units("In 2020, cash flows provided by financing activities increased by a large amount as the "
                   "Company borrowed under its term loan facility.")
    assert ("page=86,table=2", "2020", "") in units
