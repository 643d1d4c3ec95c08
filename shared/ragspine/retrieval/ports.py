"""The ``ChunkIndex`` port: where chunks are stored and searched (embedded or OpenSearch)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ragspine.retrieval.model import Chunk, ChunkLabels, ScoredChunk, SearchFilters


class ChunkIndex(Protocol):
    """Hybrid (lexical + vector) search over chunks, filters applied inside the query."""

    def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]] | None = None) -> int:
        """Index chunks (replacing any with the same chunk_id); vectors align with chunks.

        Returns:
            How many chunks were written.
        """
        ...

    def search(self, query: str, *, top_k: int, filters: SearchFilters,
               query_vector: Sequence[float] | None = None) -> list[ScoredChunk]:
        """The best ``top_k`` chunks for a query; both legs honour ``filters``.

        Raises:
            InvalidInputError: empty or oversized query, unknown filter field.
            ProviderUnavailableError: the index cannot be read or reached.
        """
        ...

    def get(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """Chunks by id, in the order asked (missing ids are skipped); used for expansion."""
        ...

    def delete(self, *, doc_id: str, version_id: str | None = None) -> int:
        """Remove a document's chunks, or only those of one version; return how many."""
        ...

    def update_metadata(self, document_id: str, labels: ChunkLabels) -> int:
        """Stamp new metadata on every chunk of a Gateway document (``Chunk.document_id``); return how many.

        Raises:
            ProviderUnavailableError: the index cannot be written.
        """
        ...

    def count(self) -> int:
        """Number of chunks indexed."""
        ...

    def ensure_index(self) -> bool:
        """Create the index if it does not exist (ingestion calls it before writing); True when created now."""
        ...
