"""Document context from metadata, the first pages and the file name: each chunk knows its company, period, type."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.ingestion.document_context import DocumentContext, apply_context, document_context, from_file_name
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.retrieval.passage_text import context_header, dense_text
from tests.fakes.chunks import make_chunk

COVER = ("UNITED STATES SECURITIES AND EXCHANGE COMMISSION Washington, D.C. 20549\nFORM 10-K\n"
         "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)\nFor the fiscal\nyear ended December 31,\n2020\n"
         "Commission file number 1-11437\nLOCKHEED MARTIN\nCORPORATION\n(Exact name of registrant as specified in "
         "its charter)")


def doc(*texts: str) -> ParsedDocument:
    return ParsedDocument("d", "", "application/pdf",
                          tuple(Block(BlockKind.PARAGRAPH, t, f"page=1,para={i}") for i, t in enumerate(texts, 1)))


@pytest.mark.parametrize(("name", "company", "period", "kind"), [
    ("AMAZON_2017_10K.pdf", "Amazon", "FY2017", "10-K annual report"),
    ("3M_2018_10K.pdf", "3M", "FY2018", "10-K annual report"),
    ("AMCOR_2023Q4_EARNINGS.pdf", "Amcor", "FY2023Q4", "earnings release"),
    ("ACME_FY2024_MDA.docx", "Acme", "FY2024", "MD&A"),
    ("ACME_Board_Minutes_2025Q4.docx", "Acme", "FY2025Q4", "minutes"),
    ("report-2019.pdf", "", "FY2019", "report"),
    ("notes.txt", "", "", ""),
])
def test_the_file_name_gives_company_period_and_type(name: str, company: str, period: str, kind: str) -> None:
    assert from_file_name(name) == DocumentContext(company, period, kind)


def test_a_filings_cover_names_the_registrant_the_fiscal_year_and_the_form_across_broken_lines() -> None:
    found = document_context(doc(COVER), filename="LOCKHEEDMARTIN_2020_10K.pdf")
    assert found == DocumentContext("Lockheed Martin Corporation", "FY2020", "10-K annual report")


def test_stated_metadata_wins_over_the_cover_and_the_file_name() -> None:
    found = document_context(doc(COVER), filename="LOCKHEEDMARTIN_2020_10K.pdf",
                             given={"company": "Lockheed Martin", "period": "FY2020Q4", "title": "LMT annual"})
    assert found == DocumentContext("Lockheed Martin", "FY2020Q4", "10-K annual report", "LMT annual")


def test_chunks_carry_the_context_into_both_legs() -> None:
    [chunk] = apply_context([make_chunk("c", "Days payable outstanding rose.", title="t")],
                            DocumentContext("Amazon", "FY2017", "10-K annual report"))
    assert (chunk.company, chunk.doc_period, chunk.doc_type, chunk.title) == ("Amazon", "FY2017",
                                                                              "10-K annual report", "t")
    assert context_header(chunk) == "Amazon · FY2017 (2017) · 10-K annual report"
    assert dense_text(chunk) == "Amazon · 10-K annual report\nDays payable outstanding rose."
    bare = make_chunk("b", "no context")
    assert context_header(bare) == "" and dense_text(bare) == "no context"


@given(st.text(max_size=80))
def test_any_file_name_gives_a_bounded_context_or_none(name: str) -> None:
    found = from_file_name(name or "x")
    assert all(len(value) <= 120 for value in (found.company, found.period, found.doc_type))
    assert found.period == "" or found.period.startswith("FY")


def test_upload_metadata_states_the_context_as_a_manifest_does() -> None:
    from ragspine.ingestion.submission import object_meta

    meta = object_meta("a.pdf", {"Company": "Walmart Inc.", "doc-type": "10-K", "period": "FY2019", "library": "x"})
    assert meta.context == (("company", "Walmart Inc."), ("doc_type", "10-K"), ("period", "FY2019"))
    assert meta.library == "x"
