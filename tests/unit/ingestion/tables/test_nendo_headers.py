"""A table's ``2024年度`` column is the year starting April 2024 under an April-March glossary.

Filed as 2024年3月期 it would answer "2024年3月期の売上高" with the next year's figure.
"""

from __future__ import annotations

import yaml

from ragspine.facts.glossary import Glossary
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import GLOSSARY


def _facts(text: str, fiscal_year: dict[str, object] | None = None) -> set[tuple[str, str, str, float]]:
    raw = yaml.safe_load(GLOSSARY)
    if fiscal_year is not None:
        raw["fiscal_year"] = fiscal_year
    doc = parse_document(text.encode(), filename="n.md", doc_id="n.md", max_bytes=100_000)
    facts = extract_facts(doc, glossary=Glossary.from_mapping(raw), source_file_hash="sha256:00").facts
    return {(f.metric_code, f.period_type, f.period, f.value) for f in facts}


_COLUMNS = ("# 業績推移\n\n（単位：百万円）\n\n| 項目 | 2023年度 | 2024年度 |\n|---|---:|---:|\n"
            "| 売上高 | 196,850 | 214,300 |\n")


def test_nendo_columns_are_the_years_ending_the_next_march() -> None:
    assert _facts(_COLUMNS) == {("NET_SALES", "FY", "2024", 196850), ("NET_SALES", "FY", "2025", 214300)}


def test_nendo_columns_of_a_calendar_year_glossary_are_unchanged() -> None:
    assert _facts(_COLUMNS, {"end_month": 12}) == {("NET_SALES", "FY", "2023", 196850),
                                                    ("NET_SALES", "FY", "2024", 214300)}


def test_a_nendo_quarter_column_and_a_caption_nendo() -> None:
    quarters = ("# 四半期\n\n（単位：百万円）\n\n| 項目 | 2024年度第3四半期 |\n|---|---:|\n| 売上高 | 17,800 |\n")
    assert _facts(quarters) == {("NET_SALES", "Q", "2025Q3", 17800)}
    caption = "# 2024年度の業績\n\n（単位：百万円）\n\n| 項目 | 金額 |\n|---|---:|\n| 売上高 | 214,300 |\n"
    assert _facts(caption) == {("NET_SALES", "FY", "2025", 214300)}
