"""The passages an FAQ citation points at, read from the chunk index the documents were ingested into."""

from __future__ import annotations

from ragspine.qa.faq_check import cited_texts, locator_pairs
from ragspine.retrieval.model import SearchFilters
from ragspine.retrieval.ports import ChunkIndex

_QUERY_CHARS = 500


class IndexedCitedPassages:
    """``CitedPassages`` over a ``ChunkIndex``: the document's chunks that share words with the answer,
    kept when their locator sits at the cited one."""

    def __init__(self, index: ChunkIndex, *, depth: int = 64) -> None:
        self._index = index
        self._depth = depth

    def passages(self, doc: str, locator: str, *, hint: str) -> tuple[str, ...] | None:
        """The texts at ``locator`` in ``doc``; None when the index returns nothing of ``doc``."""
        words = " ".join([hint, *(value for _, value in sorted(locator_pairs(locator)))])
        hits = self._index.search(words[:_QUERY_CHARS], top_k=self._depth, filters=SearchFilters(doc_ids=(doc,)))
        if not hits:
            return None
        return cited_texts(locator, ((hit.chunk.text, hit.chunk.source_locator) for hit in hits))
