"""OpenSearchChunkIndex search and faults over HTTP against osmem-server.

osmem-server answers the lexical leg for real; it refuses the ``knn`` query, so the hybrid
path is checked here for what it sends and for how it handles that refusal (the k-NN body
itself and the fusion are covered in ``tests/unit/aws/opensearch``).
"""

from __future__ import annotations

import logging
import socket
from typing import Any

import pytest

from ragspine.aws.opensearch_errors import (
    OpenSearchIndexMissingError,
    OpenSearchUnavailableError,
    OpenSearchUnsupportedQueryError,
)
from ragspine.aws.opensearch_index import OpenSearchChunkIndex
from ragspine.aws.opensearch_queries import build_filter_clauses, build_knn_query, build_lexical_query
from ragspine.errors import ConfigurationError, InvalidInputError, ProviderUnavailableError
from ragspine.retrieval.model import SearchFilters
from ragspine.sensitivity import Sensitivity
from tests.integration.aws.opensearch.conftest import MakeIndex
from tests.integration.aws.opensearch.corpus import DYNAMO_ZH, LAMBDA_EN, LAMBDA_JA, SECRET_ZH

DEFAULT = SearchFilters()
QUERY_VECTOR = [0.0, 1.0, 0.0, 0.0]


def ids(hits: list[Any]) -> list[str]:
    return [hit.chunk.chunk_id for hit in hits]


class TestLexicalSearch:
    def test_a_chinese_query_finds_the_chinese_chunk_with_its_citation(self, loaded_index: OpenSearchChunkIndex) -> None:
        hits = loaded_index.search("单表设计", top_k=5, filters=DEFAULT)
        assert ids(hits)[0] == DYNAMO_ZH.chunk_id
        assert hits[0].source == "bm25"
        assert (hits[0].chunk.doc_id, hits[0].chunk.source_locator) == ("doc-dynamo", "page=3,para=2")

    def test_an_english_query_finds_the_english_chunk(self, loaded_index: OpenSearchChunkIndex) -> None:
        assert ids(loaded_index.search("cold start latency", top_k=5, filters=DEFAULT))[0] == LAMBDA_EN.chunk_id

    def test_a_japanese_query_finds_the_japanese_chunk(self, loaded_index: OpenSearchChunkIndex) -> None:
        assert ids(loaded_index.search("コールドスタート対策", top_k=5, filters=DEFAULT))[0] == LAMBDA_JA.chunk_id

    def test_top_k_caps_the_hits(self, loaded_index: OpenSearchChunkIndex) -> None:
        assert len(loaded_index.search("cold start コールドスタート", top_k=1, filters=DEFAULT)) == 1


class TestFilters:
    def test_restricted_chunks_are_excluded_by_default(self, loaded_index: OpenSearchChunkIndex) -> None:
        assert SECRET_ZH.chunk_id not in ids(loaded_index.search("单表设计 机密", top_k=10, filters=DEFAULT))

    def test_raising_the_ceiling_explicitly_admits_restricted_chunks(self, loaded_index: OpenSearchChunkIndex) -> None:
        filters = SearchFilters(max_sensitivity=Sensitivity.RESTRICTED)
        assert SECRET_ZH.chunk_id in ids(loaded_index.search("单表设计 机密", top_k=10, filters=filters))

    def test_a_lower_ceiling_excludes_internal_chunks(self, loaded_index: OpenSearchChunkIndex) -> None:
        filters = SearchFilters(max_sensitivity=Sensitivity.PUBLIC)
        assert ids(loaded_index.search("cold start コールドスタート", top_k=10, filters=filters)) == [LAMBDA_EN.chunk_id]

    @pytest.mark.parametrize(("library", "expected"), [("aws", LAMBDA_EN.chunk_id), ("aws-ja", LAMBDA_JA.chunk_id)])
    def test_the_library_filter_keeps_one_library(self, loaded_index: OpenSearchChunkIndex,
                                                  library: str, expected: str) -> None:
        filters = SearchFilters(libraries=(library,))
        assert ids(loaded_index.search("cold start コールドスタート", top_k=10, filters=filters)) == [expected]

    def test_a_filtered_out_chunk_costs_no_recall_of_the_others(self, loaded_index: OpenSearchChunkIndex) -> None:
        # GIVEN the restricted chunk is the best match once admitted
        admitted = SearchFilters(max_sensitivity=Sensitivity.RESTRICTED)
        assert ids(loaded_index.search("单表设计 机密", top_k=1, filters=admitted)) == [SECRET_ZH.chunk_id]
        # WHEN the default ceiling applies THEN the single slot goes to the next allowed chunk
        assert ids(loaded_index.search("单表设计 机密", top_k=1, filters=DEFAULT)) == [DYNAMO_ZH.chunk_id]

    @pytest.mark.parametrize("filters", [
        SearchFilters(version_ids=("v2",)),
        SearchFilters(doc_ids=("doc-lambda",), tags_all=("lambda",), libraries=("aws-ja",)),
        SearchFilters(extra={"source_locator": "slide=8"}),
    ], ids=["version", "doc-tags-library", "extra-locator"])
    def test_version_doc_tag_and_extra_filters_select_the_japanese_version(
            self, loaded_index: OpenSearchChunkIndex, filters: SearchFilters) -> None:
        assert ids(loaded_index.search("cold start コールドスタート", top_k=10, filters=filters)) == [LAMBDA_JA.chunk_id]

    def test_gateway_metadata_filters_apply(self, loaded_index: OpenSearchChunkIndex) -> None:
        filters = SearchFilters(document_ids=("kd-1",), categories=("guide",),
                                entities=("ACME_CN",), periods=("2024",), tags_any=("design", "x"),
                                extra={"product_code": "DDB", "version_label": "1.0"})
        assert ids(loaded_index.search("单表设计", top_k=10, filters=filters)) == [DYNAMO_ZH.chunk_id]


class TestBadInput:
    @pytest.mark.parametrize(("query", "top_k", "message"), [
        ("   ", 5, "empty"), ("x" * 1001, 5, "limit is 1000"), ("cold", 0, "top_k"), ("cold", 101, "top_k"),
    ])
    def test_is_refused_before_any_request(self, make_index: MakeIndex, query: str, top_k: int, message: str) -> None:
        index = make_index()
        with pytest.raises(InvalidInputError, match=message):
            index.search(query, top_k=top_k, filters=DEFAULT)
        assert index._client is None

    def test_an_unknown_filter_field_is_a_clear_error(self, loaded_index: OpenSearchChunkIndex) -> None:
        with pytest.raises(InvalidInputError, match="cannot filter on colour") as caught:
            loaded_index.search("cold", top_k=5, filters=SearchFilters(extra={"colour": "red"}))
        assert caught.value.field_errors[0].field == "filters.extra.colour"


class TestHybridAgainstAServerWithoutKnn:
    def test_sends_both_legs_in_one_msearch_with_the_same_filters(
            self, loaded_index: OpenSearchChunkIndex, monkeypatch: pytest.MonkeyPatch) -> None:
        # GIVEN a recording wrapper around the real client's msearch
        sent: list[Any] = []
        real_msearch = loaded_index.client.msearch

        def recording_msearch(**kwargs: Any) -> Any:
            sent.append(kwargs["body"])
            return real_msearch(**kwargs)

        monkeypatch.setattr(loaded_index.client, "msearch", recording_msearch)
        filters = SearchFilters(libraries=("aws",))
        # WHEN a hybrid search runs (osmem refuses the knn leg)
        with pytest.raises(OpenSearchUnsupportedQueryError):
            loaded_index.search("cold start", top_k=5, filters=filters, query_vector=QUERY_VECTOR)
        # THEN one request carried both legs, exactly as built, with one filter list
        [body] = sent
        assert body == [{}, build_lexical_query("cold start", filters, size=40), {},
                        build_knn_query(QUERY_VECTOR, 40, filters)]
        assert body[1]["query"]["bool"]["filter"] == body[3]["query"]["knn"]["embedding"]["filter"]["bool"]["filter"]
        assert body[1]["query"]["bool"]["filter"] == build_filter_clauses(filters)

    def test_by_default_an_unsupported_knn_query_is_a_permanent_error(self, loaded_index: OpenSearchChunkIndex) -> None:
        with pytest.raises(OpenSearchUnsupportedQueryError, match="knn") as caught:
            loaded_index.search("cold start", top_k=5, filters=DEFAULT, query_vector=QUERY_VECTOR)
        assert caught.value.retryable is False
        with pytest.raises(OpenSearchUnsupportedQueryError, match="knn"):  # still k-NN: no silent switch
            loaded_index.search("cold start", top_k=5, filters=DEFAULT, query_vector=QUERY_VECTOR)

    def test_with_lexical_fallback_it_warns_once_and_searches_lexically(
            self, make_index: MakeIndex, caplog: pytest.LogCaptureFixture) -> None:
        # GIVEN an adapter that was told to fall back to lexical search
        index = make_index(knn_fallback="lexical")
        index.ensure_index()
        index.add([LAMBDA_EN, LAMBDA_JA])
        # WHEN two hybrid searches run against a server without k-NN
        with caplog.at_level(logging.WARNING, logger="ragspine.aws.opensearch_index"):
            first = index.search("cold start", top_k=5, filters=DEFAULT, query_vector=QUERY_VECTOR)
            second = index.search("コールドスタート", top_k=5, filters=DEFAULT, query_vector=QUERY_VECTOR)
        # THEN both answered lexically, and the switch was logged once
        assert ids(first)[0] == LAMBDA_EN.chunk_id and first[0].source == "bm25"
        assert ids(second)[0] == LAMBDA_JA.chunk_id
        # only our adapter's records: opensearch-py's own request logging depends on what other
        # tests configured (e.g. a Lambda handler's Powertools logger)
        ours = [r.getMessage()[:25] for r in caplog.records
                if r.name.startswith("ragspine") and r.levelno >= logging.WARNING]
        assert ours == ["k-NN query unsupported; s"]

    def test_a_query_vector_of_the_wrong_dimension_is_refused(self, loaded_index: OpenSearchChunkIndex) -> None:
        with pytest.raises(InvalidInputError, match="query_vector must have 4 dimensions"):
            loaded_index.search("cold", top_k=5, filters=DEFAULT, query_vector=[1.0, 0.0])


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class TestFaults:
    def test_an_unreachable_endpoint_is_a_retryable_provider_error(self) -> None:
        index = OpenSearchChunkIndex(f"http://127.0.0.1:{_closed_port()}", "chunks", auth="none", timeout=2)
        for call in (lambda: index.search("cold", top_k=5, filters=DEFAULT), index.count, index.ensure_index):
            with pytest.raises(OpenSearchUnavailableError, match="unreachable") as caught:
                call()
            assert isinstance(caught.value, ProviderUnavailableError)
            assert caught.value.retryable is True

    def test_a_missing_index_is_a_typed_non_retryable_provider_error(self, make_index: MakeIndex) -> None:
        index = make_index()
        with pytest.raises(OpenSearchIndexMissingError, match="ensure_index") as caught:
            index.search("cold", top_k=5, filters=DEFAULT)
        assert isinstance(caught.value, ProviderUnavailableError) and caught.value.retryable is False


class TestSigV4:
    @pytest.mark.parametrize("service", ["es", "aoss"])
    def test_signed_requests_reach_the_server(self, osmem: Any, monkeypatch: pytest.MonkeyPatch, service: str) -> None:
        # GIVEN fake AWS credentials (osmem does not check signatures; the signer must still run)
        for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                            "AWS_SESSION_TOKEN": "testing"}.items():
            monkeypatch.setenv(name, value)
        index = OpenSearchChunkIndex(osmem.url, f"signed-{service}", service=service,  # type: ignore[arg-type]
                                     region="eu-west-1", dimension=4)
        # WHEN requests are sent
        index.ensure_index()
        # THEN they were signed for the right service and region, and answered
        signer = index.client.transport.kwargs["http_auth"]
        scope = signer("GET", f"{osmem.url}/_count", None)["Authorization"]
        assert f"/eu-west-1/{service}/aws4_request" in scope
        assert index.count() == 0

    def test_no_credentials_is_a_configuration_error(self, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
        monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
        monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
        index = OpenSearchChunkIndex("https://search-x.eu-west-1.es.amazonaws.com", "chunks", region="eu-west-1")
        with pytest.raises(ConfigurationError, match="no AWS credentials"):
            _ = index.client
