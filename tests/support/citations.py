"""Citation ids for tests, until knowledge_search is on this branch.

``citation_for`` asks the engine's chunk index for the passage holding a phrase, filtered to the
document and version: the same chunk id a knowledge_search hit carries as ``citationId``. At
merge time it can become a ``POST /search`` call returning the first hit's ``citationId``.
"""

from __future__ import annotations

from ragspine.bootstrap import get_services
from ragspine.retrieval.model import SearchFilters


def citation_for(document_id: str, version_id: str, phrase: str) -> str:
    """The citationId of the indexed passage of that version whose text holds ``phrase``."""
    retrieval = get_services().retrieval
    assert retrieval is not None, "no chunk index configured"
    hits = retrieval.index.search(phrase, top_k=50, filters=SearchFilters(doc_ids=(document_id,)))
    found = [h.chunk for h in hits if h.chunk.version_id == version_id and phrase in h.chunk.text]
    assert found, f"no indexed passage of {version_id} holds {phrase!r}"
    return found[0].chunk_id


def indexed_text(chunk_id: str) -> str:
    """The indexed text of one chunk (what a search hit shows)."""
    retrieval = get_services().retrieval
    assert retrieval is not None
    return retrieval.index.get([chunk_id])[0].text
