"""A table with no year of its own in an annual report is of the report's year; a half-year report's is not."""

from __future__ import annotations

from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import zoo_glossary

# The title is the page's <title>, never a heading over the table.
_PAGE = ("<html><head><title>{title}</title></head><body><h2>主营业务分部情况</h2><p>单位：十亿日元</p><table>"
         "<tr><th>分部</th><th>売上高</th><th>营业收入比上年增减（%）</th></tr>"
         "<tr><td>卸売</td><td>16.8</td><td>10.5</td></tr><tr><td>小売</td><td>9.4</td><td>3.1</td></tr>"
         "</table></body></html>")


def _read(title: str) -> tuple[set[tuple[str, str, float]], list[str]]:
    doc = parse_document(_PAGE.format(title=title).encode(), filename="a.html", doc_id="a.html", max_bytes=100_000)
    result = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00")
    return {(f.entity, f.period, f.value) for f in result.facts}, list(result.warnings)


def test_an_annual_reports_title_year_dates_its_undated_tables() -> None:
    facts, _ = _read("みのり食品 FY2025 年度报告（摘录）")
    assert facts == {("MINORI_WHOLESALE", "2025", 16.8), ("MINORI_RETAIL", "2025", 9.4)}


def test_a_half_year_reports_title_dates_nothing() -> None:
    facts, warnings = _read("みのり食品 FY2025 半年度报告摘要")
    assert facts == set()
    assert any("no period" in w for w in warnings)
