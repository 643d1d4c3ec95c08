"""Quarters across, fiscal years down, beside a column of the year's own figure however it is named.

A-share reports head that column 全年, Japanese ones 通期, English ones Full year: each is the
year's figure, so the quarters beside it are still read as that year's quarters.
"""

from __future__ import annotations

import pytest

from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import zoo_glossary


def _quarters(year_column: str) -> set[tuple[str, str, float]]:
    text = ("# 分季度数据\n\nNet sales by quarter (JPY billion)\n\n"
            f"| 年度 | 第一季度 | 第二季度 | 第三季度 | 第四季度 | {year_column} |\n|---|---:|---:|---:|---:|---:|\n"
            "| FY2024 | 3.1 | 3.4 | 3.6 | 4.0 | 14.1 |\n| FY2025 | 3.5 | 3.8 | 3.9 | 4.3 | 15.5 |\n")
    doc = parse_document(text.encode(), filename="q.md", doc_id="q.md", max_bytes=100_000)
    facts = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00").facts
    return {(f.metric_code, f.period, f.value) for f in facts if f.period_type == "Q"}


@pytest.mark.parametrize("year_column", ["全年", "通期", "Full year", "合计"])
def test_quarters_beside_a_full_year_column_are_read(year_column: str) -> None:
    found = _quarters(year_column)
    assert ("NET_SALES", "2024Q2", 3.4) in found and ("NET_SALES", "2025Q4", 4.3) in found
    assert len(found) == 8


def test_quarters_beside_a_column_of_something_else_are_not_dated() -> None:
    assert _quarters("同比增长") == set()
