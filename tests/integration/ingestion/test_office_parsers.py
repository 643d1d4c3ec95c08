"""Office and PDF parsers on the ACME sample corpus and on small documents built for one behaviour."""

from __future__ import annotations

from pathlib import Path

import pytest

import ragspine.samples
from ragspine.ingestion.errors import EncryptedDocumentError
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.ingestion.parsers import DocxParser, PdfParser, PptxParser, XlsxParser, parse_document
from tests.integration.ingestion import documents

ACME = Path(ragspine.samples.__file__).parent / "acme"


def parse_sample(name: str) -> ParsedDocument:
    return parse_document((ACME / name).read_bytes(), doc_id=name, filename=name, max_bytes=10_000_000)


def only(blocks: tuple[Block, ...], kind: BlockKind, locator: str) -> Block:
    (block,) = [b for b in blocks if b.kind is kind and b.locator == locator]
    return block


class TestAcmeDeck:
    def test_slide_two_table_has_the_seed_figures_under_its_slide_title(self) -> None:
        parsed = parse_sample("ACME_FY2024_Review.pptx")
        table = only(parsed.blocks, BlockKind.TABLE, "slide=2,table=1")
        assert table.rows[0] == ("Metric", "FY2023", "FY2024")
        revenue = next(row for row in table.rows if row[0] == "REVENUE")
        assert revenue[2] == "1320"
        assert table.heading_path == ("ACME_CN · 中国内地 — key figures",)
        assert "USD_M" in table.caption

    def test_every_slide_title_and_highlight_is_located_on_its_slide(self) -> None:
        parsed = parse_sample("ACME_FY2024_Review.pptx")
        assert parsed.title == "ACME Group FY2024 Review"
        assert [b.locator for b in parsed.blocks if b.kind is BlockKind.TITLE] == [f"slide={n}" for n in range(1, 8)]
        highlights = [b for b in parsed.blocks if b.kind is BlockKind.LIST_ITEM]
        assert len(highlights) == 3
        assert {b.locator for b in highlights} == {"slide=7"}


class TestAcmeWorkbook:
    def test_sheet_2024_table_names_each_cell(self) -> None:
        parsed = parse_sample("ACME_Quarterly_Revenue.xlsx")
        table = only(parsed.blocks, BlockKind.TABLE, "sheet=2024")
        cells = {ref: text for refs, row in zip(table.cell_refs, table.rows, strict=True) for ref, text in zip(refs, row, strict=True)}
        assert cells["C3"] == "82"
        assert cells["B2"] == "298"
        assert table.rows[0] == ("Entity", "2024Q1", "2024Q2", "2024Q3", "2024Q4")

    def test_the_unit_line_below_the_table_is_a_note_and_its_caption(self) -> None:
        parsed = parse_sample("ACME_Quarterly_Revenue.xlsx")
        note = only(parsed.blocks, BlockKind.NOTE, "sheet=2024,cell=A6")
        assert note.text == "Unit: USD_M (TOTAL channel)"
        assert only(parsed.blocks, BlockKind.TABLE, "sheet=2024").caption == note.text


class TestAcmeWordDocuments:
    def test_mda_paragraphs_sit_under_their_entity_headings(self) -> None:
        parsed = parse_sample("ACME_FY2024_MDA.docx")
        headings = [b.text for b in parsed.blocks if b.kind is BlockKind.HEADING]
        assert headings == ["中国内地（ACME_CN）", "香港（ACME_HK）", "日本（ACME_JP）", "集团（ACME_GROUP）"]
        hong_kong = only(parsed.blocks, BlockKind.PARAGRAPH, "heading=香港（ACME_HK）,para=1")
        assert "7.4%" in hong_kong.text
        assert hong_kong.heading_path == ("香港（ACME_HK）",)

    def test_board_minutes_parse_with_their_sections(self) -> None:
        parsed = parse_sample("ACME_Board_Minutes_2025Q4.docx")
        assert "Project Falcon" in [b.text for b in parsed.blocks if b.kind is BlockKind.HEADING]
        assert parsed.blocks[0].locator == "para=1"

    def test_markdown_policy_cites_returns_by_heading(self) -> None:
        parsed = parse_sample("ACME_Product_Policy.md")
        assert "30 days" in only(parsed.blocks, BlockKind.PARAGRAPH, "heading=Returns,para=1").text


class TestWorkbookLayout:
    def test_merged_header_heads_both_columns_and_spacers_vanish(self) -> None:
        # GIVEN a header merged over B3:C3, a spacer row 4 and an empty column F
        parsed = XlsxParser().parse(documents.merged_workbook(), doc_id="w")
        (table,) = [b for b in parsed.blocks if b.kind is BlockKind.TABLE]
        # THEN header, spacer-separated figures and the far column form one table
        assert table.rows == (
            ("Region", "FY2024", "FY2024", "FY2025", "Margin", ""),
            ("North", "10", "12.5", "25", "41%", "2025-01-31"),
            ("South", "8", "", "", "", ""),  # C6 is a formula Excel never calculated: no cached value
        )
        assert table.cell_refs[0] == ("A3", "B3", "C3", "D3", "E3", "G3")
        assert table.cell_refs[2][0] == "A6"
        assert table.locator == "sheet=P&L"
        assert table.heading_path == ("P&L",)

    def test_merged_title_row_is_one_note_that_captions_the_table(self) -> None:
        parsed = XlsxParser().parse(documents.merged_workbook(), doc_id="w")
        (note,) = [b for b in parsed.blocks if b.kind is BlockKind.NOTE]
        assert (note.locator, note.text) == ("sheet=P&L,cell=A1", "Revenue by region (USD m)")
        assert parsed.blocks[1].caption == "Revenue by region (USD m)"
        assert parsed.metadata["sheets"] == "2"


class TestWordLayout:
    def test_headings_lists_captions_and_merged_cells(self) -> None:
        parsed = DocxParser().parse(documents.sample_docx(), doc_id="d")
        located = [(b.kind, b.locator) for b in parsed.blocks]
        assert located == [
            (BlockKind.PARAGRAPH, "para=1"),
            (BlockKind.HEADING, "heading=Results"),
            (BlockKind.PARAGRAPH, "heading=Results,para=1"),
            (BlockKind.HEADING, "heading=By region"),
            (BlockKind.LIST_ITEM, "heading=By region,para=1"),
            (BlockKind.PARAGRAPH, "heading=By region,para=2"),
            (BlockKind.TABLE, "table=1"),
            (BlockKind.HEADING, "heading=Outlook"),
            (BlockKind.PARAGRAPH, "heading=Outlook,para=1"),
        ]
        table = parsed.blocks[6]
        assert table.rows[0] == ("Region", "FY2024", "FY2024")
        assert table.caption == "Table 1: Revenue (USD m)"
        assert table.heading_path == ("Results", "By region")


class TestDeckLayout:
    def test_grouped_text_merged_header_and_notes(self) -> None:
        parsed = PptxParser().parse(documents.sample_pptx(), doc_id="p")
        table = only(parsed.blocks, BlockKind.TABLE, "slide=1,table=1")
        assert table.rows == (("Metric", "FY", "FY"), ("", "2023", "2024"), ("REVENUE", "1180", "1320"))
        assert table.caption == "Unit: USD_M"
        assert only(parsed.blocks, BlockKind.PARAGRAPH, "slide=1").text == "Unit: USD_M"
        notes = only(parsed.blocks, BlockKind.NOTE, "slide=1,part=notes")
        assert notes.text == "Say the number slowly."
        assert notes.heading_path == ("Key figures",)


class TestPdf:
    def test_each_page_text_is_located_by_page(self) -> None:
        parsed = PdfParser().parse(documents.pdf_pages("Revenue grew 12%.", "", "Outlook stable."), doc_id="r")
        assert [(b.locator, b.text) for b in parsed.blocks] == [
            ("page=1,para=1", "Revenue grew 12%."),
            ("page=3,para=1", "Outlook stable."),
        ]
        assert parsed.metadata["pages"] == "3"

    def test_a_password_protected_pdf_is_refused_as_encrypted(self) -> None:
        with pytest.raises(EncryptedDocumentError) as caught:
            PdfParser().parse(documents.pdf_pages("secret", user_password="pw"), doc_id="r")
        assert caught.value.code == "INGEST_ENCRYPTED"
        assert "password" in caught.value.message

    def test_owner_password_only_still_opens(self) -> None:
        data = documents.pdf_pages("Readable text", user_password="", owner_password="owner")
        parsed = PdfParser().parse(data, doc_id="r")
        assert [b.text for b in parsed.blocks] == ["Readable text"]
