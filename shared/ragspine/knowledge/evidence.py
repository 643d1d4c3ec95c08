"""The Gateway's evidence index: our HybridRetriever over the engine's chunk index, tuned for knowledge_search.

One ranking per searched space (each space is the ``library`` of its chunks), fused by RRF;
near-duplicates dropped, at most 4 passages per document. No parent/window expansion: a hit's
text is the cited passage itself, so one passage can never come back twice through a shared
parent, and the context around it is what ``knowledge_source_read`` returns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ragspine.errors import ProviderUnavailableError
from ragspine.retrieval.dense_backfill import supports_backfill
from ragspine.retrieval.expansion import ExpansionMode
from ragspine.retrieval.model import ChunkLabels
from ragspine.retrieval.pipeline import HybridRetriever, RetrievalConfig
from ragspine.sensitivity import Sensitivity

if TYPE_CHECKING:
    from ragspine.knowledge.model import Metadata
    from ragspine.llm.ports import Embedder
    from ragspine.retrieval.entity_codes import EntityCodes
    from ragspine.retrieval.model import ScoredChunk, SearchFilters
    from ragspine.retrieval.pipeline import HybridRetriever
    from ragspine.retrieval.ports import ChunkIndex

PER_DOCUMENT = 4
MAX_LIMIT = 8
PER_SPACE_CANDIDATES = 40  # each space's ranking before fusion: enough for 8 hits after the per-document cap


class EngineEvidence:
    """``EvidenceIndex`` over whatever index and query embedder the engine's services hold."""

    def __init__(self, engine: Callable[[], tuple[ChunkIndex, Embedder | None] | None], *,
                 entity_codes: EntityCodes | None = None) -> None:
        """``engine`` gives the index and query embedder in force; ``entity_codes`` the glossary codes a query names."""
        self._engine = engine
        self._entity_codes = entity_codes
        self._retriever: HybridRetriever | None = None
        self._index: ChunkIndex | None = None

    def _ready(self) -> tuple[ChunkIndex, HybridRetriever]:
        engine = self._engine()
        if engine is None:
            raise ProviderUnavailableError("no chunk index is configured, so the knowledge cannot be searched")
        index, embedder = engine
        if self._retriever is None or self._index is not index:
            config = RetrievalConfig(top_k=MAX_LIMIT, per_library_k=PER_SPACE_CANDIDATES, per_doc_cap=PER_DOCUMENT,
                                     rerank=False, max_sensitivity=Sensitivity.RESTRICTED, allow_restricted=True,
                                     expansion=ExpansionMode.NONE, rerank_candidates=MAX_LIMIT)
            self._retriever = HybridRetriever(index, embedder=embedder, config=config, entity_codes=self._entity_codes)
            self._index = index
        return index, self._retriever

    def search(self, query: str, *, filters: SearchFilters, limit: int) -> list[ScoredChunk]:
        """Child passages best first (see the module docstring)."""
        _, retriever = self._ready()
        result = retriever.retrieve(query, filters=filters, top_k=limit)
        return [hit.hit for hit in result.hits]

    def dense_pending(self, version_id: str) -> int | None:
        """Passages of a version still without a dense vector; None when the engine has no dense leg.

        An index that takes vectors only with its chunks (OpenSearch, embedded inline before the
        version is activated) owes none.
        """
        engine = self._engine()
        if engine is None or engine[1] is None:
            return None
        index = engine[0]
        if not supports_backfill(index):
            return 0
        return int(index.vectors_pending(version_id=version_id))  # type: ignore[attr-defined]

    def relabel(self, document_id: str, metadata: Metadata) -> None:
        """Stamp the document's metadata on its chunks."""
        index, _ = self._ready()
        index.update_metadata(document_id, ChunkLabels(category=metadata.category, tags=metadata.tags,
                                                       version_label=metadata.version_label,
                                                       product_code=metadata.product_code))
