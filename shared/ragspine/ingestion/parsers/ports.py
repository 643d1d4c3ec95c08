"""The one role every format parser plays."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ragspine.ingestion.model import ParsedDocument


class DocumentParser(Protocol):
    """Turns the bytes of one file format into blocks that each carry a citable locator.

    Parsers are stateless and import their format library inside ``parse`` so that loading
    the registry costs a Lambda cold start nothing.
    """

    @property
    def media_types(self) -> tuple[str, ...]:
        """MIME types this parser reads, e.g. ``("application/pdf",)``."""
        ...

    @property
    def extensions(self) -> tuple[str, ...]:
        """Lower-case file extensions with their dot, e.g. ``(".pdf",)``."""
        ...

    def parse(self, data: bytes, *, doc_id: str) -> ParsedDocument:
        """Parse one file.

        Args:
            data: The whole file.
            doc_id: The document id to stamp on the result (lineage starts here).

        Returns:
            The document's blocks in reading order; may be empty (the registry decides
            that an empty document is an error).

        Raises:
            IngestionError: A failure the parser recognises (e.g. ``EncryptedDocumentError``).
                Other exceptions mean malformed input; ``parse_document`` converts them to
                ``CorruptDocumentError``.
        """
        ...
