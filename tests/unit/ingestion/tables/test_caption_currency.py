"""A table's facts carry the currency its caption names, never a US dollar read from a bare "$"."""

from __future__ import annotations

from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import zoo_glossary


def _extract(caption: str) -> tuple[dict[str, tuple[float, str]], list[str]]:
    text = "\n".join([caption, "", "| Item | FY2024 | FY2025 |", "|---|---|---|",
                      "| Net sales | $ 1,000 | $ 1,200 |", "| Operating income | 100 | 120 |", ""])
    doc = parse_document(text.encode(), filename="statement.md", doc_id="statement.md", max_bytes=1_000_000)
    result = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00")
    return {f.source_locator.split("row=")[1]: (f.value, f.unit) for f in result.facts}, list(result.warnings)


def test_dollar_cells_under_a_caption_in_nt_dollars_are_twd() -> None:
    facts, _ = _extract("Income statement (in thousand NT dollars)")

    assert facts["Net sales,col=FY2025"] == (1200, "TWD_K")
    assert facts["Operating income,col=FY2025"] == (120, "TWD_K")


def test_dollar_cells_under_a_caption_in_euros_keep_their_figures_without_a_money_unit() -> None:
    facts, warnings = _extract("Income statement (in millions of euros)")

    assert facts["Net sales,col=FY2025"] == (1200, "")
    assert facts["Operating income,col=FY2025"] == (120, "")
    assert any("names EUR" in w and "no money unit" in w for w in warnings)


def test_dollar_cells_under_a_scale_alone_are_us_dollars() -> None:
    facts, warnings = _extract("Income statement (in thousands)")

    assert facts["Net sales,col=FY2025"] == (1200, "USD_K")
    assert not any("no money unit" in w for w in warnings)
