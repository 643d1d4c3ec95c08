"""Picks the parser for a file and turns every way a file can be unreadable into one of our errors."""

from __future__ import annotations

import dataclasses
import io
import logging
import zipfile
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from ragspine.ingestion.errors import (
    CorruptDocumentError,
    DocumentTooLargeError,
    EmptyDocumentError,
    IngestionError,
    UnsupportedDocumentTypeError,
)
from ragspine.ingestion.parsers.csv_tables import CsvParser
from ragspine.ingestion.parsers.docx import DocxParser
from ragspine.ingestion.parsers.guard import ParseLimits, check_package, within_budget
from ragspine.ingestion.parsers.html import HtmlParser
from ragspine.ingestion.parsers.markdown import MarkdownParser
from ragspine.ingestion.parsers.pdf import PdfParser
from ragspine.ingestion.parsers.pptx import PptxParser
from ragspine.ingestion.parsers.text import TextParser
from ragspine.ingestion.parsers.xlsx import XlsxParser

if TYPE_CHECKING:
    from ragspine.ingestion.model import ParsedDocument
    from ragspine.ingestion.parsers.ports import DocumentParser

logger = logging.getLogger(__name__)

PARSERS: tuple[DocumentParser, ...] = (
    PptxParser(), XlsxParser(), DocxParser(), PdfParser(), MarkdownParser(), HtmlParser(), TextParser(),
    CsvParser(),
)
# Office files are zip packages: refuse one that would unpack past this multiple of the size
# limit (a zip bomb) before any library inflates it. Real documents stay far below it.
MAX_EXPANSION = 100
_OFFICE = (PptxParser, XlsxParser, DocxParser)


def supported_extensions() -> tuple[str, ...]:
    """Every file extension some parser reads, e.g. ``(".pptx", ".xlsx", ...)``."""
    return tuple(extension for parser in PARSERS for extension in parser.extensions)


def parser_for(filename: str, media_type: str | None = None) -> DocumentParser:
    """The parser for a file, chosen by extension first, then by media type.

    The extension wins because uploads often arrive as ``application/octet-stream``.

    Raises:
        UnsupportedDocumentTypeError: No parser reads this extension or media type.
    """
    suffix = PurePosixPath(filename.replace("\\", "/")).suffix.lower()
    for parser in PARSERS:
        if suffix in parser.extensions:
            return parser
    base = (media_type or "").split(";", 1)[0].strip().lower()
    for parser in PARSERS:
        if base and base in parser.media_types:
            return parser
    raise UnsupportedDocumentTypeError(
        f"{filename}: files of type '{suffix or base or 'unknown'}' cannot be ingested. "
        f"Supported: {', '.join(supported_extensions())}. Convert legacy Office files "
        "(.doc, .xls, .ppt) to .docx, .xlsx or .pptx first."
    )


def parse_document(
    data: bytes, *, doc_id: str, filename: str, max_bytes: int, media_type: str | None = None,
    limits: ParseLimits | None = None, watchdog: bool = True,
) -> ParsedDocument:
    """Parse one uploaded file into blocks, or say precisely why it cannot be.

    Args:
        data: The whole file.
        doc_id: Document id stamped on the result.
        filename: The uploaded name (or object key); its extension picks the parser.
        max_bytes: The configured upload limit.
        media_type: The declared content type, used when the extension is unknown.
        limits: What an Office package may inflate to, and the parse's time and memory budget.
        watchdog: Enforce the time and memory budget with a watchdog thread; False where the process
            itself is limited (a parse child under rlimits and a killing parent).

    Returns:
        The parsed document, with at least one block; its title falls back to the file name.

    Raises:
        UnsupportedDocumentTypeError, DocumentTooLargeError (ArchiveExpansionError), EmptyDocumentError,
        EncryptedDocumentError, CorruptDocumentError, ParseTimeoutError, ParseMemoryExceededError: never retryable.
    """
    limits = limits or ParseLimits()
    parser = parser_for(filename, media_type)
    label = parser.extensions[0].lstrip(".").upper()
    if len(data) > max_bytes:
        raise DocumentTooLargeError(
            f"{filename} is {len(data):,} bytes, over the {max_bytes:,}-byte limit; split it or upload a smaller file."
        )
    if not data or data.isspace():
        raise EmptyDocumentError(f"{filename} is empty; upload the file again with its content.")
    if isinstance(parser, _OFFICE):
        _check_package(data, filename=filename, label=label, max_bytes=max_bytes)
        check_package(data, filename=filename, label=label, limits=limits)
    try:
        if watchdog:
            parsed = within_budget(lambda: parser.parse(data, doc_id=doc_id), filename=filename, limits=limits)
        else:
            parsed = parser.parse(data, doc_id=doc_id)
    except (IngestionError, MemoryError):
        raise
    except Exception as exc:
        # Format libraries raise a wide, undocumented range of exceptions on malformed input
        # (KeyError for a missing part, XMLSyntaxError, struct.error, ...): this is the one
        # boundary that turns them into ours. The traceback is logged so a bug of ours stays visible.
        logger.warning("parser failed", extra={"doc_id": doc_id, "format": label}, exc_info=True)
        raise CorruptDocumentError(
            f"{filename} could not be read as {label}: it is damaged, truncated or not really a {label} file "
            f"({type(exc).__name__}: {str(exc)[:160]}). Open it in its application, save a fresh copy and upload that."
        ) from exc
    if not parsed.blocks:
        raise EmptyDocumentError(
            f"{filename} has no text or tables to index (a scanned PDF needs OCR first; "
            "an image-only slide or an empty sheet has nothing to read)."
        )
    if not parsed.title:
        parsed = dataclasses.replace(parsed, title=PurePosixPath(filename.replace("\\", "/")).stem)
    return parsed


def _check_package(data: bytes, *, filename: str, label: str, max_bytes: int) -> None:
    """Refuse an Office file that is not a readable zip, or that would unpack too far."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, ValueError, OSError, EOFError) as exc:
        raise CorruptDocumentError(
            f"{filename} is not a valid {label} file: {label} files are zip packages and this one is damaged "
            "or truncated. Save a fresh copy from its application and upload that."
        ) from exc
    if unpacked > max_bytes * MAX_EXPANSION:
        raise DocumentTooLargeError(
            f"{filename} unpacks to {unpacked:,} bytes, over {MAX_EXPANSION}x the {max_bytes:,}-byte limit; "
            "split it into smaller files."
        )
