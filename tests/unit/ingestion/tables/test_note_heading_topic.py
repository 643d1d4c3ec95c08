"""A note's heading names what its table lists after the colon, over a unit line alone.

"财务报表附注：财务费用" over "单位：元 币种：人民币": the note is about 财务费用, and the table's
合计 row, which sums the rows above it, is 财务费用合计; a unit line between the heading and the
table says nothing else the table is about.
"""

from __future__ import annotations

from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import zoo_glossary


def _totals(text: str) -> dict[str, float]:
    doc = parse_document(text.encode(), filename="n.md", doc_id="n.md", max_bytes=100_000)
    facts = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00").facts
    return {f.metric_code: f.value for f in facts if f.period == "2025" and "合计" in f.metric_code.lower()
            or f.period == "2025" and "total" in f.metric_code.lower()}


def test_a_notes_total_row_is_the_total_of_the_subject_its_heading_names() -> None:
    text = ("# 青岚科技 财务报表附注：财务费用\n\n单位：元 币种：人民币\n\n| 项目 | FY2025 | FY2024 |\n|---|---:|---:|\n"
            "| 利息支出 | 500.00 | 450.00 |\n| 利息收入 | (120.00) | (100.00) |\n| 手续费 | 20.00 | 18.00 |\n"
            "| 合计 | 400.00 | 368.00 |\n")
    assert _totals(text) == {"label:财务费用合计": 400}


def test_an_english_note_heading_names_its_total_too() -> None:
    text = ("# Notes to the financial statements: Finance costs\n\n(in millions)\n\n| | FY2025 | FY2024 |\n"
            "|---|---:|---:|\n| Interest expense | 5.0 | 4.5 |\n| Bank charges | 0.2 | 0.1 |\n| Total | 5.2 | 4.6 |\n")
    assert _totals(text) == {"label:total finance costs": 5.2}


def test_a_sentence_between_the_heading_and_the_table_still_keeps_the_heading_out() -> None:
    text = ("# 财务报表附注：财务费用\n\n本期利息收入增加主要系存款增加所致。\n\n| 项目 | FY2025 | FY2024 |\n|---|---:|---:|\n"
            "| 利息支出 | 500.00 | 450.00 |\n| 利息收入 | (120.00) | (100.00) |\n| 合计 | 380.00 | 350.00 |\n")
    assert "label:财务费用合计" not in _totals(text)
