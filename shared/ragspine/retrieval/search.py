"""The user-facing search service behind ``ragspine search`` and ``POST /v1/search``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ragspine.errors import ProviderUnavailableError
from ragspine.retrieval.model import SearchFilters

if TYPE_CHECKING:
    from ragspine.bootstrap import Services


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One passage: where it is (document, locator), its library and score, and its text."""

    chunk_id: str
    doc: str
    locator: str
    library: str
    score: float
    text: str


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Hits best first; the libraries named (filter) or boosted (routing); whether every library was searched."""

    query: str
    hits: tuple[SearchHit, ...]
    libraries: tuple[str, ...]
    all_libraries: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON form (the same for the CLI and the API)."""
        return {"query": self.query, "libraries": list(self.libraries), "all_libraries": self.all_libraries,
                "hits": [{"chunk_id": h.chunk_id, "doc": h.doc, "locator": h.locator, "library": h.library,
                          "score": round(h.score, 6), "text": h.text} for h in self.hits]}


def run_search(services: Services, query: str, *, libraries: tuple[str, ...] = (), top_k: int = 5) -> SearchResult:
    """Run the hybrid pipeline (routing, fusion, post-processing) without generation.

    RESTRICTED passages are never returned (the default sensitivity ceiling).

    Raises:
        InvalidInputError: empty or oversized query, top_k out of range.
        ProviderUnavailableError: no index is configured, or it cannot be read.
    """
    retrieval = services.retrieval
    if retrieval is None:
        raise ProviderUnavailableError("no chunk index is configured (set RAGSPINE_OPENSEARCH_ENDPOINT on AWS)")
    result = retrieval.retriever.retrieve(query, filters=SearchFilters(libraries=libraries), top_k=top_k)
    hits = tuple(SearchHit(h.chunk_id, h.doc_id, h.source_locator, h.chunk.library, h.score, h.chunk.text)
                 for h in result.hits)
    return SearchResult(query.strip(), hits, tuple(result.libraries), result.all_libraries)
