"""``UnavailableChunkIndex``: stands in for an index that could not be opened.

The service still starts and the structured channel still answers; every search raises
the original typed error, which the narrative channel turns into an honest "could not
search" answer (a missing or corrupt index is never a crash).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from ragspine.errors import ProviderUnavailableError
from ragspine.retrieval.model import Chunk, ChunkLabels, ScoredChunk, SearchFilters


class UnavailableChunkIndex:
    """A ChunkIndex whose every call raises the error met when opening the real one."""

    def __init__(self, error: ProviderUnavailableError) -> None:
        self.error = error

    def _raise(self) -> NoReturn:
        raise self.error

    def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]] | None = None) -> int:
        """Refuse: the index cannot be written."""
        self._raise()

    def search(self, query: str, *, top_k: int, filters: SearchFilters,
               query_vector: Sequence[float] | None = None) -> list[ScoredChunk]:
        """Refuse: the index cannot be read."""
        self._raise()

    def get(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """Refuse: the index cannot be read."""
        self._raise()

    def delete(self, *, doc_id: str, version_id: str | None = None) -> int:
        """Refuse: the index cannot be written."""
        self._raise()

    def update_metadata(self, document_id: str, labels: ChunkLabels) -> int:
        """Refuse: the index cannot be written."""
        self._raise()

    def count(self) -> int:
        """Refuse: the index cannot be read."""
        self._raise()

    def ensure_index(self) -> bool:
        """Refuse: the index cannot be opened."""
        self._raise()
