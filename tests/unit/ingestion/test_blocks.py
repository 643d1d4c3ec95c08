"""Shared parser helpers: table trimming, locators per section, text decoding, xlsx cell text."""

from __future__ import annotations

import datetime as dt

import pytest

from ragspine.ingestion.errors import CorruptDocumentError
from ragspine.ingestion.model import BlockKind
from ragspine.ingestion.parsers._blocks import SectionCounter, decode_text, locator_value, split_paragraphs, table_block
from ragspine.ingestion.parsers.xlsx import cell_text


class TestTableBlock:
    def test_empty_rows_and_columns_are_dropped_with_their_cell_refs(self) -> None:
        # GIVEN a grid with a spacer row and a spacer column
        rows = [["Metric", "", "FY2024"], ["", "", ""], ["REVENUE", " ", "1320"]]
        refs = [["A1", "B1", "C1"], ["A2", "B2", "C2"], ["A3", "B3", "C3"]]
        # WHEN it becomes a block
        block = table_block(rows, locator="sheet=x", cell_refs=refs)
        # THEN only cells with text remain, and the refs still name the same cells
        assert block is not None
        assert block.kind is BlockKind.TABLE
        assert block.rows == (("Metric", "FY2024"), ("REVENUE", "1320"))
        assert block.cell_refs == (("A1", "C1"), ("A3", "C3"))
        assert block.text == "Metric | FY2024\nREVENUE | 1320"

    def test_ragged_rows_are_padded_and_cell_whitespace_collapsed(self) -> None:
        block = table_block([["a\nb", "c"], ["d"]], locator="table=1")
        assert block is not None
        assert block.rows == (("a b", "c"), ("d", ""))

    def test_a_table_without_text_is_no_block(self) -> None:
        assert table_block([["", " "], []], locator="table=1") is None


class TestSectionCounter:
    def test_paragraphs_are_numbered_per_heading_and_tables_through_the_document(self) -> None:
        section = SectionCounter()
        assert section.next_paragraph() == "para=1"
        assert section.enter_heading("Returns", 2) == "heading=Returns"
        assert section.next_paragraph() == "heading=Returns,para=1"
        assert section.next_table() == "table=1"
        section.enter_heading("Membership", 2)
        assert section.next_paragraph() == "heading=Membership,para=1"
        assert section.next_table() == "table=2"

    def test_heading_path_keeps_parents_of_deeper_headings_only(self) -> None:
        section = SectionCounter()
        section.enter_heading("Policy", 1)
        section.enter_heading("Returns", 2)
        section.enter_heading("Refunds", 3)
        section.enter_heading("Membership", 2)
        assert section.path == ("Policy", "Membership")

    def test_long_headings_are_shortened_inside_locators(self) -> None:
        value = locator_value("word " * 40)
        assert len(value) == 80
        assert value.endswith("…")


class TestDecodeText:
    def test_utf8_with_or_without_bom_and_utf16_with_bom_decode(self) -> None:
        assert decode_text("你好\r\nworld".encode(), what="text") == "你好\nworld"
        assert decode_text(b"\xef\xbb\xbfhi", what="text") == "hi"
        assert decode_text("こんにちは".encode("utf-16"), what="text") == "こんにちは"

    def test_legacy_code_pages_are_refused_with_a_fix(self) -> None:
        with pytest.raises(CorruptDocumentError, match="re-save it as UTF-8"):
            decode_text("营业收入".encode("gbk"), what="text")

    def test_binary_content_is_refused(self) -> None:
        with pytest.raises(CorruptDocumentError, match="binary"):
            decode_text(b"abc\x00def", what="text")

    def test_paragraphs_split_on_blank_lines_only(self) -> None:
        assert split_paragraphs("a\nb\n\n  \n c \n\n\n") == ["a\nb", "c"]


class TestXlsxCellText:
    @pytest.mark.parametrize(
        ("value", "number_format", "expected"),
        [
            (82, "General", "82"),
            (541.2, "0.0", "541.2"),
            (0.1 + 0.2, "General", "0.3"),
            (1320.0, "#,##0", "1320"),
            (0.41, "0%", "41%"),
            (0.123, "0.0%", "12.3%"),
            (True, "General", "TRUE"),
            (dt.datetime(2024, 3, 1), "yyyy-mm-dd", "2024-03-01"),
            (dt.datetime(2024, 3, 1, 9, 30), "yyyy-mm-dd hh:mm", "2024-03-01 09:30:00"),
            ("  January–June\n2023 ", "@", "January–June 2023"),
        ],
    )
    def test_values_read_as_excel_shows_them(self, value: object, number_format: str, expected: str) -> None:
        assert cell_text(value, number_format) == expected
