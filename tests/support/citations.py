"""Citation ids for the citation-read tests, straight from the chunk index.

``citation_for`` asks the index for the passage of one version holding a phrase: the same chunk
id a knowledge_search hit carries as ``citationId``. The read tests need one exact passage (a
retired version's, say), which search, ranking live versions only, would not give them; the
end-to-end tests take the id from a real ``POST /search`` hit.
"""

from __future__ import annotations

from ragspine.bootstrap import get_knowledge_gateway, get_services
from ragspine.retrieval.model import SearchFilters


def citation_for(document_id: str, version_id: str, phrase: str) -> str:
    """The citationId of the indexed passage of that version whose text holds ``phrase``."""
    retrieval = get_services().retrieval
    assert retrieval is not None, "no chunk index configured"
    document = get_knowledge_gateway().store.document(document_id)
    assert document is not None, f"no document {document_id}"
    # a knowledge space's passages match only a query naming the space
    filters = SearchFilters(doc_ids=(document_id,), space_ids=(document.space_id,))
    hits = retrieval.index.search(phrase, top_k=50, filters=filters)
    found = [h.chunk for h in hits if h.chunk.version_id == version_id and phrase in h.chunk.text]
    assert found, f"no indexed passage of {version_id} holds {phrase!r}"
    return found[0].chunk_id


def indexed_text(chunk_id: str) -> str:
    """The indexed text of one chunk (what a search hit shows)."""
    retrieval = get_services().retrieval
    assert retrieval is not None
    return retrieval.index.get([chunk_id])[0].text
