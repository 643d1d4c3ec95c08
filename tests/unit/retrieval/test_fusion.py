"""Reciprocal Rank Fusion: the math on a hand example, weights, ties and validation."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from ragspine.retrieval.fusion import fuse
from ragspine.retrieval.model import ScoredChunk
from tests.fakes.chunks import hit


def ids(hits: Sequence[ScoredChunk]) -> list[str]:
    return [h.chunk.chunk_id for h in hits]


class TestRrfMath:
    def test_fused_scores_are_the_sum_of_reciprocal_ranks_with_k_60(self) -> None:
        # GIVEN two rankings that share b and c
        lexical = [hit("a", 9.0), hit("b", 5.0), hit("c", 1.0)]
        dense = [hit("b", 0.9), hit("c", 0.8), hit("d", 0.1)]
        # WHEN they are fused
        fused = fuse([lexical, dense])
        # THEN b = 1/62 + 1/61, c = 1/63 + 1/62, a = 1/61, d = 1/63
        assert ids(fused) == ["b", "c", "a", "d"]
        expected = [1 / 62 + 1 / 61, 1 / 63 + 1 / 62, 1 / 61, 1 / 63]
        assert [h.score for h in fused] == pytest.approx(expected)
        assert {h.source for h in fused} == {"rrf"}

    def test_original_scores_are_ignored_only_ranks_count(self) -> None:
        fused = fuse([[hit("a", 1000.0), hit("b", 0.001)]])
        assert fused[0].score == pytest.approx(1 / 61)
        assert fused[1].score == pytest.approx(1 / 62)

    def test_input_hits_are_not_changed(self) -> None:
        original = hit("a", 7.0)
        fuse([[original]])
        assert original.score == 7.0 and original.source == "hybrid"

    def test_a_chunk_repeated_in_one_ranking_counts_once_at_its_best_rank(self) -> None:
        fused = fuse([[hit("a"), hit("b"), hit("a")]])
        assert ids(fused) == ["a", "b"]
        assert fused[0].score == pytest.approx(1 / 61)

    def test_k_changes_the_damping(self) -> None:
        fused = fuse([[hit("a"), hit("b")]], k=0)
        assert [h.score for h in fused] == pytest.approx([1.0, 0.5])

    def test_no_rankings_fuse_to_nothing(self) -> None:
        assert fuse([]) == []
        assert fuse([[], []]) == []


class TestWeights:
    def test_a_heavier_ranking_wins_a_close_call(self) -> None:
        first = [hit("a"), hit("b")]
        second = [hit("b"), hit("a")]
        assert ids(fuse([first, second], weights=[2.0, 1.0])) == ["a", "b"]
        assert ids(fuse([first, second], weights=[1.0, 2.0])) == ["b", "a"]

    def test_weighted_scores_scale_each_contribution(self) -> None:
        fused = fuse([[hit("a")], [hit("a")]], weights=[2.0, 0.5])
        assert fused[0].score == pytest.approx(2.0 / 61 + 0.5 / 61)

    def test_a_zero_weight_ranking_is_ignored(self) -> None:
        assert ids(fuse([[hit("a")], [hit("b")]], weights=[0.0, 1.0])) == ["b"]

    @pytest.mark.parametrize("weights", [[1.0], [1.0, 1.0, 1.0], [-1.0, 1.0], [math.nan, 1.0], [math.inf, 1.0]])
    def test_bad_weights_are_refused(self, weights: list[float]) -> None:
        with pytest.raises(ValueError, match="weight"):
            fuse([[hit("a")], [hit("b")]], weights=weights)

    @pytest.mark.parametrize("k", [-1, True, 1.5])
    def test_bad_k_is_refused(self, k: object) -> None:
        with pytest.raises(ValueError, match="k must be"):
            fuse([[hit("a")]], k=k)  # type: ignore[arg-type]


class TestTies:
    def test_equal_scores_are_ordered_by_chunk_id_whatever_the_input_order(self) -> None:
        # GIVEN two single-hit rankings: both hits score 1/61
        # WHEN fused in either order THEN the order is by chunk_id
        assert ids(fuse([[hit("y")], [hit("x")]])) == ["x", "y"]
        assert ids(fuse([[hit("x")], [hit("y")]])) == ["x", "y"]

    def test_the_first_appearance_supplies_the_chunk(self) -> None:
        first = hit("a", text="from the first list")
        second = hit("a", text="from the second list")
        assert fuse([[first], [second]])[0].chunk.text == "from the first list"
