"""OpenSearchChunkIndex writes over HTTP against osmem-server: mapping, bulk add, get, delete, count."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from ragspine.aws.opensearch_errors import OpenSearchRequestError
from ragspine.aws.opensearch_index import DEFAULT_INDEX_BODY, OpenSearchChunkIndex
from ragspine.errors import ConfigurationError, InvalidInputError
from tests.integration.aws.opensearch.conftest import MakeIndex
from tests.integration.aws.opensearch.corpus import CORPUS, DIMENSION, DYNAMO_ZH, LAMBDA_EN, LAMBDA_JA, VECTORS


class TestEnsureIndex:
    def test_creates_the_index_from_the_mapping_file_once(self, make_index: MakeIndex) -> None:
        # GIVEN an adapter on a name that does not exist yet
        index = make_index()
        # WHEN the index is ensured twice
        created = [index.ensure_index(), index.ensure_index()]
        # THEN it was created once, with the mapping file's fields at the adapter's dimension
        assert created == [True, False]
        mapping = index.client.indices.get_mapping(index=index._index)[index._index]["mappings"]
        assert mapping["dynamic"] == "strict"
        assert mapping["properties"]["embedding"]["type"] == "knn_vector"
        assert mapping["properties"]["embedding"]["dimension"] == DIMENSION
        assert mapping["properties"]["text"]["analyzer"] == "cjk"
        assert mapping["properties"]["text"]["fields"]["en"]["analyzer"] == "standard"
        assert mapping["properties"]["library"]["type"] == "keyword"

    def test_the_mapping_file_as_shipped_is_accepted(self, make_index: MakeIndex) -> None:
        index = make_index(dimension=384)
        assert index.ensure_index() is True
        properties = index.client.indices.get_mapping(index=index._index)[index._index]["mappings"]["properties"]
        assert properties["embedding"]["dimension"] == 384
        assert properties["embedding"]["method"]["engine"] == "faiss"

    def test_the_cjk_analyzer_makes_bigrams_and_the_english_field_unigrams(self, make_index: MakeIndex) -> None:
        index = make_index()
        index.ensure_index()
        analyze = index.client.indices.analyze
        bigrams = analyze(index=index._index, body={"field": "text", "text": "单表设计"})["tokens"]
        unigrams = analyze(index=index._index, body={"field": "text.en", "text": "单表设计"})["tokens"]
        assert [t["token"] for t in bigrams] == ["单表", "表设", "设计"]
        assert [t["token"] for t in unigrams] == ["单", "表", "设", "计"]

    def test_a_missing_mapping_file_is_a_configuration_error(self, make_index: MakeIndex, tmp_path: Path) -> None:
        index = make_index(index_body_path=tmp_path / "absent.json")
        with pytest.raises(ConfigurationError, match="absent.json"):
            index.ensure_index()


class TestAdd:
    def test_bulk_add_writes_every_chunk(self, empty_index: OpenSearchChunkIndex) -> None:
        assert empty_index.add(CORPUS, VECTORS) == len(CORPUS)
        assert empty_index.count() == len(CORPUS)

    def test_adding_a_chunk_again_replaces_it(self, empty_index: OpenSearchChunkIndex) -> None:
        # GIVEN the corpus is indexed
        empty_index.add(CORPUS)
        # WHEN one chunk comes again with new text
        empty_index.add([replace(LAMBDA_EN, text="Lambda SnapStart restores a snapshot.")])
        # THEN it replaced the old copy instead of adding one
        assert empty_index.count() == len(CORPUS)
        assert empty_index.get([LAMBDA_EN.chunk_id])[0].text == "Lambda SnapStart restores a snapshot."

    def test_vectors_are_stored_at_unit_length(self, make_index: MakeIndex) -> None:
        index = make_index()
        index.ensure_index()
        index.add([DYNAMO_ZH], [VECTORS[0]])
        stored = index.client.get(index=index._index, id=DYNAMO_ZH.chunk_id)["_source"]["embedding"]
        assert stored == pytest.approx([0.6, 0.8, 0.0, 0.0])
        assert math.isclose(math.fsum(v * v for v in stored), 1.0)

    def test_a_vector_of_the_wrong_dimension_is_refused_before_sending(self, make_index: MakeIndex) -> None:
        index = make_index()
        index.ensure_index()
        with pytest.raises(InvalidInputError, match="4 dimensions"):
            index.add([DYNAMO_ZH], [[1.0, 0.0]])
        with pytest.raises(InvalidInputError, match="one vector per chunk"):
            index.add([DYNAMO_ZH, LAMBDA_EN], [VECTORS[0]])
        assert index.count() == 0

    def test_a_document_the_mapping_refuses_is_a_permanent_typed_error(
            self, make_index: MakeIndex, tmp_path: Path) -> None:
        # GIVEN a strict index whose mapping lacks product_code
        body = json.loads(DEFAULT_INDEX_BODY.read_text(encoding="utf-8"))
        del body["mappings"]["properties"]["product_code"]
        (tmp_path / "narrow.json").write_text(json.dumps(body), encoding="utf-8")
        index = make_index(index_body_path=tmp_path / "narrow.json")
        index.ensure_index()
        # WHEN a chunk with a product code is added
        with pytest.raises(OpenSearchRequestError) as caught:
            index.add([DYNAMO_ZH])
        # THEN the error names the mapping problem and is not retryable
        assert caught.value.error_type == "strict_dynamic_mapping_exception"
        assert caught.value.retryable is False
        assert "index chunks" in caught.value.message


class TestGet:
    def test_returns_chunks_in_the_order_asked_and_skips_unknown_ids(self, empty_index: OpenSearchChunkIndex) -> None:
        empty_index.add(CORPUS, VECTORS)
        chunks = empty_index.get([LAMBDA_JA.chunk_id, "no-such-chunk", DYNAMO_ZH.chunk_id, LAMBDA_JA.chunk_id])
        assert chunks == [LAMBDA_JA, DYNAMO_ZH]

    def test_every_lineage_and_gateway_field_survives_the_round_trip(self, empty_index: OpenSearchChunkIndex) -> None:
        empty_index.add([DYNAMO_ZH])
        assert empty_index.get([DYNAMO_ZH.chunk_id]) == [DYNAMO_ZH]

    def test_nothing_asked_sends_nothing(self, make_index: MakeIndex) -> None:
        index = make_index()
        assert index.get([]) == []
        assert index._client is None


class TestDelete:
    def test_delete_by_document_removes_every_version(self, empty_index: OpenSearchChunkIndex) -> None:
        empty_index.add(CORPUS)
        assert empty_index.delete(doc_id="doc-lambda") == 2
        assert empty_index.count() == len(CORPUS) - 2
        assert empty_index.get([LAMBDA_EN.chunk_id, LAMBDA_JA.chunk_id]) == []

    def test_delete_by_version_keeps_the_other_versions(self, empty_index: OpenSearchChunkIndex) -> None:
        empty_index.add(CORPUS)
        assert empty_index.delete(doc_id="doc-lambda", version_id="v1") == 1
        assert empty_index.get([LAMBDA_EN.chunk_id, LAMBDA_JA.chunk_id]) == [LAMBDA_JA]

    def test_deleting_an_unknown_document_removes_nothing(self, empty_index: OpenSearchChunkIndex) -> None:
        empty_index.add(CORPUS)
        assert empty_index.delete(doc_id="doc-unknown") == 0
        assert empty_index.count() == len(CORPUS)
