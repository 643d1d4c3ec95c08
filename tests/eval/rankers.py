"""The retrieval modes compared, each a callable ``(query index) -> top chunks``.

- ``bm25``: the embedded index with no query vector (its BM25 leg alone).
- ``dense``: cosine alone, computed with numpy over the same unit passage vectors the index
  stores (the index's dense leg is exact below 20k rows, so this ranks identically; it is
  not exposed on its own by the public API).
- ``hybrid``: the embedded index with a query vector (BM25 + cosine, min-max score fusion);
  ``hybrid_rrf`` is the same file fused by RRF (k = 60) instead, for comparison.
- ``bm25s``: the bm25s library (Lucene BM25, k1 = 1.5, b = 0.75, like the index) over the
  same tokens (``document_tokens`` of the text the index indexes, ``query_tokens``).
- ``pipeline`` / ``pipeline_hybrid`` (ACME only): ``HybridRetriever`` as the service runs
  it: library routing, per-library search, RRF across libraries, per-document cap of 2.

Every mode applies the default sensitivity ceiling (CONFIDENTIAL): RESTRICTED chunks are
masked inside bm25s and the numpy cosine too, so the baselines rank the same allowed set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ragspine.llm.ports import Embedder
from ragspine.retrieval.embedded_rows import document_field_text, index_text
from ragspine.retrieval.model import Chunk, SearchFilters
from ragspine.retrieval.ports import ChunkIndex
from ragspine.text import document_tokens, query_tokens

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

Ranker = Callable[[int], list[Chunk]]
DEFAULT_FILTERS = SearchFilters()


def allowed_mask(chunks: Sequence[Chunk], filters: SearchFilters = DEFAULT_FILTERS) -> npt.NDArray[np.bool_]:
    """Chunks within the sensitivity ceiling (the only filter the evaluation uses)."""
    import numpy as np

    return np.array([c.sensitivity <= filters.max_sensitivity for c in chunks], dtype=np.bool_)


def index_ranker(index: ChunkIndex, queries: Sequence[str], *, top_k: int,
                 query_vectors: Sequence[Sequence[float]] | None = None) -> Ranker:
    """The embedded index: BM25 alone without query vectors, hybrid with them."""

    def rank(i: int) -> list[Chunk]:
        vector = None if query_vectors is None else query_vectors[i]
        return [h.chunk for h in index.search(queries[i], top_k=top_k, filters=DEFAULT_FILTERS, query_vector=vector)]

    return rank


def dense_ranker(chunks: Sequence[Chunk], passage_vectors: Sequence[Sequence[float]],
                 query_vectors: Sequence[Sequence[float]], *, top_k: int) -> Ranker:
    """Cosine alone: unit passage vectors times the unit query vector, masked, best first."""
    import numpy as np

    matrix = _unit(np.asarray(passage_vectors, dtype=np.float32))
    queries = _unit(np.asarray(query_vectors, dtype=np.float32))
    blocked = ~allowed_mask(chunks)

    def rank(i: int) -> list[Chunk]:
        scores = matrix @ queries[i]
        scores[blocked] = -np.inf
        order = np.lexsort((np.arange(scores.size), -scores))[:top_k]
        return [chunks[j] for j in order.tolist() if np.isfinite(scores[j])]

    return rank


def bm25s_ranker(chunks: Sequence[Chunk], queries: Sequence[str], *, top_k: int) -> Ranker:
    """bm25s over a chunk's words in one field; queries as ``query_tokens``; zero scores dropped.

    The embedded index scores the same words in two fields (the passage, and the document's
    title and context once per document: ``embedded_rows``); bm25s has one, so it ranks as the
    index does only on chunks without a document field (CMRC2018, TAT-QA, jfinqa).
    """
    import bm25s
    import numpy as np

    retriever = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
    retriever.index([document_tokens(f"{document_field_text(c)}\n{index_text(c)}") for c in chunks],
                    show_progress=False)
    weights = allowed_mask(chunks).astype(np.float32)
    k = min(top_k, len(chunks))

    def rank(i: int) -> list[Chunk]:
        tokens = query_tokens(queries[i])
        if not tokens:
            return []
        ids, scores = retriever.retrieve([tokens], k=k, show_progress=False, n_threads=1, weight_mask=weights)
        return [chunks[int(j)] for j, s in zip(ids[0].tolist(), scores[0].tolist(), strict=True) if s > 0]

    return rank


def pipeline_ranker(index: ChunkIndex, queries: Sequence[str], *, top_k: int,
                    embedder: Embedder | None = None) -> Ranker:
    """``HybridRetriever`` as built by the service: routing, the glossary's slots and entity codes; no rerank."""
    from ragspine.retrieval.entity_codes import glossary_entity_codes
    from ragspine.retrieval.expansion import ExpansionMode
    from ragspine.retrieval.pipeline import HybridRetriever, RetrievalConfig
    from ragspine.retrieval.routing import glossary_slot_detector
    from tests.support.glossary import default_glossary

    retriever = HybridRetriever(index, embedder=embedder,
                                config=RetrievalConfig(top_k=top_k, expansion=ExpansionMode.NONE),
                                slot_detector=glossary_slot_detector(default_glossary()),
                                entity_codes=glossary_entity_codes(default_glossary()))

    def rank(i: int) -> list[Chunk]:
        return [hit.chunk for hit in retriever.retrieve(queries[i]).hits]

    return rank


def _unit(matrix: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    import numpy as np

    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit: npt.NDArray[np.float32] = (matrix / np.where(norms > 0, norms, 1.0)).astype(np.float32, copy=False)
    return unit
