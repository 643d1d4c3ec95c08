"""Pure request bodies and document shapes of the OpenSearch chunk index (no I/O, no SDK).

Both retrieval legs take their constraints from one function, ``build_filter_clauses``, so the
lexical query's ``bool.filter`` and the k-NN query's ``filter`` are the same list by
construction (a chunk filtered out of one leg can never come back through the other), and
the sensitivity ceiling is always one of them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ragspine.errors import FieldError, InvalidInputError
from ragspine.retrieval.model import Chunk, SearchFilters
from ragspine.retrieval.passage_text import context_header
from ragspine.sensitivity import Sensitivity

# SearchFilters attribute -> keyword field matched with ``terms`` (any of the values).
TERMS_FILTERS: Mapping[str, str] = {
    "libraries": "library",
    "doc_ids": "doc_id",
    "entities": "entity",
    "periods": "period",
    "space_ids": "space_id",
    "document_ids": "document_id",
    "version_ids": "version_id",
    "categories": "category",
    "tags_any": "tags",
    "version_labels": "version_label",
    "product_codes": "product_code",
}
# Keyword fields a caller may also constrain through ``SearchFilters.extra``. Sensitivity is
# deliberately absent: the ceiling has exactly one way in, ``max_sensitivity``.
EXTRA_FILTER_FIELDS = frozenset({
    "chunk_id", "source_locator", "parent_id", "prev_id", "next_id", "version_label", "product_code",
})
# CJK bigrams (``text``) plus the standard analyzer (``text.en``: English words, and CJK as
# single characters), so a query gets unigram and bigram matches; titles weigh double. ``context``
# is the document's company, period and type (``retrieval.passage_text.context_header``). Title
# and context are fields apart from the text, the same on every chunk of a document, so a match
# in them lifts all its chunks alike: the embedded index scores them the same way, as one
# document field beside the passage (``retrieval.embedded_rows``). ``.joins`` holds a number
# joined to the CJK character after it ("16世", "9月"; not a year), the embedded index's ``ragspine.text`` joins.
LEXICAL_FIELDS = ("text", "text.en", "text.joins", "title^2", "title.en^2", "title.joins^2",
                  "context", "context.en", "context.joins")
VECTOR_FIELD = "embedding"
OUTSIDE_SPACES: dict[str, Any] = {"bool": {"must_not": [{"exists": {"field": "space_id"}}]}}
_OPTIONAL_KEYWORDS = ("entity", "period", "parent_id", "prev_id", "next_id", "space_id", "document_id",
                      "version_id", "category", "version_label", "product_code", "company", "doc_period", "doc_type")
_NOT_RETURNED = {"excludes": [VECTOR_FIELD]}


def build_filter_clauses(filters: SearchFilters) -> list[dict[str, Any]]:
    """The filter clauses shared by both legs, sensitivity ceiling first.

    Raises:
        InvalidInputError: ``filters.extra`` names a field that cannot be filtered on.
    """
    # Parents are stored for expansion (``get``) but never searched, like the embedded index.
    clauses: list[dict[str, Any]] = [{"range": {"sensitivity_level": {"lte": int(filters.max_sensitivity)}}},
                                     {"term": {"is_parent": False}}]
    if not filters.space_ids:  # Gateway chunks only when their space is named (SearchFilters)
        clauses.append(OUTSIDE_SPACES)
    for attribute, field in TERMS_FILTERS.items():
        values = getattr(filters, attribute)
        if values:
            clauses.append({"terms": {field: list(values)}})
    clauses.extend({"term": {"tags": tag}} for tag in filters.tags_all)
    unknown = sorted(set(filters.extra) - EXTRA_FILTER_FIELDS)
    if unknown:
        raise InvalidInputError(
            f"cannot filter on {', '.join(unknown)}; filterable extra fields: {', '.join(sorted(EXTRA_FILTER_FIELDS))}",
            field_errors=tuple(FieldError(f"filters.extra.{name}", "unknown filter field") for name in unknown))
    clauses.extend({"term": {field: value}} for field, value in sorted(filters.extra.items()))
    return clauses


def build_lexical_query(query: str, filters: SearchFilters, *, size: int) -> dict[str, Any]:
    """The BM25 leg: ``multi_match`` over the CJK and English text fields, filtered in ``bool``."""
    return {
        "size": size,
        "_source": _NOT_RETURNED,
        "query": {"bool": {
            "must": [{"multi_match": {"query": query, "fields": list(LEXICAL_FIELDS), "type": "most_fields"}}],
            "filter": build_filter_clauses(filters),
        }},
    }


def build_knn_query(vector: Sequence[float], k: int, filters: SearchFilters) -> dict[str, Any]:
    """The k-NN leg: the unit query vector, ``k`` neighbours, the same filters inside ``knn``.

    The filter sits inside the ``knn`` clause (efficient filtering, faiss/lucene engines), not in
    a ``post_filter``, so a restrictive filter still yields up to ``k`` neighbours.
    """
    return {
        "size": k,
        "_source": _NOT_RETURNED,
        "query": {"knn": {VECTOR_FIELD: {
            "vector": unit_vector(vector),
            "k": k,
            "filter": {"bool": {"filter": build_filter_clauses(filters)}},
        }}},
    }


def build_version_filter(doc_id: str, version_id: str | None) -> list[dict[str, Any]]:
    """Clauses selecting a document's chunks, or only those of one of its versions."""
    clauses: list[dict[str, Any]] = [{"term": {"doc_id": doc_id}}]
    if version_id is not None:
        clauses.append({"term": {"version_id": version_id}})
    return clauses


def checked_query(query: str, *, max_chars: int) -> str:
    """The query without surrounding blanks.

    Raises:
        InvalidInputError: the query is empty or longer than ``max_chars``.
    """
    text = query.strip() if isinstance(query, str) else ""
    if not text:
        raise InvalidInputError("the search query is empty", field_errors=(FieldError("query", "empty"),))
    if len(text) > max_chars:
        raise InvalidInputError(f"the search query has {len(text)} characters; the limit is {max_chars}",
                                field_errors=(FieldError("query", "too long"),))
    return text


def check_dimension(vector: Sequence[float], dimension: int, *, name: str) -> None:
    """Refuse a vector of the wrong length.

    Raises:
        InvalidInputError: ``len(vector) != dimension``.
    """
    if len(vector) != dimension:
        raise InvalidInputError(f"{name} must have {dimension} dimensions, got {len(vector)}",
                                field_errors=(FieldError(name, "wrong dimension"),))


def unit_vector(vector: Sequence[float]) -> list[float]:
    """The vector scaled to length 1, so inner product equals cosine similarity.

    Raises:
        InvalidInputError: the vector is empty, zero, or holds NaN or infinity.
    """
    values = [float(v) for v in vector]
    norm = math.sqrt(math.fsum(v * v for v in values))
    if not values or not math.isfinite(norm) or norm == 0.0:
        raise InvalidInputError("an embedding vector must be non-empty, finite and non-zero")
    return [v / norm for v in values]


def chunk_to_document(chunk: Chunk, vector: Sequence[float] | None = None) -> dict[str, Any]:
    """The ``_source`` stored for a chunk (keyword fields only when set; vector normalised)."""
    document: dict[str, Any] = {
        "chunk_id": chunk.chunk_id,
        "doc_id": chunk.doc_id,
        "source_locator": chunk.source_locator,
        "text": chunk.text,
        "title": chunk.title,
        "heading_path": list(chunk.heading_path),
        "sensitivity": chunk.sensitivity.name,
        "sensitivity_level": int(chunk.sensitivity),
        "library": chunk.library,
        "position": chunk.position,
        "tags": list(chunk.tags),
        "is_parent": chunk.is_parent,
    }
    context = context_header(chunk)
    if context:
        document["context"] = context
    for field in _OPTIONAL_KEYWORDS:
        value = getattr(chunk, field)
        if value is not None:
            document[field] = value
    if vector is not None:
        document[VECTOR_FIELD] = unit_vector(vector)
    return document


def document_to_chunk(source: Mapping[str, Any]) -> Chunk:
    """The chunk stored in a ``_source`` (the inverse of ``chunk_to_document``)."""
    optional: dict[str, Any] = {field: source.get(field) for field in _OPTIONAL_KEYWORDS}
    return Chunk(
        chunk_id=source["chunk_id"],
        doc_id=source["doc_id"],
        source_locator=source["source_locator"],
        text=source.get("text", ""),
        title=source.get("title", ""),
        sensitivity=Sensitivity(int(source["sensitivity_level"])),
        library=source.get("library", "default"),
        position=int(source.get("position", 0)),
        heading_path=tuple(source.get("heading_path", ())),
        tags=tuple(source.get("tags", ())),
        is_parent=bool(source.get("is_parent", False)),
        **optional,
    )
