"""A column dated inside the closing month, not at its end, is no fiscal year's balance."""

from __future__ import annotations

from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import zoo_glossary  # a fiscal year ending in March


def test_a_mid_march_column_is_not_filed_as_the_year_ending_in_march() -> None:
    text = "\n".join(["Balances (in billions of yen)", "", "| Item | March 31, 2025 | March 10, 2025 |", "|---|---|---|",
                      "| Net sales | 1,000 | 1,200 |", ""])
    doc = parse_document(text.encode(), filename="balances.md", doc_id="balances.md", max_bytes=1_000_000)
    facts = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00").facts
    fy2025 = [(f.value, f.source_locator.split("col=")[1]) for f in facts if f.period == "2025"]

    assert fy2025 == [(1000, "March 31 2025")]


def test_a_single_column_dated_mid_march_files_no_fiscal_year_figure() -> None:
    text = "\n".join(["Balances (in billions of yen)", "", "| Item | March 10, 2025 |", "|---|---|",
                      "| Net sales | 1,200 |", ""])
    doc = parse_document(text.encode(), filename="balances.md", doc_id="balances.md", max_bytes=1_000_000)
    facts = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00").facts

    assert [f for f in facts if f.period_type == "FY"] == []
