"""Fusion: RRF across rankings and the hybrid legs' min-max or RRF, on hand examples, ties and validation."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.retrieval.fusion import HybridFusion, fuse, fuse_legs
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


class TestHybridLegs:
    """``fuse_legs``: the two legs of one search, as both indexes fuse them."""

    LEXICAL = (["a", "b", "c"], [9.0, 3.0, 2.9])  # a confident BM25 match
    DENSE = (["b", "a", "c"], [0.861, 0.860, 0.80])  # e5's near tie between a and b

    def test_min_max_scales_each_leg_then_averages(self) -> None:
        fused = fuse_legs([self.LEXICAL, self.DENSE], mode=HybridFusion.MIN_MAX, top_k=3)
        a = (1.0 + (0.860 - 0.80) / 0.061) / 2
        b = ((3.0 - 2.9) / 6.1 + 1.0) / 2
        assert [key for key, _ in fused] == ["a", "b", "c"]
        assert [score for _, score in fused] == pytest.approx([a, b, 0.0])

    def test_rrf_gives_a_near_tie_the_same_say_and_min_max_breaks_its_ties(self) -> None:
        fused = fuse_legs([self.LEXICAL, self.DENSE], mode=HybridFusion.RRF, top_k=2)
        assert [score for _, score in fused] == pytest.approx([1 / 61 + 1 / 62] * 2)
        assert [key for key, _ in fused] == ["a", "b"]  # tied on RRF: the wider margin (a's BM25 lead) wins

    def test_weights_shift_the_say_of_each_leg(self) -> None:
        dense = (["b", "a", "c"], [0.9, 0.5, 0.1])
        assert fuse_legs([self.LEXICAL, dense], mode=HybridFusion.MIN_MAX, top_k=1)[0][0] == "a"
        dense_heavy = fuse_legs([self.LEXICAL, dense], mode=HybridFusion.MIN_MAX, top_k=1, weights=[1.0, 9.0])
        assert dense_heavy[0][0] == "b"
        even = fuse_legs([self.LEXICAL, self.DENSE], mode=HybridFusion.RRF, top_k=3, weights=[2.0, 2.0])
        assert even == fuse_legs([self.LEXICAL, self.DENSE], mode=HybridFusion.RRF, top_k=3)

    def test_a_candidate_of_one_leg_only_scores_zero_in_the_other(self) -> None:
        fused = dict(fuse_legs([(["a"], [5.0]), (["b", "c"], [0.9, 0.1])], mode=HybridFusion.MIN_MAX, top_k=3))
        assert fused == pytest.approx({"a": 0.5, "b": 0.5, "c": 0.0})

    def test_a_leg_whose_candidates_tie_counts_each_of_them_fully(self) -> None:
        # a lone BM25 match (or tied ones) is that leg's best: scaled to 1, never to 0
        fused = dict(fuse_legs([(["a", "b"], [2.0, 2.0]), (["c", "a"], [0.9, 0.1])], mode=HybridFusion.MIN_MAX,
                               top_k=3))
        assert fused == pytest.approx({"a": 0.5, "b": 0.5, "c": 0.5})

    def test_nothing_to_fuse_gives_nothing(self) -> None:
        assert fuse_legs([], mode=HybridFusion.MIN_MAX, top_k=3) == []
        assert fuse_legs([([], []), ([], [])], mode=HybridFusion.RRF, top_k=3) == []

    @pytest.mark.parametrize("weights", [[1.0], [0.0, 1.0], [math.nan, 1.0], [-1.0, 2.0]])
    def test_bad_weights_are_refused(self, weights: list[float]) -> None:
        with pytest.raises(ValueError, match="positive finite weight per leg"):
            fuse_legs([self.LEXICAL, self.DENSE], mode=HybridFusion.MIN_MAX, top_k=3, weights=weights)

    @given(st.lists(st.tuples(st.integers(0, 30), st.floats(0.0, 50.0)), max_size=12),
           st.lists(st.tuples(st.integers(0, 30), st.floats(-1.0, 1.0)), max_size=12),
           st.sampled_from(list(HybridFusion)))
    def test_positions_and_chunk_ids_fuse_alike(self, lexical: list[tuple[int, float]],
                                                dense: list[tuple[int, float]], mode: HybridFusion) -> None:
        # The embedded index fuses snapshot positions, OpenSearch chunk ids: the same order either way.
        legs = [_leg(lexical), _leg(dense)]
        by_position = fuse_legs(legs, mode=mode, top_k=10)
        by_id = fuse_legs([([f"c{p:03d}" for p in keys], scores) for keys, scores in legs], mode=mode, top_k=10)
        assert [f"c{p:03d}" for p, _ in by_position] == [key for key, _ in by_id]
        assert [s for _, s in by_position] == pytest.approx([s for _, s in by_id])
        assert all(0.0 <= s <= 1.0 for _, s in by_position) or mode is HybridFusion.RRF


def _leg(pairs: list[tuple[int, float]]) -> tuple[list[int], list[float]]:
    """One leg as an index hands it over: each key once, best score first."""
    best: dict[int, float] = {}
    for key, score in pairs:
        best[key] = max(score, best.get(key, score))
    ordered = sorted(best.items(), key=lambda item: (-item[1], item[0]))
    return [k for k, _ in ordered], [s for _, s in ordered]
