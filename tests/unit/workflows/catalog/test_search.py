"""Catalog search in Chinese, English and Japanese: keywords, typos, ranking and errors."""

from __future__ import annotations

import pytest

from ragspine.errors import InvalidInputError, NotFoundError
from ragspine.workflows.scaffold.catalog import (
    BEST_MATCH_THRESHOLD,
    MAX_QUERY_CHARS,
    Catalog,
    CatalogEntryNotFoundError,
    CatalogHit,
    CatalogQueryError,
    EntryOrigin,
    default_catalog,
)


def ids(hits: list[CatalogHit]) -> list[str]:
    return [hit.entry.id for hit in hits]


class TestSearchFindsRelevantEntries:
    def test_chinese_translate_finds_the_translation_template_first_then_translators(self) -> None:
        hits = default_catalog().search("翻译")
        assert ids(hits)[0] == "tpl-translation"
        assert all(hit.entry.task == "translate" for hit in hits)

    def test_english_summarize_contracts_finds_the_legal_summarizer(self) -> None:
        hits = default_catalog().search("summarize contracts", limit=5)
        assert ids(hits)[0] == "gen-legal-summarize-standard"
        assert all((hit.entry.category, hit.entry.task) == ("legal", "summarize") for hit in hits)

    def test_japanese_minutes_finds_the_meeting_minutes_template(self) -> None:
        assert ids(default_catalog().search("議事録"))[0] == "tpl-meeting-minutes"

    def test_japanese_phrase_with_particles_finds_the_legal_summarizer(self) -> None:
        assert ids(default_catalog().search("契約書の要約"))[0] == "gen-legal-summarize-standard"

    @pytest.mark.parametrize(
        ("query", "category", "task"),
        [("sumarize contarcts", "legal", "summarize"), ("transalte invoices", "finance", "translate")],
    )
    def test_typos_are_matched_fuzzily(self, query: str, category: str, task: str) -> None:
        top = default_catalog().search(query)[0]
        assert (top.entry.category, top.entry.task) == (category, task)

    def test_full_width_and_case_are_normalised(self) -> None:
        assert ids(default_catalog().search("ＪＳＯＮ")) == ids(default_catalog().search("json"))

    def test_language_filter_restricts_titles_and_descriptions(self) -> None:
        hits = default_catalog().search("要約", lang="ja", limit=5)
        assert hits and all(hit.entry.task == "summarize" for hit in hits)

    def test_unknown_words_give_no_hits(self) -> None:
        assert default_catalog().search("xyzzy plugh") == []

    def test_limit_caps_the_hits(self) -> None:
        assert len(default_catalog().search("translate", limit=3)) == 3


class TestRankingIsStable:
    def test_same_query_gives_the_same_ranking_in_a_fresh_catalog(self) -> None:
        first = default_catalog().search("客服 分类", limit=50)
        again = Catalog().search("客服 分类", limit=50)
        assert [(hit.entry.id, hit.score) for hit in first] == [(hit.entry.id, hit.score) for hit in again]

    def test_ties_break_on_templates_first_then_id(self) -> None:
        hits = default_catalog().search("json", limit=100)
        keys = [(-hit.score, hit.entry.origin is not EntryOrigin.TEMPLATE, hit.entry.id) for hit in hits]
        assert keys == sorted(keys)
        assert all(0.0 < hit.score <= 1.0 for hit in hits)


class TestBestMatch:
    @pytest.mark.parametrize(
        ("description", "expected"),
        [
            ("Classify incoming support tickets by urgency", "tpl-support-triage"),
            ("请帮我把合同翻译成日语", "gen-legal-translate-standard"),
            ("会議の議事録を作りたい", "tpl-meeting-minutes"),
        ],
    )
    def test_descriptions_match_an_entry_in_each_language(self, description: str, expected: str) -> None:
        hit = default_catalog().best_match(description)
        assert hit is not None and hit.entry.id == expected
        assert hit.score >= BEST_MATCH_THRESHOLD

    def test_a_description_the_catalog_does_not_cover_matches_nothing(self) -> None:
        assert default_catalog().best_match("write a poem about cats") is None


class TestBadRequests:
    @pytest.mark.parametrize("query", ["", "   ", "x" * (MAX_QUERY_CHARS + 1)])
    def test_empty_or_too_long_queries_are_refused(self, query: str) -> None:
        with pytest.raises(CatalogQueryError) as caught:
            default_catalog().search(query)
        assert isinstance(caught.value, InvalidInputError)
        assert (caught.value.code, caught.value.http_status) == ("KNOWLEDGE_INVALID_INPUT", 400)

    @pytest.mark.parametrize("limit", [0, 101, True])
    def test_out_of_range_limits_are_refused(self, limit: int) -> None:
        with pytest.raises(CatalogQueryError, match="limit"):
            default_catalog().search("translate", limit=limit)

    def test_unknown_language_is_refused(self) -> None:
        with pytest.raises(CatalogQueryError, match="lang"):
            default_catalog().search("translate", lang="fr")

    def test_unknown_ids_are_not_found(self) -> None:
        with pytest.raises(CatalogEntryNotFoundError) as caught:
            default_catalog().get("gen-nothing")
        assert isinstance(caught.value, NotFoundError)
        with pytest.raises(CatalogEntryNotFoundError):
            default_catalog().template_text("gen-legal-summarize-brief")
