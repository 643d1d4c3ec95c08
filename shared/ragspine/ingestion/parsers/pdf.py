"""PDF via pypdf: the text of each page, split into paragraphs located as ``page=N,para=M``.

Tables are not extracted from PDFs. pdfplumber was tried on the third-party corpus: with
ruling-line detection it found one table in three files and merged its rows into one cell;
with text alignment it split words across columns ("receipts and r" | "ecoveries"). Cells
cut like that would feed wrong numbers to fact extraction, which is worse than none, so a
PDF table's figures reach the index only as page text (narrative retrieval), never as facts.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING

from ragspine.ingestion.errors import EncryptedDocumentError
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.ingestion.parsers._blocks import one_line, split_paragraphs, text_block

if TYPE_CHECKING:
    from pypdf import PdfReader

# pypdf pads layout gaps with runs of spaces and separates CJK words with tabs.
_GAPS = re.compile(r"[ \t\u00a0]+")


class PdfParser:
    """Reads text-based PDFs; scanned pages have no text layer and yield nothing (OCR first)."""

    media_types = ("application/pdf",)
    extensions = (".pdf",)

    def parse(self, data: bytes, *, doc_id: str) -> ParsedDocument:
        """Paragraphs page by page; a password-protected file raises ``EncryptedDocumentError``."""
        from pypdf import PdfReader

        reader = PdfReader(io.BytesIO(data))
        _unlock(reader)
        blocks: list[Block] = []
        for number, page in enumerate(reader.pages, start=1):
            text = "\n".join(_GAPS.sub(" ", line).strip() for line in (page.extract_text() or "").split("\n"))
            blocks.extend(
                text_block(BlockKind.PARAGRAPH, paragraph, f"page={number},para={index}")
                for index, paragraph in enumerate(split_paragraphs(text), start=1)
            )
        metadata = reader.metadata
        title = one_line(str(metadata.title or "")) if metadata is not None else ""
        return ParsedDocument(
            doc_id=doc_id,
            title=title,
            media_type="application/pdf",
            blocks=tuple(blocks),
            metadata={"format": "pdf", "pages": str(len(reader.pages))},
        )


def _unlock(reader: PdfReader) -> None:
    """Open an encrypted PDF that needs no password to read (owner-password only), else refuse it."""
    from pypdf import PasswordType
    from pypdf.errors import DependencyError

    if not reader.is_encrypted:
        return
    try:
        unlocked = reader.decrypt("") != PasswordType.NOT_DECRYPTED
    except DependencyError as exc:  # AES without the optional crypto backend installed
        raise EncryptedDocumentError(
            "The PDF is encrypted with AES, which this deployment cannot decrypt; "
            "save an unprotected copy (Print to PDF or remove the security settings) and upload that."
        ) from exc
    if not unlocked:
        raise EncryptedDocumentError(
            "The PDF is password-protected; remove the password (or save an unprotected copy) and upload it again."
        )
