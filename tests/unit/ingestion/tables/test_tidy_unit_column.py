"""A tidy table's unit column (``… | 数值 | 单位``) states each row's unit; it holds no figures."""

from __future__ import annotations

from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import zoo_glossary

_TIDY = ("# 经营数据\n\n| 分部 | 指标 | 期间 | 数值 | {header} |\n|---|---|---|---:|---|\n"
         "| 卸売 | 売上高 | FY2025 | 16.8 | {money} |\n| 小売 | 売上高 | FY2025 | 9.4 | {money} |\n"
         "| 卸売 | 出荷数 | FY2025 | 1,286 | {count} |\n")


def _read(header: str = "单位", money: str = "亿元", count: str = "万套") -> tuple[set[tuple[str, str, float, str]],
                                                                             list[str]]:
    text = _TIDY.format(header=header, money=money, count=count)
    doc = parse_document(text.encode(), filename="t.md", doc_id="t.md", max_bytes=100_000)
    result = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00")
    return {(f.metric_code, f.entity, f.value, f.unit) for f in result.facts}, list(result.warnings)


def test_each_row_takes_the_unit_its_unit_cell_names_and_the_column_is_no_value() -> None:
    facts, warnings = _read()
    assert ("NET_SALES", "MINORI_WHOLESALE", 16.8, "CNY_100M") in facts
    assert ("NET_SALES", "MINORI_RETAIL", 9.4, "CNY_100M") in facts
    assert not any("is not a number" in w for w in warnings)


def test_a_count_in_ten_thousands_is_never_given_without_its_scale() -> None:
    facts, warnings = _read()
    assert not any(value == 1286 for _, _, value, _ in facts)
    assert any("'万套'" in w and "skipped" in w for w in warnings)


def test_a_plain_count_is_a_count() -> None:
    facts, _ = _read(header="Unit", money="USD million", count="台")
    assert ("NET_SALES", "MINORI_WHOLESALE", 16.8, "USD_M") in facts
    assert any(value == 1286 and unit == "COUNT" for _, _, value, unit in facts)
