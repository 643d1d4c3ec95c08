"""Knowledge Gateway chunks on OpenSearch (osmem-server): space scoping, metadata filters, re-stamping.

Every constraint here is a clause of the lexical query's ``bool.filter``; the k-NN leg carries
the same list (``build_filter_clauses``), which only a real domain can execute (osmem refuses knn).
"""

from __future__ import annotations

from dataclasses import replace

from ragspine.aws.opensearch_index import OpenSearchChunkIndex
from ragspine.retrieval.model import Chunk, ChunkLabels, SearchFilters
from tests.integration.aws.opensearch.conftest import MakeIndex

SPACE = SearchFilters(space_ids=("ks-1",))


def gateway_chunk(chunk_id: str, document_id: str, **fields: object) -> Chunk:
    return Chunk(chunk_id, doc_id=document_id, source_locator=f"para={chunk_id}", text="refund policy for stores",
                 space_id="ks-1", document_id=document_id, version_id="ver-1", **fields)  # type: ignore[arg-type]


def ids(hits: list[object]) -> set[str]:
    return {hit.chunk.chunk_id for hit in hits}  # type: ignore[attr-defined]


def loaded(make_index: MakeIndex, service: str = "es") -> OpenSearchChunkIndex:
    index = make_index(service=service)
    index.ensure_index()
    index.add([
        Chunk("plain", doc_id="ordinary.md", source_locator="para=1", text="refund policy for stores"),
        gateway_chunk("a", "doc-a", category="policy", tags=("x", "y"), version_label="2025", product_code="P1"),
        gateway_chunk("b", "doc-b", category="memo", tags=("y",), version_label="2024"),
    ])
    return index


class TestSpaceScoping:
    def test_a_search_naming_no_space_never_returns_gateway_chunks(self, make_index: MakeIndex) -> None:
        index = loaded(make_index)
        assert ids(index.search("refund policy", top_k=10, filters=SearchFilters())) == {"plain"}
        assert ids(index.search("refund policy", top_k=10, filters=SPACE)) == {"a", "b"}


class TestMetadataFilters:
    def test_each_field_runs_inside_the_query(self, make_index: MakeIndex) -> None:
        index = loaded(make_index)
        cases = [(replace(SPACE, categories=("policy",)), {"a"}), (replace(SPACE, tags_any=("x", "zz")), {"a"}),
                 (replace(SPACE, tags_all=("x", "y")), {"a"}), (replace(SPACE, tags_all=("y",)), {"a", "b"}),
                 (replace(SPACE, version_labels=("2024",)), {"b"}), (replace(SPACE, product_codes=("P1",)), {"a"}),
                 (replace(SPACE, categories=("memo",), product_codes=("P1",)), set())]
        for filters, expected in cases:
            assert ids(index.search("refund", top_k=10, filters=filters)) == expected, filters

    def test_update_metadata_restamps_a_document_in_both_id_modes(self, make_index: MakeIndex) -> None:
        for service in ("es", "aoss"):
            index = loaded(make_index, service)
            if service == "aoss":
                index.client.indices.refresh(index=index._index)
            assert index.update_metadata("doc-b", ChunkLabels(category="policy", tags=("z",),
                                                              product_code="P2")) == 1
            index.client.indices.refresh(index=index._index)
            assert ids(index.search("refund", top_k=10, filters=replace(SPACE, tags_any=("z",)))) == {"b"}
            assert ids(index.search("refund", top_k=10, filters=replace(SPACE, version_labels=("2024",)))) == set()
            assert index.get(["b"])[0].product_code == "P2"
