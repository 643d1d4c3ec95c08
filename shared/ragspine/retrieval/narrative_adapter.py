"""``HybridNarrativeRetriever``: the retrieval pipeline seen through the Q&A ``NarrativeRetriever`` port."""

from __future__ import annotations

from ragspine.qa.evidence import Evidence
from ragspine.retrieval.model import SearchFilters
from ragspine.retrieval.pipeline import HybridRetriever
from ragspine.sensitivity import Sensitivity


class HybridNarrativeRetriever:
    """Runs the hybrid pipeline and hands back evidence with the child's citation fields."""

    def __init__(self, retriever: HybridRetriever) -> None:
        self._retriever = retriever

    def retrieve(self, query: str, *, top_k: int, max_sensitivity: Sensitivity) -> list[Evidence]:
        """Search with the sensitivity ceiling inside the index query (RESTRICTED exit 1)."""
        result = self._retriever.retrieve(query, filters=SearchFilters(max_sensitivity=max_sensitivity), top_k=top_k)
        return [
            Evidence(chunk_id=hit.chunk_id, doc=hit.doc_id, locator=hit.source_locator, text=hit.chunk.text,
                     sensitivity=hit.chunk.sensitivity, score=hit.score, library=hit.chunk.library,
                     context=hit.context if hit.context != hit.chunk.text else "")
            for hit in result.hits
        ]
