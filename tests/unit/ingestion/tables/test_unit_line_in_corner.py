"""A unit line joined to the corner's header word ("单位：元 币种：人民币 项目", as a PDF reader joins
the line over a statement to its first header cell) heads no row: the rows keep their own labels."""

from __future__ import annotations

from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import zoo_glossary


def test_the_rows_under_a_corner_holding_a_unit_line_keep_their_own_labels() -> None:
    text = ("# 合并利润表\n\n| 单位：元 币种：人民币 项目 | FY2025 | FY2024 |\n|---|---:|---:|\n"
            "| 売上高 | 16,800.00 | 15,200.00 |\n| 管理费用 | 389.50 | 351.30 |\n")
    doc = parse_document(text.encode(), filename="p.md", doc_id="p.md", max_bytes=100_000)
    facts = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00").facts
    assert {f.metric_code for f in facts} == {"NET_SALES", "label:管理费用"}
