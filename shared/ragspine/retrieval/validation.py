"""Checks every ``ChunkIndex.search`` runs before touching its backend, so all adapters agree."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ragspine.errors import FieldError
from ragspine.retrieval.errors import InvalidTopKError, QueryEmptyError, QueryTooLongError, UnknownFilterError

if TYPE_CHECKING:
    from ragspine.retrieval.model import SearchFilters

MAX_QUERY_CHARS = 2000  # a question, not a document: longer input is a client bug or abuse
MAX_TOP_K = 1000


def validate_search(query: str, *, top_k: int, filters: SearchFilters,
                    max_query_chars: int = MAX_QUERY_CHARS) -> str:
    """Return the stripped query after checking the query, ``top_k`` and the filters.

    Args:
        query: the user's query text.
        top_k: how many hits the caller wants.
        filters: the metadata constraints; ``extra`` must be empty.
        max_query_chars: the longest accepted query, in characters after stripping.

    Returns:
        The query without surrounding whitespace.

    Raises:
        QueryEmptyError: the query is blank.
        QueryTooLongError: the query exceeds ``max_query_chars``.
        InvalidTopKError: ``top_k`` is below 1 or above ``MAX_TOP_K``.
        UnknownFilterError: ``filters.extra`` names any field.
    """
    text = query.strip()
    if not text:
        raise QueryEmptyError("the search query is empty", field_errors=(FieldError("query", "must not be empty"),))
    if len(text) > max_query_chars:
        raise QueryTooLongError(
            f"the search query has {len(text)} characters; the limit is {max_query_chars}",
            field_errors=(FieldError("query", f"at most {max_query_chars} characters"),),
        )
    if not 1 <= top_k <= MAX_TOP_K:
        raise InvalidTopKError(f"top_k must be between 1 and {MAX_TOP_K}, got {top_k}",
                               field_errors=(FieldError("top_k", f"between 1 and {MAX_TOP_K}"),))
    if filters.extra:
        names = ", ".join(sorted(filters.extra))
        raise UnknownFilterError(
            f"cannot filter on unknown field(s): {names}",
            field_errors=tuple(FieldError(f"filters.{name}", "unknown filter field") for name in sorted(filters.extra)),
        )
    return text
