"""Hybrid search fuses the two legs client side (min-max or RRF); checked with a recording fake client (no network)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from ragspine.aws.opensearch_errors import OpenSearchThrottledError
from ragspine.aws.opensearch_index import OpenSearchChunkIndex
from ragspine.aws.opensearch_queries import build_knn_query, build_lexical_query, chunk_to_document
from ragspine.errors import ConfigurationError
from ragspine.retrieval.model import Chunk, SearchFilters

pytest.importorskip("opensearchpy")

FILTERS = SearchFilters(libraries=("aws",))
VECTOR = [1.0, 0.0, 0.0, 0.0]


def chunk(name: str) -> Chunk:
    return Chunk(chunk_id=name, doc_id=f"doc-{name}", source_locator=f"page={name}", text=name, library="aws")


def hits(*names: str) -> dict[str, Any]:
    return {"hits": {"hits": [{"_id": n, "_score": 10.0 - i, "_source": chunk_to_document(chunk(n))}
                              for i, n in enumerate(names)]}}


class FakeOpenSearch:
    """Answers ``msearch`` with canned per-leg responses and records every body."""

    def __init__(self, *responses: dict[str, Any]) -> None:
        self.responses = list(responses)
        self.bodies: list[Any] = []

    def msearch(self, *, body: Any, index: str) -> dict[str, Any]:
        self.bodies.append(body)
        return {"responses": self.responses}


def make(client: FakeOpenSearch, **options: Any) -> OpenSearchChunkIndex:
    return OpenSearchChunkIndex("https://example.invalid", "chunks", client=client, dimension=4,  # type: ignore[arg-type]
                                **options)


class TestFusion:
    def test_both_legs_are_fused_by_min_max_by_default(self) -> None:
        # GIVEN BM25 scores a, b, c 10, 9, 8 and k-NN scores c, d, a 10, 9, 8
        client = FakeOpenSearch(hits("a", "b", "c"), hits("c", "d", "a"))
        # WHEN a hybrid search asks for three
        found = make(client).search("q", top_k=3, filters=FILTERS, query_vector=VECTOR)
        # THEN each leg is scaled to [0, 1] and averaged: a = (1 + 0) / 2, c = (0 + 1) / 2, b = 0.5 / 2
        assert [h.chunk.chunk_id for h in found] == ["a", "c", "b"]
        assert [h.score for h in found] == pytest.approx([0.5, 0.5, 0.25])
        assert {h.source for h in found} == {"hybrid"}
        assert found[0].chunk == chunk("a")

    def test_a_confident_lexical_match_is_not_outvoted_by_a_dense_near_tie(self) -> None:
        # GIVEN BM25 puts b far ahead and k-NN scores a hair above b (a near tie)
        lexical = {"hits": {"hits": [{"_id": n, "_score": s, "_source": chunk_to_document(chunk(n))}
                                     for n, s in (("b", 9.0), ("a", 3.0), ("c", 2.9))]}}
        dense = {"hits": {"hits": [{"_id": n, "_score": s, "_source": chunk_to_document(chunk(n))}
                                   for n, s in (("a", 1.86), ("b", 1.859), ("c", 1.80))]}}
        rrf = make(FakeOpenSearch(lexical, dense), fusion="rrf").search("q", top_k=3, filters=FILTERS,
                                                                        query_vector=VECTOR)
        min_max = make(FakeOpenSearch(lexical, dense)).search("q", top_k=3, filters=FILTERS, query_vector=VECTOR)
        # THEN RRF ties them (1/61 + 1/62 each) and min-max keeps b first
        assert rrf[0].score == pytest.approx(rrf[1].score)
        assert [h.chunk.chunk_id for h in min_max][:2] == ["b", "a"]

    def test_rrf_on_request_sums_reciprocal_ranks(self) -> None:
        client = FakeOpenSearch(hits("a", "b", "c"), hits("c", "d", "a"))
        found = make(client, fusion="rrf").search("q", top_k=3, filters=FILTERS, query_vector=VECTOR)
        assert [h.chunk.chunk_id for h in found] == ["a", "c", "b"]
        assert found[0].score == pytest.approx(1 / 61 + 1 / 63)

    def test_an_unknown_fusion_is_refused(self) -> None:
        with pytest.raises(ConfigurationError, match="unknown fusion 'sum'"):
            make(FakeOpenSearch(), fusion="sum")

    def test_one_msearch_carries_the_two_exact_legs(self) -> None:
        client = FakeOpenSearch(hits("a"), hits("a"))
        make(client).search("q", top_k=5, filters=FILTERS, query_vector=[0.0, 3.0, 4.0, 0.0])
        assert client.bodies == [[{}, build_lexical_query("q", FILTERS, size=40), {},
                                  build_knn_query([0.0, 3.0, 4.0, 0.0], 40, FILTERS)]]

    def test_candidates_grow_with_top_k_up_to_a_cap(self) -> None:
        client = FakeOpenSearch(hits(), hits())
        index = make(client)
        index.search("q", top_k=20, filters=FILTERS, query_vector=VECTOR)
        index.search("q", top_k=100, filters=FILTERS, query_vector=VECTOR)
        assert [body[1]["size"] for body in client.bodies] == [80, 200]
        assert [body[3]["query"]["knn"]["embedding"]["k"] for body in client.bodies] == [80, 200]

    def test_a_throttled_leg_is_a_retryable_error(self) -> None:
        client = FakeOpenSearch(hits("a"), {"status": 429, "error": {"type": "too_many_requests", "reason": "slow"}})
        with pytest.raises(OpenSearchThrottledError) as caught:
            make(client).search("q", top_k=5, filters=FILTERS, query_vector=VECTOR)
        assert caught.value.retryable is True


class TestConstruction:
    def test_serverless_refuses_a_refresh_policy(self) -> None:
        with pytest.raises(ConfigurationError, match="refresh"):
            OpenSearchChunkIndex("https://x.aoss.amazonaws.com", "chunks", service="aoss", refresh="wait_for")

    def test_an_unknown_service_is_refused(self) -> None:
        with pytest.raises(ConfigurationError, match="service"):
            OpenSearchChunkIndex("https://x", "chunks", service="opensearch")  # type: ignore[arg-type]

    def test_no_client_is_built_until_first_use(self) -> None:
        assert OpenSearchChunkIndex("https://x", "chunks")._client is None


def test_importing_the_adapter_does_not_import_opensearch_py() -> None:
    code = "import sys, ragspine.aws.opensearch_index; print('opensearchpy' in sys.modules, 'boto3' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "False"]
