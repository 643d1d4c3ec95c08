"""The Gateway's evidence index (HybridRetriever, RRF across spaces, 4 per document) over OpenSearch on osmem.

osmem answers the lexical leg; it refuses ``knn``, so these run with ``knn_fallback="lexical"``.
What only a real domain shows: the k-NN leg honouring the same filter list inside ``knn`` (the
request body is pinned in tests/unit/aws/opensearch) and the fusion of both legs.
"""

from __future__ import annotations

from ragspine.knowledge.evidence import EngineEvidence
from ragspine.retrieval.model import Chunk, SearchFilters
from ragspine.sensitivity import Sensitivity
from tests.integration.aws.opensearch.conftest import MakeIndex


def passages(space: str, document: str, version: str, count: int, word: str) -> list[Chunk]:
    return [Chunk(f"{document}-{version}-{i}", doc_id=document, source_locator=f"page={i + 1}",
                  text=f"refund rule {i} {word} for item group {i * 7} within 30 days", library=space, space_id=space,
                  document_id=document, version_id=version) for i in range(count)]


def test_spaces_are_fused_and_each_document_gives_at_most_four(make_index: MakeIndex) -> None:
    index = make_index(knn_fallback="lexical")
    index.ensure_index()
    index.add(passages("ks-a", "doc-1", "v1", 6, "alpha") + passages("ks-b", "doc-2", "v1", 6, "bravo")
              + passages("ks-a", "doc-1", "v0", 6, "retired") + passages("ks-c", "doc-3", "v1", 6, "hidden"))
    evidence = EngineEvidence(lambda: (index, None))
    filters = SearchFilters(libraries=("ks-a", "ks-b"), space_ids=("ks-a", "ks-b"), document_ids=("doc-1", "doc-2"),
                            version_ids=("v1",), max_sensitivity=Sensitivity.RESTRICTED)
    found = evidence.search("refund rule within 30 days", filters=filters, limit=8)
    per_document = {d: sum(1 for h in found if h.chunk.doc_id == d) for d in ("doc-1", "doc-2")}
    assert per_document == {"doc-1": 4, "doc-2": 4} and len(found) == 8
    assert {h.chunk.version_id for h in found} == {"v1"} and all(h.source == "rrf" for h in found)
