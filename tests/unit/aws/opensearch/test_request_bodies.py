"""The exact OpenSearch request bodies and document shapes, built by pure functions."""

from __future__ import annotations

import math

import pytest

from ragspine.aws.opensearch_queries import (
    build_filter_clauses,
    build_knn_query,
    build_lexical_query,
    build_version_filter,
    checked_query,
    chunk_to_document,
    document_to_chunk,
    unit_vector,
)
from ragspine.errors import InvalidInputError
from ragspine.retrieval.model import Chunk, SearchFilters
from ragspine.sensitivity import Sensitivity

CEILING = {"range": {"sensitivity_level": {"lte": 2}}}
CHILDREN_ONLY = {"term": {"is_parent": False}}
OUTSIDE_SPACES = {"bool": {"must_not": [{"exists": {"field": "space_id"}}]}}  # no space named: no Gateway chunk


class TestFilterClauses:
    def test_default_filters_hold_the_confidential_ceiling_and_exclude_parents(self) -> None:
        assert build_filter_clauses(SearchFilters()) == [CEILING, CHILDREN_ONLY, OUTSIDE_SPACES]

    def test_restricted_is_admitted_only_by_raising_the_ceiling(self) -> None:
        clauses = build_filter_clauses(SearchFilters(max_sensitivity=Sensitivity.RESTRICTED))
        assert clauses == [{"range": {"sensitivity_level": {"lte": 3}}}, CHILDREN_ONLY, OUTSIDE_SPACES]

    def test_every_filter_becomes_a_keyword_clause(self) -> None:
        filters = SearchFilters(
            libraries=("aws", "hr"), doc_ids=("d1",), entities=("ACME",), periods=("2024",), space_ids=("s1",),
            document_ids=("kd1",), version_ids=("v2",), categories=("guide",), tags_any=("a", "b"),
            tags_all=("x", "y"), version_labels=("2.0",), product_codes=("P1", "P2"),
            extra={"product_code": "DDB", "version_label": "1.0"})
        assert build_filter_clauses(filters) == [
            CEILING,
            CHILDREN_ONLY,
            {"terms": {"library": ["aws", "hr"]}},
            {"terms": {"doc_id": ["d1"]}},
            {"terms": {"entity": ["ACME"]}},
            {"terms": {"period": ["2024"]}},
            {"terms": {"space_id": ["s1"]}},
            {"terms": {"document_id": ["kd1"]}},
            {"terms": {"version_id": ["v2"]}},
            {"terms": {"category": ["guide"]}},
            {"terms": {"tags": ["a", "b"]}},
            {"terms": {"version_label": ["2.0"]}},
            {"terms": {"product_code": ["P1", "P2"]}},
            {"term": {"tags": "x"}},
            {"term": {"tags": "y"}},
            {"term": {"product_code": "DDB"}},
            {"term": {"version_label": "1.0"}},
        ]

    @pytest.mark.parametrize("field", ["colour", "sensitivity", "sensitivity_level", "text"])
    def test_an_unknown_or_forbidden_extra_field_is_refused(self, field: str) -> None:
        with pytest.raises(InvalidInputError, match=f"cannot filter on {field}") as caught:
            build_filter_clauses(SearchFilters(extra={field: "x"}))
        assert caught.value.field_errors[0].field == f"filters.extra.{field}"

    def test_version_filter_selects_a_document_or_one_version(self) -> None:
        assert build_version_filter("d1", None) == [{"term": {"doc_id": "d1"}}]
        assert build_version_filter("d1", "v2") == [{"term": {"doc_id": "d1"}}, {"term": {"version_id": "v2"}}]


class TestLexicalQuery:
    def test_the_exact_body(self) -> None:
        body = build_lexical_query("单表设计", SearchFilters(libraries=("aws",)), size=40)
        assert body == {
            "size": 40,
            "_source": {"excludes": ["embedding"]},
            "query": {"bool": {
                "must": [{"multi_match": {"query": "单表设计", "fields": [
                    "text", "text.en", "text.joins", "title^2", "title.en^2", "title.joins^2",
                    "context", "context.en", "context.joins"],
                                          "type": "most_fields"}}],
                "filter": [CEILING, CHILDREN_ONLY, OUTSIDE_SPACES, {"terms": {"library": ["aws"]}}],
            }},
        }


class TestKnnQuery:
    def test_the_exact_body(self) -> None:
        body = build_knn_query([3.0, 4.0], 10, SearchFilters(libraries=("aws",), version_ids=("v1",)))
        assert body == {
            "size": 10,
            "_source": {"excludes": ["embedding"]},
            "query": {"knn": {"embedding": {
                "vector": [0.6, 0.8],
                "k": 10,
                "filter": {"bool": {"filter": [
                    CEILING, CHILDREN_ONLY, OUTSIDE_SPACES, {"terms": {"library": ["aws"]}}, {"terms": {"version_id": ["v1"]}}]}},
            }}},
        }

    def test_both_legs_carry_the_same_filters_for_any_filters(self) -> None:
        filters = SearchFilters(libraries=("aws",), tags_all=("t",), max_sensitivity=Sensitivity.PUBLIC,
                                extra={"parent_id": "p1"})
        lexical = build_lexical_query("q", filters, size=5)["query"]["bool"]["filter"]
        knn = build_knn_query([1.0, 0.0], 5, filters)["query"]["knn"]["embedding"]["filter"]["bool"]["filter"]
        assert lexical == knn == build_filter_clauses(filters)
        assert {"range": {"sensitivity_level": {"lte": 0}}} in knn

    def test_the_filter_is_inside_knn_not_a_post_filter(self) -> None:
        body = build_knn_query([1.0], 3, SearchFilters())
        assert "post_filter" not in body and set(body["query"]) == {"knn"}


class TestVectors:
    def test_unit_vector_scales_to_length_one(self) -> None:
        vector = unit_vector([1.0, 2.0, 2.0])
        assert vector == pytest.approx([1 / 3, 2 / 3, 2 / 3])
        assert math.isclose(math.fsum(v * v for v in vector), 1.0)

    @pytest.mark.parametrize("vector", [[], [0.0, 0.0], [math.nan, 1.0], [math.inf, 0.0]])
    def test_an_unusable_vector_is_refused(self, vector: list[float]) -> None:
        with pytest.raises(InvalidInputError, match="non-zero"):
            unit_vector(vector)


class TestQueryText:
    def test_blanks_are_trimmed(self) -> None:
        assert checked_query("  单表设计 \n", max_chars=10) == "单表设计"

    @pytest.mark.parametrize(("query", "message"), [("", "empty"), (" \t", "empty"), ("abcdef", "limit is 5")])
    def test_empty_or_long_queries_are_refused(self, query: str, message: str) -> None:
        with pytest.raises(InvalidInputError, match=message):
            checked_query(query, max_chars=5)


FULL = Chunk(chunk_id="c1", doc_id="d1", source_locator="page=3,para=2", text="正文", title="标题", entity="ACME",
             period="2024", sensitivity=Sensitivity.CONFIDENTIAL, library="fin", parent_id="p1", prev_id="c0",
             next_id="c2", position=4, heading_path=("一", "二"), space_id="s1", document_id="kd1", version_id="v1",
             category="report", tags=("a", "b"), version_label="1.0", product_code="P9")


class TestDocuments:
    def test_a_chunk_round_trips_through_its_document(self) -> None:
        assert document_to_chunk(chunk_to_document(FULL, [0.0, 2.0])) == FULL

    def test_sensitivity_is_stored_as_level_and_name(self) -> None:
        document = chunk_to_document(FULL)
        assert (document["sensitivity_level"], document["sensitivity"]) == (2, "CONFIDENTIAL")

    def test_unset_optional_fields_are_left_out_and_the_vector_normalised(self) -> None:
        bare = Chunk(chunk_id="c1", doc_id="d1", source_locator="slide=1", text="t")
        document = chunk_to_document(bare, [0.0, 5.0])
        assert "entity" not in document and "version_id" not in document
        assert document["embedding"] == [0.0, 1.0]
        assert "embedding" not in chunk_to_document(bare)
