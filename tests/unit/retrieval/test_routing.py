"""Library routing: keywords in Chinese, English and Japanese, slots; nothing chosen when nothing matches."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest

from ragspine.errors import ConfigurationError
from ragspine.facts.glossary import Glossary, Mention, SlotKind
from ragspine.retrieval.routing import LibraryRouter, default_library_router, glossary_slot_detector

NOTHING: tuple[str, ...] = ()


@dataclass
class _ScanningGlossary:
    """Only the ``scan`` of a glossary: the detector needs nothing else."""

    mentions: list[Mention]

    def scan(self, text: str) -> list[Mention]:
        return self.mentions


@pytest.fixture
def router() -> LibraryRouter:
    return default_library_router()


class TestKeywords:
    @pytest.mark.parametrize("question", ["商品可以在多少天内退货？", "How long do I have to return an item?",
                                          "返品は何日以内にできますか？", "ACME会员有哪些等级？",
                                          "What MEMBERSHIP tiers does ACME offer?", "会員ランクの見直しは？"])
    def test_returns_and_membership_go_to_policies(self, router: LibraryRouter, question: str) -> None:
        assert router.route(question) == ("policies",)

    @pytest.mark.parametrize("question", ["董事会决定了什么？", "What did the board decide?", "取締役会の議事録"])
    def test_board_questions_name_governance(self, router: LibraryRouter, question: str) -> None:
        # Routing may name governance; the sensitivity filter in the index still withholds it.
        assert router.route(question) == ("governance",)

    @pytest.mark.parametrize("question", ["ACME的财年是如何定义的？", "How is the fiscal year defined?",
                                          "ACMEの会計年度はどのように定義されていますか？"])
    def test_fiscal_year_questions_go_to_the_faq(self, router: LibraryRouter, question: str) -> None:
        assert router.route(question) == ("faq",)

    def test_full_width_letters_match_after_normalisation(self, router: LibraryRouter) -> None:
        assert router.route("ＢＯＡＲＤ minutes") == ("governance",)

    def test_english_keywords_match_whole_words_only(self, router: LibraryRouter) -> None:
        assert router.route("open the dashboard") == NOTHING

    def test_several_libraries_come_most_matched_first(self, router: LibraryRouter) -> None:
        assert router.route("退货政策和董事会") == ("policies", "governance")


class TestSlotsAndDefault:
    def test_a_metric_or_entity_slot_routes_to_financial_reports(self, router: LibraryRouter) -> None:
        assert router.route("为什么下降了？", slots={"metric"}) == ("financial_reports",)
        assert router.route("why?", slots={"entity", "period"}) == ("financial_reports",)

    def test_slots_detected_by_the_glossary_ignore_malformed_mentions(self, router: LibraryRouter) -> None:
        # GIVEN a glossary that recognises a metric and an entity, and a malformed period
        detect = glossary_slot_detector(cast(Glossary, _ScanningGlossary([
            Mention(SlotKind.METRIC, "GROSS_MARGIN", "毛利率", 0, 3), Mention(SlotKind.ENTITY, "ACME_JP", "日本", 3, 5),
            Mention(SlotKind.PERIOD, None, "2024年第5季度", 5, 14)])))
        question = "为什么日本的毛利率下降？"
        # THEN the slots present are metric and entity, which route to financial reports
        assert detect(question) == {"metric", "entity"}
        assert router.route(question, slots=detect(question)) == ("financial_reports",)

    def test_a_keyword_outweighs_a_slot(self, router: LibraryRouter) -> None:
        assert router.route("日本的会员等级", slots={"entity"}) == ("policies", "financial_reports")

    @pytest.mark.parametrize("question", ["hello", "こんにちは", "你好"])
    def test_nothing_matching_chooses_no_library(self, router: LibraryRouter, question: str) -> None:
        # The retriever then searches every library, unboosted.
        assert router.route(question) == NOTHING

    def test_the_shipped_configuration_is_loaded_once(self) -> None:
        assert default_library_router() is default_library_router()
        assert set(default_library_router().libraries) == {"financial_reports", "policies", "governance", "faq"}


def config(**overrides: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {"version": "t", "default": ["a"],
                           "libraries": {"a": {"keywords": ["alpha"]}, "b": {"keywords": ["beta"], "slots": []}}}
    raw.update(overrides)
    return raw


class TestConfiguration:
    def test_ties_keep_the_configuration_order(self) -> None:
        router = LibraryRouter.from_mapping(config())
        assert router.route("beta alpha") == ("a", "b")

    @pytest.mark.parametrize("raw", [
        config(libraries={"a": {"slots": ["colour"]}}),
        config(libraries={"a": {"keyword": ["typo"]}}), config(libraries={"a": {"keywords": [" "]}}),
        config(scores={"keyword": 0}), {"version": "t"},
    ])
    def test_malformed_configuration_is_refused(self, raw: dict[str, Any]) -> None:
        with pytest.raises(ConfigurationError):
            LibraryRouter.from_mapping(raw)

    def test_a_legacy_default_list_is_ignored(self) -> None:
        # Files written before routing only boosted still load; nothing matching chooses nothing.
        assert LibraryRouter.from_mapping(config(default=["missing"])).route("gamma") == NOTHING
        assert LibraryRouter.from_mapping({k: v for k, v in config().items() if k != "default"}).route("alpha") == ("a",)

    def test_an_unreadable_file_is_a_configuration_error(self, tmp_path: Path) -> None:
        with pytest.raises(ConfigurationError, match="cannot read"):
            LibraryRouter.from_file(tmp_path / "absent.yaml")
        (tmp_path / "list.yaml").write_text("- a\n", encoding="utf-8")
        with pytest.raises(ConfigurationError, match="not a mapping"):
            LibraryRouter.from_file(tmp_path / "list.yaml")
