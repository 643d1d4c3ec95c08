"""``WorkflowNodeRetriever``: the hybrid retriever as a workflow knowledge-retrieval node sees it."""

from __future__ import annotations

from typing import Any

from ragspine.retrieval.model import SearchFilters
from ragspine.retrieval.pipeline import HybridRetriever


class WorkflowNodeRetriever:
    """Hits in Dify's ``result`` item shape (``content`` + ``metadata``), citation fields kept."""

    def __init__(self, retriever: HybridRetriever) -> None:
        self._retriever = retriever

    def retrieve(self, query: str, *, top_k: int) -> list[dict[str, Any]]:
        """The best ``top_k`` passages within the default sensitivity ceiling (never RESTRICTED)."""
        result = self._retriever.retrieve(query, filters=SearchFilters(), top_k=top_k)
        return [{"content": hit.chunk.text,
                 "metadata": {"document_name": hit.doc_id, "source_locator": hit.source_locator,
                              "chunk_id": hit.chunk_id, "library": hit.chunk.library, "score": hit.score}}
                for hit in result.hits]
