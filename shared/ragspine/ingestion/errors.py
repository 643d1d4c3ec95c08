"""Why a document could not be ingested: one exception per failure kind, each with a stable code.

None of these is worth retrying (the same bytes fail the same way) except
``SourceUnavailableError``, an I/O failure while reading the file. The message says what was
wrong and what the uploader can do about it; callers branch on the class or ``code``, never on
the message text.
"""

from __future__ import annotations

from ragspine.errors import InvalidInputError, PayloadTooLargeError, ProviderUnavailableError


class IngestionError(InvalidInputError):
    """Base of every failure to read an uploaded document."""

    code = "INGEST_FAILED"
    http_status = 422
    retryable = False


class UnsupportedDocumentTypeError(IngestionError):
    """No parser handles this file's extension or media type."""

    code = "INGEST_UNSUPPORTED_TYPE"
    http_status = 415


class CorruptDocumentError(IngestionError):
    """The file claims a format but its bytes do not follow it (truncated, damaged, or mislabelled)."""

    code = "INGEST_CORRUPT_FILE"


class EncryptedDocumentError(IngestionError):
    """The file is password-protected, so its content cannot be read."""

    code = "INGEST_ENCRYPTED"


class EmptyDocumentError(IngestionError):
    """The file is readable but holds no text or table to index."""

    code = "INGEST_EMPTY"


class DocumentTooLargeError(IngestionError, PayloadTooLargeError):
    """The file, or what it unpacks to, exceeds the configured size limit."""

    code = "INGEST_TOO_LARGE"
    http_status = 413


class ArchiveExpansionError(DocumentTooLargeError):
    """An Office package inflates past the size or compression-ratio limit (a zip bomb, or simply too big)."""

    code = "INGEST_ARCHIVE_TOO_LARGE"


class ParseTimeoutError(IngestionError):
    """Parsing the document took longer than the per-document time budget."""

    code = "INGEST_PARSE_TIMEOUT"


class ParseMemoryExceededError(IngestionError):
    """Parsing the document needed more memory than the per-document budget."""

    code = "INGEST_PARSE_MEMORY_EXCEEDED"


class ParserCrashedError(IngestionError):
    """The process parsing the document ended abnormally (a crash in a format library, killed by a signal)."""

    code = "INGEST_PARSER_CRASHED"


class ParserReplyInvalidError(IngestionError):
    """The process parsing the document answered with something that is not a parse result (never used)."""

    code = "INGEST_PARSER_REPLY_INVALID"


class SourceNotFoundError(IngestionError):
    """The file to ingest does not exist or cannot be opened (missing, a folder, no permission)."""

    code = "INGEST_SOURCE_NOT_FOUND"
    http_status = 404


class SourceChangedError(IngestionError):
    """The file's bytes no longer match the hash its operation was created with."""

    code = "INGEST_SOURCE_CHANGED"
    http_status = 409


class InvalidMetadataError(IngestionError):
    """The upload's metadata is invalid (an unknown sensitivity level)."""

    code = "INGEST_INVALID_METADATA"


class SourceUnavailableError(ProviderUnavailableError):
    """The file could not be read just now (an I/O error); retrying may succeed."""

    code = "INGEST_SOURCE_UNAVAILABLE"


class StepOrderError(IngestionError):
    """A step ran before the step whose output it needs (a wiring bug, not bad input)."""

    code = "INGEST_STEP_ORDER"
    http_status = 500
