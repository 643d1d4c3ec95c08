"""Plain text: paragraphs separated by blank lines, located as ``para=N``."""

from __future__ import annotations

from ragspine.ingestion.model import BlockKind, ParsedDocument
from ragspine.ingestion.parsers._blocks import decode_text, split_paragraphs, text_block


class TextParser:
    """Reads UTF-8 (or BOM-marked UTF-16/32) plain text."""

    media_types = ("text/plain",)
    extensions = (".txt", ".text")

    def parse(self, data: bytes, *, doc_id: str) -> ParsedDocument:
        """Split the text on blank lines; each paragraph is one block."""
        paragraphs = split_paragraphs(decode_text(data, what="text"))
        blocks = tuple(
            text_block(BlockKind.PARAGRAPH, paragraph, f"para={number}")
            for number, paragraph in enumerate(paragraphs, start=1)
        )
        return ParsedDocument(
            doc_id=doc_id, title="", media_type="text/plain", blocks=blocks, metadata={"format": "txt"}
        )
