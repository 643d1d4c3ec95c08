"""Listwise reranking: the model's order, invented and omitted ids, fallback, no RESTRICTED in prompts."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import pytest

from ragspine.retrieval.model import ScoredChunk
from ragspine.retrieval.rerank import build_rerank_prompt, parse_ranking, rerank
from ragspine.sensitivity import Sensitivity
from tests.fakes.chunks import hit
from tests.fakes.llm import FailingLLMProvider, RecordingLLMProvider

QUESTION = "Why did the gross margin in Japan recover?"


def ids(hits: Sequence[ScoredChunk]) -> list[str]:
    return [h.chunk.chunk_id for h in hits]


@pytest.fixture
def fused() -> list[ScoredChunk]:
    return [hit("a", 0.03, text="Store openings continued."), hit("b", 0.02, text="The yen weakened."),
            hit("c", 0.01, text="Shelf prices were raised in April, so the margin recovered.", title="JP report")]


class TestModelOrder:
    def test_the_models_order_is_applied_with_reciprocal_position_scores(self, fused: list[ScoredChunk]) -> None:
        llm = RecordingLLMProvider(["[3] > [1] > [2]"])
        reranked = rerank(QUESTION, fused, top_k=3, llm=llm)
        assert ids(reranked) == ["c", "a", "b"]
        assert [h.score for h in reranked] == pytest.approx([1.0, 0.5, 1 / 3])
        assert {h.source for h in reranked} == {"rerank"}

    def test_the_prompt_numbers_every_candidate_after_the_question(self, fused: list[ScoredChunk]) -> None:
        llm = RecordingLLMProvider(["[1]"])
        rerank(QUESTION, fused, top_k=2, llm=llm)
        [prompt] = llm.prompts
        assert f"Question: {QUESTION}" in prompt
        assert "[1] Store openings continued." in prompt
        assert "[3] (JP report) Shelf prices were raised" in prompt

    def test_long_passages_are_cut_in_the_prompt(self) -> None:
        llm = RecordingLLMProvider(["[2] [1]"])
        rerank(QUESTION, [hit("a", text="x" * 50), hit("b")], top_k=2, llm=llm, max_passage_chars=10)
        assert "[1] xxxxxxxxx…" in llm.prompts[0] and "x" * 11 not in llm.prompts[0]

    def test_only_top_k_are_returned(self, fused: list[ScoredChunk]) -> None:
        assert ids(rerank(QUESTION, fused, top_k=1, llm=RecordingLLMProvider(["[2] > [3] > [1]"]))) == ["b"]

    def test_a_single_candidate_needs_no_model_call(self) -> None:
        llm = RecordingLLMProvider(["[1]"])
        assert ids(rerank(QUESTION, [hit("only")], top_k=3, llm=llm)) == ["only"]
        assert llm.calls == []


class TestUnreliableReplies:
    def test_invented_and_repeated_ids_are_ignored_and_omitted_ones_keep_fused_order(
            self, fused: list[ScoredChunk]) -> None:
        # GIVEN a reply naming passage 9 (there are 3), 0, and passage 2 twice, omitting 1 and 3
        llm = RecordingLLMProvider(["[9] > [2] > [0] > [2]"])
        # WHEN reranked THEN 2 leads and the omitted ones follow in their fused order
        assert ids(rerank(QUESTION, fused, top_k=3, llm=llm)) == ["b", "a", "c"]

    def test_bare_and_full_width_numbers_are_read(self, fused: list[ScoredChunk]) -> None:
        assert ids(rerank(QUESTION, fused, top_k=3, llm=RecordingLLMProvider(["3, 1, 2"]))) == ["c", "a", "b"]
        assert ids(rerank(QUESTION, fused, top_k=3, llm=RecordingLLMProvider(["［２］＞［３］"]))) == ["b", "c", "a"]

    def test_a_reply_without_any_usable_id_keeps_the_fused_order(self, fused: list[ScoredChunk],
                                                                  caplog: pytest.LogCaptureFixture) -> None:
        with caplog.at_level(logging.WARNING):
            reranked = rerank(QUESTION, fused, top_k=3, llm=RecordingLLMProvider(["I cannot rank these."]))
        assert reranked == fused
        assert "fell back" in caplog.text

    def test_a_failing_provider_keeps_the_fused_order(self, fused: list[ScoredChunk]) -> None:
        llm = FailingLLMProvider()
        assert rerank(QUESTION, fused, top_k=2, llm=llm) == fused[:2]
        assert len(llm.calls) == 1

    @pytest.mark.parametrize(("reply", "expected"), [
        ("[2] > [1]", [1, 0]), ("2 > 1 > 2", [1, 0]), ("Passage [1] mentions 2024", [0]),
        ("nothing", []), ("[4] > [1.5]", []), ("1.5 and 2", [1]),
    ])
    def test_parse_ranking(self, reply: str, expected: list[int]) -> None:
        assert parse_ranking(reply, 3) == expected


class TestRestrictedNeverSent:
    def test_a_restricted_candidate_is_neither_in_the_prompt_nor_in_the_result(self) -> None:
        # GIVEN a RESTRICTED hit among the candidates
        hits = [hit("board", text="SECRET board resolution", sensitivity=Sensitivity.RESTRICTED),
                hit("a", text="public one"), hit("b", text="public two")]
        llm = RecordingLLMProvider(["[2] > [1]"])
        # WHEN reranked
        reranked = rerank(QUESTION, hits, top_k=3, llm=llm)
        # THEN the model never saw it and it is gone from the result
        assert "SECRET" not in llm.prompts[0]
        assert ids(reranked) == ["b", "a"]

    def test_restricted_is_dropped_on_fallback_too(self) -> None:
        hits = [hit("board", sensitivity=Sensitivity.RESTRICTED), hit("a"), hit("b")]
        assert ids(rerank(QUESTION, hits, top_k=3, llm=FailingLLMProvider())) == ["a", "b"]

    def test_the_prompt_builder_refuses_restricted_chunks(self) -> None:
        with pytest.raises(ValueError, match="RESTRICTED"):
            build_rerank_prompt(QUESTION, [hit("board", sensitivity=Sensitivity.RESTRICTED)])

    def test_bad_top_k_is_refused(self, fused: list[ScoredChunk]) -> None:
        with pytest.raises(ValueError, match="top_k"):
            rerank(QUESTION, fused, top_k=0, llm=RecordingLLMProvider())
