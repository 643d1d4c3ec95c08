"""A year shown twice, restated and as first reported: the restated column is the year's figure.

``2023年（调整后） | 2023年（调整前）``: read as one year each, the two figures would clash and
both be dropped. The column as first reported (调整前, "as previously reported") is superseded
and skipped with a warning; the restated one stands.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import zoo_glossary


@pytest.mark.parametrize(("restated", "reported"), [
    ("FY2024（调整后）", "FY2024（调整前）"), ("FY2024 (restated)", "FY2024 (as previously reported)"),
    ("FY2024 restated", "FY2024 as previously reported"), ("2024 as restated", "2024 as originally reported"),
])
def test_the_restated_column_is_the_years_figure(restated: str, reported: str) -> None:
    text = (f"# Key figures\n\nNet sales (JPY billion)\n\n| | FY2025 | {restated} | {reported} |\n|---|---:|---:|---:|\n"
            "| Net sales | 16.8 | 15.2 | 15.9 |\n")
    doc = parse_document(text.encode(), filename="r.md", doc_id="r.md", max_bytes=100_000)
    result = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00")
    assert {(f.period, f.value) for f in result.facts} == {("2025", 16.8), ("2024", 15.2)}
    assert any(reported in w and "skipped" in w for w in result.warnings)


@settings(max_examples=20, deadline=None)
@given(year=st.sampled_from(["2024", "FY2024"]), word=st.sampled_from(["restated", "Restated", "as restated",
                                                                        "re-presented", "RESTATED"]))
def test_a_comparative_headed_restated_without_brackets_is_read(year: str, word: str) -> None:
    # IFRS reports head the comparative "2024 restated"; the column is the year's figure as now stated
    text = (f"# Key figures\n\nNet sales (EUR million)\n\n| €m | 2025 | {year} {word} |\n|---|---:|---:|\n"
            "| Net sales | 4,812.6 | 4,530.2 |\n")
    doc = parse_document(text.encode(), filename="r.md", doc_id="r.md", max_bytes=100_000)
    result = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00")
    assert {(f.period, f.value) for f in result.facts} == {("2025", 4812.6), ("2024", 4530.2)}
    assert not any("skipped" in w for w in result.warnings)
