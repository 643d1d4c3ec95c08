"""A year shown twice, restated and as first reported: the restated column is the year's figure.

``2023年（调整后） | 2023年（调整前）``: read as one year each, the two figures would clash and
both be dropped. The column as first reported (调整前, "as previously reported") is superseded
and skipped with a warning; the restated one stands.
"""

from __future__ import annotations

import pytest

from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import zoo_glossary


@pytest.mark.parametrize(("restated", "reported"), [
    ("FY2024（调整后）", "FY2024（调整前）"), ("FY2024 (restated)", "FY2024 (as previously reported)"),
])
def test_the_restated_column_is_the_years_figure(restated: str, reported: str) -> None:
    text = (f"# Key figures\n\nNet sales (JPY billion)\n\n| | FY2025 | {restated} | {reported} |\n|---|---:|---:|---:|\n"
            "| Net sales | 16.8 | 15.2 | 15.9 |\n")
    doc = parse_document(text.encode(), filename="r.md", doc_id="r.md", max_bytes=100_000)
    result = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00")
    assert {(f.period, f.value) for f in result.facts} == {("2025", 16.8), ("2024", 15.2)}
    assert any(reported in w and "skipped" in w for w in result.warnings)
