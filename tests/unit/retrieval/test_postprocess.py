"""Post-processing: dedupe by id and near-identical text, per-document cap, score floor."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from ragspine.retrieval.model import ScoredChunk
from ragspine.retrieval.postprocess import apply_score_floor, cap_per_document, dedupe, postprocess
from tests.fakes.chunks import hit


def ids(hits: Sequence[ScoredChunk]) -> list[str]:
    return [h.chunk.chunk_id for h in hits]


class TestDedupe:
    def test_a_repeated_chunk_id_keeps_its_best_ranked_copy(self) -> None:
        hits = [hit("a", 3.0), hit("b", 2.0), hit("a", 1.0)]
        kept = dedupe(hits)
        assert ids(kept) == ["a", "b"]
        assert kept[0].score == 3.0

    def test_texts_differing_only_in_spacing_case_and_punctuation_are_duplicates(self) -> None:
        hits = [hit("v1", text="Gross margin recovered by 0.5 points in 2025."),
                hit("v2", text="gross  margin recovered by 0.5 points in 2025"),
                hit("other", text="Store openings continued in selected locations.")]
        assert ids(dedupe(hits)) == ["v1", "other"]

    def test_full_width_chinese_copies_are_duplicates(self) -> None:
        hits = [hit("zh1", text="凭原始购物小票，商品可在购买后30天内退货。"),
                hit("zh2", text="凭原始购物小票,商品可在购买后３０天内退货")]
        assert ids(dedupe(hits)) == ["zh1"]

    def test_similar_but_different_texts_are_kept(self) -> None:
        hits = [hit("fy24", text="Revenue grew in Japan in FY2024 thanks to new stores."),
                hit("fy25", text="Revenue fell in Japan in FY2025 because of the weak yen.")]
        assert ids(dedupe(hits)) == ["fy24", "fy25"]

    def test_the_threshold_is_adjustable_and_checked(self) -> None:
        hits = [hit("a", text="abcdefghij"), hit("b", text="abcdefghXY")]
        assert ids(dedupe(hits, similarity=0.5)) == ["a"]
        assert ids(dedupe(hits, similarity=1.0)) == ["a", "b"]
        with pytest.raises(ValueError, match="similarity"):
            dedupe(hits, similarity=0.0)


class TestCapPerDocument:
    def test_at_most_n_hits_per_document_in_rank_order(self) -> None:
        hits = [hit("a1", doc_id="A"), hit("a2", doc_id="A"), hit("b1", doc_id="B"), hit("a3", doc_id="A")]
        assert ids(cap_per_document(hits, per_doc_cap=2)) == ["a1", "a2", "b1"]
        assert ids(cap_per_document(hits, per_doc_cap=1)) == ["a1", "b1"]

    def test_a_cap_below_one_is_refused(self) -> None:
        with pytest.raises(ValueError, match="per_doc_cap"):
            cap_per_document([], per_doc_cap=0)


class TestScoreFloor:
    def test_hits_below_the_floor_are_dropped_and_the_floor_itself_is_kept(self) -> None:
        hits = [hit("a", 0.5), hit("b", 0.2), hit("c", 0.1)]
        assert ids(apply_score_floor(hits, score_floor=0.2)) == ["a", "b"]

    def test_a_nan_floor_is_refused(self) -> None:
        with pytest.raises(ValueError, match="score_floor"):
            apply_score_floor([], score_floor=math.nan)


class TestPostprocess:
    def test_floor_dedupe_and_cap_compose_without_reordering(self) -> None:
        # GIVEN a duplicate of a1, three hits of document A and one below the floor
        hits = [hit("a1", 0.9, text="alpha one", doc_id="A"), hit("a1-copy", 0.8, text="Alpha one!", doc_id="A"),
                hit("a2", 0.7, text="alpha two", doc_id="A"), hit("b1", 0.6, text="beta one", doc_id="B"),
                hit("a3", 0.5, text="alpha three", doc_id="A"), hit("low", 0.01, text="low")]
        # WHEN post-processed with a cap of 2 and a floor of 0.1
        kept = postprocess(hits, per_doc_cap=2, score_floor=0.1)
        # THEN the copy does not use up A's share, and the low hit is gone
        assert ids(kept) == ["a1", "a2", "b1"]
        assert [h.score for h in kept] == [0.9, 0.7, 0.6]
