"""Searching the embedded index: CJK and English BM25, hybrid, filters inside both legs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ragspine.retrieval.embedded_index import EmbeddedChunkIndex
from ragspine.retrieval.model import Chunk, SearchFilters
from ragspine.retrieval.ports import ChunkIndex
from ragspine.sensitivity import Sensitivity

ALL = SearchFilters()


def chunk(chunk_id: str, text: str, **fields: object) -> Chunk:
    fields.setdefault("doc_id", f"doc-{chunk_id}")
    return Chunk(chunk_id, source_locator=f"para={chunk_id}", text=text, **fields)  # type: ignore[arg-type]


def one_hot(position: int, size: int = 8) -> list[float]:
    return [1.0 if i == position else 0.0 for i in range(size)]


class TestAcmeQuestions:
    def test_chinese_why_question_finds_the_hong_kong_decline(self, acme_index: EmbeddedChunkIndex) -> None:
        hits = acme_index.search("香港收入为什么下降", top_k=3, filters=ALL)
        best = hits[0].chunk
        assert best.doc_id == "ACME_FY2024_MDA.docx" and "下降7.4%" in best.text and "入境旅客消费走弱" in best.text
        assert best.source_locator == "para=8" and hits[0].source == "bm25"

    def test_japanese_question_finds_the_price_revision(self, acme_index: EmbeddedChunkIndex) -> None:
        best = acme_index.search("価格改定で粗利率はどうなりましたか", top_k=3, filters=ALL)[0].chunk
        assert best.doc_id == "ACME_JP_2025_Report.md" and best.source_locator == "heading=価格改定,para=1"

    def test_english_question_finds_the_returns_rule(self, acme_index: EmbeddedChunkIndex) -> None:
        best = acme_index.search("How many days do I have to return items?", top_k=3, filters=ALL)[0].chunk
        assert best.doc_id == "ACME_Product_Policy.md" and "30 days" in best.text

    def test_parents_are_never_hits_but_can_be_fetched(self, acme_index: EmbeddedChunkIndex) -> None:
        hits = acme_index.search("香港 营业收入", top_k=50, filters=ALL)
        assert hits and not any(h.chunk.is_parent for h in hits)
        (parent,) = acme_index.get([hits[0].chunk.parent_id or ""])
        assert parent.is_parent and hits[0].chunk.text in parent.text

    def test_it_satisfies_the_chunk_index_port(self, index: EmbeddedChunkIndex) -> None:
        port: ChunkIndex = index
        assert port.count() == 0


class TestFiltersInsideTheQuery:
    def test_top_1_with_a_filter_returns_the_best_allowed_chunk(self, index: EmbeddedChunkIndex) -> None:
        # GIVEN many strong matches in one library and one weaker match in another
        index.add([chunk(f"f{i}", "refund refund refund policy", library="finance") for i in range(30)]
                  + [chunk("p1", "refund policy for stores and a lot of other words here", library="policies")])
        # WHEN asking for one hit within "policies"
        hits = index.search("refund policy", top_k=1, filters=SearchFilters(libraries=("policies",)))
        # THEN the filtered-out finance chunks did not crowd it out
        assert [h.chunk.chunk_id for h in hits] == ["p1"]

    def test_dense_leg_only_scores_allowed_rows(self, index: EmbeddedChunkIndex) -> None:
        index.add([chunk("near", "alpha", library="finance"), chunk("far", "beta", library="policies")],
                  [one_hot(0), [0.6, 0.8, 0, 0, 0, 0, 0, 0]])
        hits = index.search("gamma", top_k=1, filters=SearchFilters(libraries=("policies",)),
                            query_vector=one_hot(0))
        assert [(h.chunk.chunk_id, h.source) for h in hits] == [("far", "hybrid")]

    @pytest.mark.parametrize(("filters", "expected"), [
        (SearchFilters(doc_ids=("doc-b",)), {"b"}),
        (SearchFilters(entities=("ACME_HK",)), {"a"}),
        (SearchFilters(periods=("FY2025",)), {"b", "c"}),
        (SearchFilters(space_ids=("sp2",)), {"c"}),
        (SearchFilters(document_ids=("d1",)), {"a", "b"}),
        (SearchFilters(version_ids=("v2",)), {"b"}),
        (SearchFilters(categories=("report",)), {"a", "c"}),
        (SearchFilters(tags_any=("x", "z")), {"a", "c"}),
        (SearchFilters(tags_all=("x", "y")), {"a"}),
        (SearchFilters(version_labels=("2025",)), {"a", "c"}),
        (SearchFilters(product_codes=("P-9",)), {"b"}),
        (SearchFilters(libraries=("nowhere",)), set()),
        (SearchFilters(entities=("ACME_HK", "ACME_JP"), periods=("FY2024",)), {"a"}),
    ])
    def test_each_filter_field_constrains_the_hits(self, index: EmbeddedChunkIndex, filters: SearchFilters,
                                                   expected: set[str]) -> None:
        index.add([
            chunk("a", "store sales", entity="ACME_HK", period="FY2024", space_id="sp1", document_id="d1",
                  version_id="v1", category="report", tags=("x", "y"), version_label="2025"),
            chunk("b", "store sales", entity="ACME_JP", period="FY2025", space_id="sp1", document_id="d1",
                  version_id="v2", category="memo", tags=("y",), product_code="P-9"),
            chunk("c", "store sales", entity="ACME_CN", period="FY2025", space_id="sp2", document_id="d2",
                  version_id="v1", category="report", tags=("z",), version_label="2025"),
        ])
        # Gateway chunks (space_id set) are in scope only when their space is named.
        scoped = replace(filters, space_ids=filters.space_ids or ("sp1", "sp2"))
        assert {h.chunk.chunk_id for h in index.search("store", top_k=10, filters=scoped)} == expected


class TestSensitivity:
    def test_restricted_is_excluded_by_default_and_only_returned_when_the_ceiling_allows(
            self, index: EmbeddedChunkIndex) -> None:
        index.add([chunk("r", "board minutes merger", sensitivity=Sensitivity.RESTRICTED),
                   chunk("i", "merger rumours", sensitivity=Sensitivity.INTERNAL)],
                  [one_hot(0), one_hot(1)])
        default = index.search("board minutes merger", top_k=5, filters=ALL, query_vector=one_hot(0))
        assert [h.chunk.chunk_id for h in default] == ["i"]
        lifted = SearchFilters(max_sensitivity=Sensitivity.RESTRICTED)
        assert index.search("board minutes", top_k=1, filters=lifted)[0].chunk.chunk_id == "r"

    def test_public_ceiling_hides_internal(self, index: EmbeddedChunkIndex) -> None:
        index.add([chunk("pub", "opening hours", sensitivity=Sensitivity.PUBLIC),
                   chunk("int", "opening hours staff", sensitivity=Sensitivity.INTERNAL)])
        hits = index.search("opening hours", top_k=5, filters=SearchFilters(max_sensitivity=Sensitivity.PUBLIC))
        assert [h.chunk.chunk_id for h in hits] == ["pub"]


class TestHybrid:
    def test_dense_leg_finds_a_chunk_without_shared_words(self, index: EmbeddedChunkIndex) -> None:
        index.add([chunk("lex", "membership tiers silver gold"), chunk("sem", "loyalty programme levels")],
                  [one_hot(1), one_hot(2)])
        hits = index.search("membership", top_k=2, filters=ALL, query_vector=one_hot(2))
        assert {h.chunk.chunk_id for h in hits} == {"lex", "sem"} and {h.source for h in hits} == {"hybrid"}

    def test_chunk_first_in_both_legs_ranks_first(self, index: EmbeddedChunkIndex) -> None:
        index.add([chunk(str(i), f"topic {'match ' * (3 if i == 5 else i % 2)}filler") for i in range(12)],
                  [one_hot(i % 8) for i in range(12)])
        hits = index.search("match", top_k=3, filters=ALL, query_vector=one_hot(5))
        # min-max fusion: the best of both legs scales to 1 in each, so its average is 1
        assert hits[0].chunk.chunk_id == "5" and hits[0].score == pytest.approx(1.0)
        rrf = EmbeddedChunkIndex(index.path, fusion="rrf").search("match", top_k=3, filters=ALL,
                                                                    query_vector=one_hot(5))
        assert rrf[0].chunk.chunk_id == "5" and rrf[0].score == pytest.approx(2 / 61)

    def test_an_rrf_tie_goes_to_the_wider_score_margin_not_the_first_ingested(self, index: EmbeddedChunkIndex) -> None:
        # GIVEN "older" (ingested first) 2nd for the words and 1st for the vector, and "newer"
        # 1st for the words and a close 2nd for the vector: equal RRF sums
        index.add([chunk("older", "price filler filler filler"), chunk("newer", "price rise price rise"),
                   chunk("other", "unrelated words")], [[1.0, 0.0], [0.99, 0.141], [0.0, 1.0]])
        rrf = EmbeddedChunkIndex(index.path, fusion="rrf")
        hits = rrf.search("price rise", top_k=3, filters=ALL, query_vector=[1.0, 0.0])
        assert hits[0].score == hits[1].score
        # THEN the scores' margins decide the tie: "newer" leads by far on words and trails
        # by little on the vector (before: the first ingested won)
        assert [hit.chunk.chunk_id for hit in hits[:2]] == ["newer", "older"]

    @pytest.mark.parametrize(("fusion", "best_score"), [("min_max", 1.0), ("rrf", 2 / 61)])
    def test_the_fusion_setting_reaches_the_index_the_service_builds(self, tmp_path: Path, fusion: str,
                                                                     best_score: float) -> None:
        from ragspine.bootstrap import build_chunk_index
        from ragspine.settings import Settings

        index = build_chunk_index(Settings(data_dir=tmp_path, hybrid_fusion=fusion), dimension=8)  # type: ignore[arg-type]
        assert index is not None
        index.add([chunk("a", "match"), chunk("b", "other")], [one_hot(0), one_hot(1)])
        hits = index.search("match", top_k=2, filters=ALL, query_vector=one_hot(0))
        assert hits[0].chunk.chunk_id == "a" and hits[0].score == pytest.approx(best_score)

    def test_an_unknown_fusion_is_refused(self, index: EmbeddedChunkIndex) -> None:
        from ragspine.errors import ConfigurationError

        with pytest.raises(ConfigurationError, match="unknown fusion"):
            EmbeddedChunkIndex(index.path, fusion="max")

    def test_binary_preselection_still_finds_the_nearest_vector(self, index_path: Path) -> None:
        import numpy as np

        rng = np.random.default_rng(4)
        vectors = rng.standard_normal((400, 64)).astype(np.float32)
        approx = EmbeddedChunkIndex(index_path, exact_dense_limit=10, rescore_pool=40)
        approx.add([chunk(str(i), "same words everywhere") for i in range(400)], vectors.tolist())
        query = vectors[123] + rng.standard_normal(64).astype(np.float32) * 0.1
        hits = approx.search("unrelated", top_k=1, filters=ALL, query_vector=query.tolist())
        assert hits[0].chunk.chunk_id == "123" and hits[0].source == "hybrid"

    def test_query_vector_is_ignored_when_the_index_has_no_vectors(self, index: EmbeddedChunkIndex) -> None:
        index.add([chunk("a", "hello world")])
        assert index.search("hello", top_k=1, filters=ALL, query_vector=one_hot(0))[0].source == "bm25"

    def test_parallel_legs_give_the_same_hits_as_sequential(self, index: EmbeddedChunkIndex,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
        from ragspine.retrieval import embedded_index

        index.add([chunk(str(i), f"topic {'match ' * (i % 4)}") for i in range(40)],
                  [one_hot(i % 8) for i in range(40)])
        sequential = index.search("match", top_k=10, filters=ALL, query_vector=one_hot(3))
        monkeypatch.setattr(embedded_index, "PARALLEL_MIN_ROWS", 1)
        assert index.search("match", top_k=10, filters=ALL, query_vector=one_hot(3)) == sequential
        index.close()


class TestBm25Scores:
    def test_scores_match_a_plain_lucene_bm25(self, index: EmbeddedChunkIndex) -> None:
        # GIVEN a small corpus; WHEN searching; THEN each score is Lucene BM25 (k1=1.5, b=0.75)
        # over the same tokens (title, heading path and text), computed here by hand.
        import math

        from ragspine.text import document_tokens, query_tokens

        texts = {"a": "香港 营业收入 下降", "b": "香港 门店 香港 旅客", "c": "日本 毛利率 下降 下降 原因", "d": "集团 稳健"}
        index.add([chunk(k, v) for k, v in texts.items()])
        docs = {k: document_tokens("\n".join(("", v))) for k, v in texts.items()}
        avg = sum(len(t) for t in docs.values()) / len(docs)

        def bm25(terms: list[str], tokens: list[str]) -> float:
            total = 0.0
            for term in terms:
                df = sum(term in d for d in docs.values())
                tf = tokens.count(term)
                if tf:
                    idf = math.log(1 + (len(docs) - df + 0.5) / (df + 0.5))
                    total += idf * tf / (tf + 1.5 * (1 - 0.75 + 0.75 * len(tokens) / avg))
            return total

        query = "香港收入下降"
        expected = {k: bm25(query_tokens(query), t) for k, t in docs.items()}
        hits = index.search(query, top_k=4, filters=ALL)
        assert {h.chunk.chunk_id: h.score for h in hits} == pytest.approx({k: v for k, v in expected.items() if v > 0})


class TestGatewayChunks:
    """Knowledge Gateway chunks (space_id set) stay out of every search that names no space."""

    def test_space_chunks_are_hidden_unless_their_space_is_named(self, index: EmbeddedChunkIndex) -> None:
        index.add([chunk("plain", "refund policy"), chunk("gw", "refund policy", space_id="ks-1", document_id="d1")],
                  [one_hot(0), one_hot(0)])
        ordinary = index.search("refund policy", top_k=5, filters=ALL, query_vector=one_hot(0))
        assert [h.chunk.chunk_id for h in ordinary] == ["plain"]
        named = index.search("refund policy", top_k=5, filters=SearchFilters(space_ids=("ks-1",)))
        assert [h.chunk.chunk_id for h in named] == ["gw"]

    def test_update_metadata_restamps_every_chunk_and_the_filters_follow(self, index: EmbeddedChunkIndex) -> None:
        from ragspine.retrieval.model import ChunkLabels

        index.add([chunk(f"c{i}", "refund policy", space_id="ks-1", document_id="d1", category="old",
                         tags=("a",)) for i in range(3)] + [chunk("other", "refund policy", space_id="ks-1",
                                                                   document_id="d2", category="old")])
        space = SearchFilters(space_ids=("ks-1",))
        assert index.update_metadata("d1", ChunkLabels(category="new", tags=("b", "c"), version_label="v2",
                                                       product_code="P1")) == 3
        found = {h.chunk.chunk_id for h in index.search("refund", top_k=9, filters=replace(
            space, categories=("new",), tags_all=("b", "c"), version_labels=("v2",), product_codes=("P1",)))}
        assert found == {"c0", "c1", "c2"}
        assert not index.search("refund", top_k=9, filters=replace(space, tags_any=("a",)))
        assert index.get(["c0"])[0].tags == ("b", "c") and index.get(["other"])[0].category == "old"

    def test_an_index_file_from_before_the_new_columns_opens_and_filters(self, tmp_path: Path) -> None:
        import sqlite3

        path = tmp_path / "old.db"
        EmbeddedChunkIndex(path).close()
        with sqlite3.connect(path) as conn:  # the file as schema 1 first shipped it
            conn.execute("ALTER TABLE chunks DROP COLUMN version_label")
            conn.execute("ALTER TABLE chunks DROP COLUMN product_code")
        reopened = EmbeddedChunkIndex(path)
        reopened.add([chunk("a", "refund", space_id="s", document_id="d", version_label="2025")])
        hits = reopened.search("refund", top_k=3, filters=SearchFilters(space_ids=("s",), version_labels=("2025",)))
        assert [h.chunk.chunk_id for h in hits] == ["a"]
        reopened.close()
