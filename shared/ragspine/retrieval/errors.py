"""Typed retrieval errors: bad search requests and an index that cannot be read.

Each subclasses the engine error of its kind (``InvalidInputError`` renders as a client
error, ``ProviderUnavailableError`` as "could not search"), so callers can catch the broad
class and still log the specific ``code``.
"""

from __future__ import annotations

from ragspine.errors import InvalidInputError, MissingLineageError, ProviderUnavailableError


class QueryEmptyError(InvalidInputError):
    """The query is empty or blank."""

    code = "RETRIEVAL_QUERY_EMPTY"


class QueryTooLongError(InvalidInputError):
    """The query is longer than the configured limit."""

    code = "RETRIEVAL_QUERY_TOO_LONG"


class InvalidTopKError(InvalidInputError):
    """``top_k`` is outside the allowed range."""

    code = "RETRIEVAL_TOP_K_INVALID"


class UnknownFilterError(InvalidInputError):
    """A filter names a field the index cannot filter on (``SearchFilters.extra``)."""

    code = "RETRIEVAL_UNKNOWN_FILTER"


class VectorDimensionError(InvalidInputError):
    """A vector's length differs from the index dimension, or vectors do not align with chunks."""

    code = "RETRIEVAL_VECTOR_DIMENSION"


class ChunkLineageError(MissingLineageError):
    """A chunk without an id, a document id or a source locator was offered for indexing."""

    code = "RETRIEVAL_CHUNK_LINEAGE"


class IndexUnavailableError(ProviderUnavailableError):
    """The chunk index cannot be opened or read right now (missing file, lock timeout)."""

    code = "RETRIEVAL_INDEX_UNAVAILABLE"


class IndexMissingError(IndexUnavailableError):
    """The index file does not exist and it was opened without ``create``."""

    code = "RETRIEVAL_INDEX_MISSING"
    retryable = False  # nothing appears until documents are indexed


class IndexCorruptError(IndexUnavailableError):
    """The index file is not a chunk index (corrupt, truncated or another file); rebuild it."""

    code = "RETRIEVAL_INDEX_CORRUPT"
    retryable = False  # retrying reads the same broken file
