"""Several tables on one sheet, slide or page: each read with its own caption, none borrowing another's."""

from __future__ import annotations

import io

import openpyxl

from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import zoo_glossary


def test_two_tables_on_one_sheet_each_take_their_own_caption() -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Segments"
    sheet["B2"] = "Wholesale (JPY billion)"
    for row, cells in enumerate((("Metric", "FY2024", "FY2025"), ("Net sales", 15.2, 16.8)), start=3):
        for col, value in enumerate(cells, start=2):
            sheet.cell(row=row, column=col, value=value)
    sheet["B7"] = "Retail (単位：百万円)"
    for row, cells in enumerate((("Metric", "FY2024", "FY2025"), ("Net sales", 9700, 10300)), start=8):
        for col, value in enumerate(cells, start=2):
            sheet.cell(row=row, column=col, value=value)
    out = io.BytesIO()
    book.save(out)
    doc = parse_document(out.getvalue(), filename="seg.xlsx", doc_id="seg.xlsx", max_bytes=10_000_000)
    facts = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00").facts
    assert {(f.entity, f.period, f.value, f.unit, f.source_locator) for f in facts} == {
        ("MINORI_WHOLESALE", "2024", 15.2, "JPY_B", "sheet=Segments,cell=C4,row=Net sales,col=FY2024"),
        ("MINORI_WHOLESALE", "2025", 16.8, "JPY_B", "sheet=Segments,cell=D4,row=Net sales,col=FY2025"),
        ("MINORI_RETAIL", "2024", 9700, "JPY_M", "sheet=Segments,cell=C9,row=Net sales,col=FY2024"),
        ("MINORI_RETAIL", "2025", 10300, "JPY_M", "sheet=Segments,cell=D9,row=Net sales,col=FY2025"),
    }


def test_two_tables_in_one_markdown_section_take_the_sentence_before_each() -> None:
    text = "\n".join([
        "# Segments", "", "Wholesale, in JPY billion:", "", "| Metric | FY2025 |", "| --- | --- |",
        "| Net sales | 16.8 |", "", "Retail, in JPY billion:", "", "| Metric | FY2025 |", "| --- | --- |",
        "| Net sales | 10.3 |",
    ])
    doc = parse_document(text.encode(), filename="seg.md", doc_id="seg.md", max_bytes=1_000_000)
    facts = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00").facts
    assert {(f.entity, f.value, f.source_locator) for f in facts} == {
        ("MINORI_WHOLESALE", 16.8, "table=1,row=Net sales,col=FY2025"),
        ("MINORI_RETAIL", 10.3, "table=2,row=Net sales,col=FY2025"),
    }
