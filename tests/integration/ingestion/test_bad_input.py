"""Every unreadable upload ends in one of our errors, with a stable code and a fix in the message."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import ragspine.samples
from ragspine.errors import PayloadTooLargeError
from ragspine.ingestion.errors import (
    CorruptDocumentError,
    DocumentTooLargeError,
    EmptyDocumentError,
    EncryptedDocumentError,
    UnsupportedDocumentTypeError,
)
from ragspine.ingestion.parsers import MarkdownParser, TextParser, parse_document, parser_for
from tests.integration.ingestion import documents

ACME = Path(ragspine.samples.__file__).parent / "acme"
LIMIT = 1_000_000


def parse_file(path: Path, *, max_bytes: int = LIMIT, media_type: str | None = None) -> object:
    return parse_document(path.read_bytes(), doc_id=path.name, filename=path.name, max_bytes=max_bytes, media_type=media_type)


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


class TestUnreadableFiles:
    @pytest.mark.parametrize("name", ["deck.pptx", "book.xlsx", "memo.docx", "scan.pdf"])
    def test_random_bytes_under_a_known_extension_are_corrupt(self, tmp_path: Path, name: str) -> None:
        path = write(tmp_path, name, os.urandom(2048))
        with pytest.raises(CorruptDocumentError) as caught:
            parse_file(path)
        assert caught.value.code == "INGEST_CORRUPT_FILE"
        assert name in caught.value.message

    @pytest.mark.parametrize("sample", ["ACME_FY2024_Review.pptx", "ACME_Quarterly_Revenue.xlsx", "ACME_FY2024_MDA.docx"])
    def test_a_truncated_office_file_is_corrupt(self, tmp_path: Path, sample: str) -> None:
        data = (ACME / sample).read_bytes()
        path = write(tmp_path, sample, data[: len(data) // 2])
        with pytest.raises(CorruptDocumentError, match="damaged or truncated"):
            parse_file(path)

    def test_a_truncated_pdf_is_corrupt(self, tmp_path: Path) -> None:
        data = documents.pdf_pages("Revenue grew.")
        path = write(tmp_path, "cut.pdf", data[: len(data) // 2])
        with pytest.raises(CorruptDocumentError, match="PDF"):
            parse_file(path)

    def test_a_workbook_renamed_to_pptx_is_corrupt_with_the_library_error_chained(self, tmp_path: Path) -> None:
        path = write(tmp_path, "renamed.pptx", (ACME / "ACME_Quarterly_Revenue.xlsx").read_bytes())
        with pytest.raises(CorruptDocumentError) as caught:
            parse_file(path)
        assert caught.value.__cause__ is not None
        assert "PPTX" in caught.value.message

    def test_text_in_a_legacy_encoding_is_refused_with_how_to_fix(self, tmp_path: Path) -> None:
        path = write(tmp_path, "notes.txt", "营业收入增长".encode("gb18030"))
        with pytest.raises(CorruptDocumentError, match="UTF-8"):
            parse_file(path)


class TestEncryptedPdf:
    def test_a_password_protected_pdf_has_its_own_code(self, tmp_path: Path) -> None:
        path = write(tmp_path, "locked.pdf", documents.pdf_pages("secret figures", user_password="s3cret"))
        with pytest.raises(EncryptedDocumentError) as caught:
            parse_file(path)
        assert caught.value.code == "INGEST_ENCRYPTED"
        assert caught.value.retryable is False


class TestEmptyFiles:
    @pytest.mark.parametrize("name", ["empty.pptx", "empty.pdf", "empty.txt", "blank.md"])
    def test_an_empty_or_blank_file_is_empty(self, tmp_path: Path, name: str) -> None:
        path = write(tmp_path, name, b"" if name.startswith("empty") else b"  \n\n ")
        with pytest.raises(EmptyDocumentError) as caught:
            parse_file(path)
        assert caught.value.code == "INGEST_EMPTY"

    def test_a_pdf_without_a_text_layer_is_empty_and_says_ocr(self, tmp_path: Path) -> None:
        path = write(tmp_path, "scan.pdf", documents.pdf_pages(""))
        with pytest.raises(EmptyDocumentError, match="OCR"):
            parse_file(path)

    def test_html_with_only_markup_is_empty(self, tmp_path: Path) -> None:
        path = write(tmp_path, "page.html", b"<html><body><script>x()</script></body></html>")
        with pytest.raises(EmptyDocumentError):
            parse_file(path)


class TestUnsupportedTypes:
    @pytest.mark.parametrize("name", ["slides.ppt", "archive.zip", "photo.jpeg", "README"])
    def test_unknown_extensions_are_unsupported_and_list_what_is(self, tmp_path: Path, name: str) -> None:
        path = write(tmp_path, name, b"data")
        with pytest.raises(UnsupportedDocumentTypeError) as caught:
            parse_file(path)
        assert caught.value.code == "INGEST_UNSUPPORTED_TYPE"
        assert caught.value.http_status == 415
        assert ".pptx" in caught.value.message

    def test_the_media_type_decides_when_the_name_has_no_known_extension(self) -> None:
        assert isinstance(parser_for("uploads/1234", "text/markdown; charset=utf-8"), MarkdownParser)
        assert isinstance(parser_for("NOTES.TXT", "application/octet-stream"), TextParser)


class TestSizeLimits:
    def test_a_file_over_the_limit_is_too_large(self, tmp_path: Path) -> None:
        path = write(tmp_path, "big.txt", b"a" * 2_001)
        with pytest.raises(DocumentTooLargeError) as caught:
            parse_file(path, max_bytes=2_000)
        assert caught.value.code == "INGEST_TOO_LARGE"
        assert caught.value.http_status == 413
        assert isinstance(caught.value, PayloadTooLargeError)

    def test_an_office_file_that_unpacks_past_the_limit_is_too_large(self, tmp_path: Path) -> None:
        path = write(tmp_path, "bomb.docx", documents.zip_bomb(3_000_000))
        assert path.stat().st_size < 20_000
        with pytest.raises(DocumentTooLargeError, match="unpacks"):
            parse_file(path, max_bytes=20_000)


class TestSuccessfulParse:
    def test_the_title_falls_back_to_the_file_name(self, tmp_path: Path) -> None:
        path = write(tmp_path, "q3-notes.txt", b"Revenue grew.")
        parsed = parse_document(path.read_bytes(), doc_id="doc-1", filename="uploads/q3-notes.txt", max_bytes=LIMIT)
        assert parsed.title == "q3-notes"
        assert parsed.doc_id == "doc-1"


def test_every_ingestion_error_is_permanent_with_a_distinct_code() -> None:
    kinds = [UnsupportedDocumentTypeError, CorruptDocumentError, EncryptedDocumentError, EmptyDocumentError, DocumentTooLargeError]
    assert len({kind.code for kind in kinds}) == len(kinds)
    assert all(kind.retryable is False and kind.code.startswith("INGEST_") for kind in kinds)
