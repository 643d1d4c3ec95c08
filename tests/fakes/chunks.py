"""``InMemoryChunkIndex``: a ChunkIndex fake with token-overlap scoring that records its calls."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ragspine.errors import FieldError, InvalidInputError, RagspineError
from ragspine.retrieval.model import Chunk, ChunkLabels, ScoredChunk, SearchFilters
from ragspine.retrieval.ports import ChunkIndex

_TOKENS = re.compile(r"[a-z0-9]+|[\u3040-\u30ff\u3400-\u9fff]")  # English words, CJK characters
MAX_QUERY_CHARS = 2000


def make_chunk(chunk_id: str, text: str = "", **fields: Any) -> Chunk:
    """A chunk with test defaults: document ``doc-<id>``, locator ``para=<id>``, text = id."""
    fields.setdefault("doc_id", f"doc-{chunk_id}")
    fields.setdefault("source_locator", f"para={chunk_id}")
    return Chunk(chunk_id=chunk_id, text=text or chunk_id, **fields)


def hit(chunk_id: str, score: float = 1.0, text: str = "", **fields: Any) -> ScoredChunk:
    """A scored hit over ``make_chunk``."""
    return ScoredChunk(make_chunk(chunk_id, text, **fields), score)


def tokens(text: str) -> set[str]:
    """Lower-case English words and single CJK characters: crude, but enough for a fake."""
    return set(_TOKENS.findall(text.lower()))


@dataclass(frozen=True)
class SearchCall:
    """One recorded ``search`` call."""

    query: str
    top_k: int
    filters: SearchFilters
    query_vector: tuple[float, ...] | None


def matches(chunk: Chunk, filters: SearchFilters) -> bool:
    """Whether a chunk passes every filter (empty tuple = no constraint)."""
    checks: list[tuple[tuple[str, ...], str | None]] = [
        (filters.libraries, chunk.library), (filters.doc_ids, chunk.doc_id), (filters.entities, chunk.entity),
        (filters.periods, chunk.period), (filters.space_ids, chunk.space_id),
        (filters.document_ids, chunk.document_id), (filters.version_ids, chunk.version_id),
        (filters.categories, chunk.category), (filters.version_labels, chunk.version_label),
        (filters.product_codes, chunk.product_code),
    ]
    if not filters.space_ids and chunk.space_id is not None:
        return False  # Gateway chunks only when their space is named
    if any(allowed and value not in allowed for allowed, value in checks):
        return False
    if filters.tags_any and not set(filters.tags_any) & set(chunk.tags):
        return False
    if filters.tags_all and not set(filters.tags_all) <= set(chunk.tags):
        return False
    return chunk.sensitivity <= filters.max_sensitivity


class InMemoryChunkIndex:
    """Chunks in a dict; ``searches`` and ``gets`` record calls; set ``fail_with`` to make calls raise."""

    def __init__(self, chunks: Sequence[Chunk] = (), vectors: Sequence[Sequence[float]] | None = None) -> None:
        self._chunks: dict[str, Chunk] = {}
        self._vectors: dict[str, tuple[float, ...]] = {}
        self.searches: list[SearchCall] = []
        self.gets: list[list[str]] = []
        self.fail_with: RagspineError | None = None
        self.add(chunks, vectors)

    def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]] | None = None) -> int:
        self._raise_if_failing()
        for n, chunk in enumerate(chunks):
            self._chunks[chunk.chunk_id] = chunk
            if vectors is not None:
                self._vectors[chunk.chunk_id] = tuple(vectors[n])
        return len(chunks)

    def search(self, query: str, *, top_k: int, filters: SearchFilters,
               query_vector: Sequence[float] | None = None) -> list[ScoredChunk]:
        self.searches.append(SearchCall(query, top_k, filters, tuple(query_vector) if query_vector else None))
        self._raise_if_failing()
        if not query.strip() or len(query) > MAX_QUERY_CHARS:
            raise InvalidInputError("bad query", field_errors=(FieldError("query", "empty or too long"),))
        if filters.extra:
            raise InvalidInputError(f"unknown filter fields {sorted(filters.extra)}")
        wanted = tokens(query)
        hits = []
        for chunk in self._chunks.values():
            if not matches(chunk, filters):
                continue  # filtered inside the query, as the port requires
            score = float(len(wanted & tokens(chunk.text)))
            vector = self._vectors.get(chunk.chunk_id)
            if query_vector is not None and vector is not None:
                score += sum(a * b for a, b in zip(query_vector, vector, strict=False))
            if score > 0:
                hits.append(ScoredChunk(chunk, score, "hybrid" if query_vector is not None else "bm25"))
        hits.sort(key=lambda hit: (-hit.score, hit.chunk.chunk_id))
        return hits[:top_k]

    def get(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        self.gets.append(list(chunk_ids))
        self._raise_if_failing()
        return [self._chunks[chunk_id] for chunk_id in chunk_ids if chunk_id in self._chunks]

    def delete(self, *, doc_id: str, version_id: str | None = None) -> int:
        self._raise_if_failing()
        doomed = [k for k, c in self._chunks.items()
                  if c.doc_id == doc_id and (version_id is None or c.version_id == version_id)]
        for chunk_id in doomed:
            del self._chunks[chunk_id]
            self._vectors.pop(chunk_id, None)
        return len(doomed)

    def update_metadata(self, document_id: str, labels: ChunkLabels) -> int:
        self._raise_if_failing()
        mine = [c for c in self._chunks.values() if c.document_id == document_id]
        for chunk in mine:
            self._chunks[chunk.chunk_id] = replace(chunk, category=labels.category, tags=labels.tags,
                                                   version_label=labels.version_label,
                                                   product_code=labels.product_code)
        return len(mine)

    def count(self) -> int:
        return len(self._chunks)

    def ensure_index(self) -> bool:
        self._raise_if_failing()
        return False

    def _raise_if_failing(self) -> None:
        if self.fail_with is not None:
            raise self.fail_with


_: type[ChunkIndex] = InMemoryChunkIndex  # the fake must keep matching the port
