"""HybridRetriever end to end over the in-memory index: routing, fusion, rerank, expansion, faults."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from ragspine.errors import ConfigurationError, InvalidInputError, ProviderUnavailableError
from ragspine.retrieval.expansion import ExpansionMode
from ragspine.retrieval.model import Chunk, ScoredChunk, SearchFilters
from ragspine.retrieval.pipeline import HybridRetriever, RetrievalConfig
from ragspine.sensitivity import Sensitivity
from tests.fakes.chunks import InMemoryChunkIndex, make_chunk
from tests.fakes.llm import FailingLLMProvider, RecordingEmbedder, RecordingLLMProvider

R = Sensitivity.RESTRICTED


def corpus() -> list[Chunk]:
    policy = dict(doc_id="ACME_Product_Policy.md", library="policies", sensitivity=Sensitivity.PUBLIC)
    board = dict(doc_id="ACME_Board_Minutes_2025Q4.docx", library="governance", sensitivity=R)
    jp = dict(doc_id="ACME_JP_2025_Report.md", library="financial_reports")
    return [
        make_chunk("pol-returns", "RETURNS SECTION: purchase window and refund rules, see paragraphs.",
                   source_locator="heading=Returns", **policy),
        make_chunk("pol-returns-1", "Items can be returned within 30 days of purchase.", parent_id="pol-returns",
                   next_id="pol-returns-2", source_locator="heading=Returns,para=1", **policy),
        make_chunk("pol-returns-2", "Refunds go back to the original payment method.", parent_id="pol-returns",
                   prev_id="pol-returns-1", source_locator="heading=Returns,para=2", **policy),
        make_chunk("pol-member-1", "ACME membership has three tiers: Silver, Gold and Black.",
                   source_locator="heading=Membership,para=1", **policy),
        make_chunk("board-1", "The board approved the closure of 12 stores in 2026.",
                   source_locator="page=1,para=2", **board),
        make_chunk("jp-price-1", "In April 2025 ACME_JP raised shelf prices; the gross margin recovered.",
                   source_locator="heading=価格改定,para=1", next_id="jp-price-2", **jp),
        make_chunk("jp-price-2", "The yen weakened and import costs rose in 2025.",
                   source_locator="heading=価格改定,para=2", prev_id="jp-price-1", **jp),
        make_chunk("faq-fy", "Fiscal year = calendar year (1 January - 31 December).", doc_id="faq.yaml",
                   source_locator="id=fiscal_year_definition", library="faq", sensitivity=Sensitivity.PUBLIC),
    ]


@pytest.fixture
def index() -> InMemoryChunkIndex:
    return InMemoryChunkIndex(corpus())


def retriever(index: InMemoryChunkIndex, **kwargs: Any) -> HybridRetriever:
    config = kwargs.pop("config", RetrievalConfig(top_k=3, per_library_k=10))
    return HybridRetriever(index, config=config, **kwargs)


class LeakyIndex(InMemoryChunkIndex):
    """An adapter bug: ignores the sensitivity ceiling."""

    def search(self, query: str, *, top_k: int, filters: SearchFilters,
               query_vector: Sequence[float] | None = None) -> list[ScoredChunk]:
        return super().search(query, top_k=top_k, filters=SearchFilters(libraries=filters.libraries,
                                                                         max_sensitivity=R))


class TestEndToEnd:
    def test_a_returns_question_is_routed_searched_and_expanded_with_the_childs_citation(
            self, index: InMemoryChunkIndex) -> None:
        # WHEN a returns question is asked
        result = retriever(index).retrieve("How many days do I have to return items?")
        # THEN every library was searched once, and the routed policies library again (the boost)
        assert result.libraries == ("policies",) and result.routed and result.all_libraries
        everything, policies = index.searches
        assert everything.filters.libraries == () and policies.filters.libraries == ("policies",)
        assert everything.top_k == policies.top_k == 10
        assert {c.filters.max_sensitivity for c in index.searches} == {Sensitivity.CONFIDENTIAL}
        # AND the best hit cites the paragraph while its context is the parent section
        best = result.hits[0]
        assert (best.doc_id, best.source_locator) == ("ACME_Product_Policy.md", "heading=Returns,para=1")
        assert best.context.startswith("RETURNS SECTION")
        assert not result.reranked and not result.dense

    def test_nothing_routed_searches_every_library_as_one_ranking(self, index: InMemoryChunkIndex) -> None:
        # One ranking, not one per library fused: fusing would promote an unrelated library's best.
        result = retriever(index).retrieve("2025 calendar year yen")
        assert result.libraries == () and result.all_libraries
        assert [c.filters.libraries for c in index.searches] == [()]
        assert {h.chunk.library for h in result.hits} == {"financial_reports", "faq"}
        assert all(h.hit.source == "rrf" for h in result.hits)

    def test_a_library_no_route_names_is_found_by_an_unrouted_question(self) -> None:
        # GIVEN a user's document ingested without --library (library "default")
        index = InMemoryChunkIndex([*corpus(), make_chunk("mine-1", "The greenhouse compost ratio is three to one.",
                                                          doc_id="notes.txt", library="default")])
        # WHEN a question no routing rule matches is asked, THEN that document is found
        result = retriever(index).retrieve("greenhouse compost ratio")
        assert result.hits[0].doc_id == "notes.txt"

    def test_routing_boosts_but_never_hides_another_librarys_document(self) -> None:
        # GIVEN a user's document about returns in a library no rule names, and the policy
        own = make_chunk("mine-returns", "Warehouse returns are inspected by the night shift.", doc_id="ops.md",
                         library="operations")
        index = InMemoryChunkIndex([*corpus(), own])
        # WHEN a returns question (routed to policies) is asked
        result = retriever(index, config=RetrievalConfig(top_k=5, per_library_k=10)).retrieve(
            "who inspects returns at the warehouse night shift")
        # THEN the routed library was boosted and the user's document is still among the hits
        assert result.libraries == ("policies",)
        assert "ops.md" in [h.doc_id for h in result.hits]
        # AND a policies passage outranks an equally matching passage of the unrouted library
        tie = InMemoryChunkIndex([make_chunk("o", "returns window here", library="operations", doc_id="b.md"),
                                  make_chunk("p", "returns window there", library="policies", doc_id="a.md")])
        assert [h.chunk_id for h in retriever(tie).retrieve("returns window").hits] == ["p", "o"]

    def test_slots_given_by_the_caller_route_to_financial_reports(self, index: InMemoryChunkIndex) -> None:
        result = retriever(index).retrieve("为什么 margin recovered?", slots={"metric"})
        assert result.libraries == ("financial_reports",)
        assert result.hits[0].chunk_id == "jp-price-1"
        assert result.hits[0].context_chunk_ids == ("jp-price-1", "jp-price-2")

    def test_libraries_named_in_the_filters_skip_routing(self, index: InMemoryChunkIndex) -> None:
        result = retriever(index).retrieve("return items", filters=SearchFilters(libraries=("faq", "faq")))
        assert result.libraries == ("faq",) and not result.routed

    def test_top_k_per_document_cap_and_timings(self, index: InMemoryChunkIndex) -> None:
        config = RetrievalConfig(top_k=2, per_library_k=10, per_doc_cap=1, expansion=ExpansionMode.NONE)
        result = retriever(index, config=config).retrieve("items returned within 30 days original")
        assert [h.chunk_id for h in result.hits] == ["pol-returns-1"]
        assert set(result.timings_ms) >= {"route", "embed", "search", "fuse", "postprocess", "rerank",
                                          "expand", "total"}


    def test_a_per_call_top_k_overrides_the_configured_one(self, index: InMemoryChunkIndex) -> None:
        result = retriever(index).retrieve("2025 calendar year yen items", top_k=1)
        assert len(result.hits) == 1
        wide = retriever(index).retrieve("2025 calendar year yen items", top_k=12)
        assert index.searches[-1].top_k == 12
        assert len(wide.hits) > 3

    @pytest.mark.parametrize("top_k", [0, 101, True])
    def test_an_out_of_range_per_call_top_k_is_refused(self, index: InMemoryChunkIndex, top_k: int) -> None:
        with pytest.raises(InvalidInputError, match="top_k"):
            retriever(index).retrieve("return items", top_k=top_k)


class TestSensitivity:
    def test_a_board_question_names_governance_but_gets_nothing_restricted(self, index: InMemoryChunkIndex) -> None:
        result = retriever(index).retrieve("What did the board approve?")
        assert result.libraries == ("governance",)
        assert all(h.chunk.library != "governance" and h.chunk.sensitivity < R for h in result.hits)

    def test_a_caller_may_lower_the_ceiling_but_not_raise_it(self, index: InMemoryChunkIndex) -> None:
        retriever(index).retrieve("board stores", filters=SearchFilters(max_sensitivity=R))
        retriever(index).retrieve("board stores", filters=SearchFilters(max_sensitivity=Sensitivity.PUBLIC))
        # two searches per question: every library, and the routed governance library
        assert [c.filters.max_sensitivity for c in index.searches] == [Sensitivity.CONFIDENTIAL] * 2 + [
            Sensitivity.PUBLIC] * 2

    def test_a_restricted_chunk_leaked_by_the_index_is_dropped(self) -> None:
        result = retriever(LeakyIndex(corpus())).retrieve("board approved closure stores")
        assert "board-1" not in [h.chunk_id for h in result.hits]

    def test_restricted_text_never_reaches_the_rerank_prompt(self) -> None:
        llm = RecordingLLMProvider(["[2] > [1]"])
        config = RetrievalConfig(top_k=3, per_library_k=10, rerank=True)
        retriever(LeakyIndex(corpus()), llm=llm, config=config).retrieve(
            "board closure stores returned original", filters=SearchFilters(libraries=("governance", "policies")))
        assert llm.prompts and all("board approved" not in prompt for prompt in llm.prompts)


class TestOptionalStages:
    def test_the_query_vector_is_embedded_once_and_sent_to_every_library(self, index: InMemoryChunkIndex) -> None:
        embedder = RecordingEmbedder()
        result = retriever(index, embedder=embedder).retrieve("why did the yen and returns change", slots={"metric"})
        assert embedder.texts == ["why did the yen and returns change"] and result.dense
        assert len(index.searches) == len(result.libraries) + 1 >= 3
        assert all(c.query_vector is not None for c in index.searches)

    def test_a_failing_embedder_falls_back_to_lexical_search(self, index: InMemoryChunkIndex) -> None:
        result = retriever(index, embedder=RecordingEmbedder(fail=True)).retrieve("return items")
        assert not result.dense and result.hits
        assert index.searches[0].query_vector is None

    def test_rerank_reorders_the_fused_hits(self, index: InMemoryChunkIndex) -> None:
        llm = RecordingLLMProvider(["[2] > [1]"])
        config = RetrievalConfig(top_k=2, per_library_k=10, rerank=True, expansion=ExpansionMode.NONE)
        plain = retriever(index, config=RetrievalConfig(top_k=2, per_library_k=10)).retrieve("returned items original")
        result = retriever(index, llm=llm, config=config).retrieve("returned items original")
        assert result.reranked
        assert [h.chunk_id for h in result.hits] == [h.chunk_id for h in reversed(plain.hits)]

    def test_rerank_with_a_failing_model_keeps_the_fused_order(self, index: InMemoryChunkIndex) -> None:
        config = RetrievalConfig(top_k=2, per_library_k=10, rerank=True)
        plain = retriever(index, config=RetrievalConfig(top_k=2, per_library_k=10)).retrieve("returned items original")
        result = retriever(index, llm=FailingLLMProvider(), config=config).retrieve("returned items original")
        assert not result.reranked and result.hits == plain.hits


class TestFaults:
    def test_an_index_failure_propagates_as_provider_unavailable(self, index: InMemoryChunkIndex) -> None:
        index.fail_with = ProviderUnavailableError("OpenSearch is unreachable")
        with pytest.raises(ProviderUnavailableError, match="unreachable"):
            retriever(index).retrieve("return items")

    @pytest.mark.parametrize("query", ["", "   ", "x" * 1001])
    def test_an_empty_or_oversized_query_is_refused_before_searching(self, index: InMemoryChunkIndex,
                                                                      query: str) -> None:
        with pytest.raises(InvalidInputError) as caught:
            retriever(index).retrieve(query)
        assert caught.value.field_errors[0].field == "query"
        assert index.searches == []

    def test_an_unknown_filter_field_is_refused_by_the_index(self, index: InMemoryChunkIndex) -> None:
        with pytest.raises(InvalidInputError, match="unknown filter"):
            retriever(index).retrieve("return items", filters=SearchFilters(extra={"colour": "red"}))

    @pytest.mark.parametrize("overrides", [
        {"top_k": 0}, {"top_k": 30}, {"per_doc_cap": 0}, {"score_floor": -1.0}, {"score_floor": float("nan")},
        {"rerank_candidates": 1}, {"max_sensitivity": R}, {"rrf_k": -1}, {"window": 6}, {"max_query_chars": 0},
    ])
    def test_invalid_configuration_is_refused(self, overrides: dict[str, Any]) -> None:
        with pytest.raises(ConfigurationError, match="invalid retrieval configuration"):
            RetrievalConfig(**overrides)

    def test_rerank_without_a_model_is_refused_at_construction(self, index: InMemoryChunkIndex) -> None:
        with pytest.raises(ConfigurationError, match="no LLM provider"):
            HybridRetriever(index, config=RetrievalConfig(rerank=True))
