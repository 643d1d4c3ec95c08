"""Rule-based intent (route from slots and cues) and the clarify gate's asymmetry (seed 001)."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.facts.glossary import SlotKind
from ragspine.qa.answer import answer_question
from ragspine.qa.clarify import AskBack, Proceed, clarify_scope
from ragspine.qa.intent import RuleIntentParser
from ragspine.qa.intent_model import Channel
from ragspine.qa.language import Lang, detect_language
from ragspine.qa.result import AnswerStatus, Route
from tests.fakes.facts import InMemoryFactStore
from tests.fakes.narrative import StaticRetriever
from tests.fakes.qa import make_qa
from tests.support.glossary import default_glossary
from tests.unit.facts.test_fact_model import make_fact

TODAY = date(2026, 11, 30)


@pytest.fixture(scope="module")
def parser() -> RuleIntentParser:
    return RuleIntentParser.from_file(default_glossary())


@pytest.mark.parametrize(("question", "channel"), [
    ("2024年日本的毛利率是多少", Channel.STRUCTURED),
    ("What was Hong Kong revenue in Q3 2024?", Channel.STRUCTURED),
    ("日本の2025年度の売上高はいくらですか", Channel.STRUCTURED),
    ("为什么2024年香港营收下降？", Channel.COMPOSITE),
    ("Why did Japan's gross margin fall in FY2024?", Channel.COMPOSITE),
    ("日本の粗利率が下がった理由は？", Channel.COMPOSITE),
    ("What is Project Lotus?", Channel.NARRATIVE),
    ("なぜ価格を引き上げたのですか", Channel.NARRATIVE),
    ("广东道的门店为什么关闭", Channel.NARRATIVE),
])
def test_route_follows_the_slots_and_causal_cues(parser: RuleIntentParser, question: str, channel: Channel) -> None:
    assert parser.parse(question).channel is channel


def test_a_swapped_parser_is_used_through_the_protocol() -> None:
    class AlwaysNarrative:
        def __init__(self) -> None:
            self.inner = RuleIntentParser.from_file(default_glossary())

        def parse(self, question: str):  # type: ignore[no-untyped-def]
            from dataclasses import replace

            return replace(self.inner.parse(question), channel=Channel.NARRATIVE)

    qa = make_qa(InMemoryFactStore([make_fact()]))
    from dataclasses import replace as dc_replace

    result = answer_question("中国内地FY2024的REVENUE是多少", qa=dc_replace(qa, intent=AlwaysNarrative()))
    assert result.route is Route.NARRATIVE


class TestMissingMetricIsAskedFirst:
    def test_no_channel_runs_and_the_options_are_ready_questions(self, parser: RuleIntentParser) -> None:
        store = InMemoryFactStore([make_fact()])
        result = answer_question("2024年中国内地是多少", qa=make_qa(store))
        assert (result.route, result.status) == (Route.CLARIFICATION, AnswerStatus.NEEDS_CLARIFICATION)
        assert store.lookups == []
        assert result.clarification is not None and result.answer == result.clarification.question
        for option in result.clarification.options:
            slots = parser.parse(option.question).slots
            assert slots.metrics == (option.value,) and slots.entities == ("ACME_CN",)
        picked = next(o for o in result.clarification.options if o.value == "REVENUE")
        assert "1320 USD_M" in answer_question(picked.question, qa=make_qa(store)).answer

    @pytest.mark.parametrize(("question", "lang", "fragment"), [
        ("2024年日本是多少", Lang.ZH, "哪个指标"),
        ("How much did Japan make in 2024?", Lang.EN, "Which figure"),
        ("日本の2024年度はいくらですか", Lang.JA, "どの指標"),
    ])
    def test_the_question_back_is_in_the_question_language(self, question: str, lang: Lang, fragment: str) -> None:
        result = answer_question(question, qa=make_qa(InMemoryFactStore()))
        assert detect_language(question) is lang
        assert result.route is Route.CLARIFICATION and fragment in result.answer

    @pytest.mark.parametrize("question", [
        "Show me Hong Kong's numbers for 2024",  # went to search before
        "给我看看2024年香港的数据",
        "2024年の香港の数字を見せて",
    ])
    def test_a_data_request_without_a_metric_offers_every_metric_for_that_entity(
            self, parser: RuleIntentParser, question: str) -> None:
        retriever = StaticRetriever()
        result = answer_question(question, qa=make_qa(InMemoryFactStore(), retriever=retriever))
        assert result.route is Route.CLARIFICATION and retriever.queries == []
        assert result.clarification is not None
        offered = [o.value for o in result.clarification.options]
        assert offered == list(default_glossary().terms[SlotKind.METRIC])  # "numbers" resembles no metric
        for option in result.clarification.options:
            slots = parser.parse(option.question).slots
            assert (slots.metrics, slots.entities, slots.periods[0].label) == ((option.value,), ("ACME_HK",), "FY2024")


class TestMissingEntityOrPeriodIsAssumed:
    def test_assumptions_are_listed_and_refinements_parse_back(self, parser: RuleIntentParser) -> None:
        intent = parser.parse("What was the revenue?")
        decision = clarify_scope(intent, glossary=default_glossary(), today=TODAY, lang=Lang.EN)
        assert isinstance(decision, Proceed)
        assert [(a.slot.value, a.value) for a in decision.slots.assumptions] == [
            ("entity", "ACME_GROUP"), ("period", "FY2025")]
        by_slot = {(o.slot, o.value) for o in decision.refinements}
        assert by_slot == {("entity", "ACME_CN"), ("entity", "ACME_HK"), ("entity", "ACME_JP"),
                           ("period", "FY2024"), ("period", "FY2023")}
        for option in decision.refinements:
            slots = parser.parse(option.question).slots
            assert slots.metrics == ("REVENUE",)
            if option.slot == "entity":
                assert slots.entities == (option.value,)
            else:
                assert [p.label for p in slots.periods] == [option.value]

    def test_the_default_period_comes_from_the_injected_clock(self) -> None:
        store = InMemoryFactStore([make_fact(entity="ACME_GROUP", period="2023")])
        result = answer_question("集团营收", qa=make_qa(store, today=date(2024, 2, 1)))
        assert result.status is AnswerStatus.FOUND and result.slots.periods[0].label == "FY2023"

    def test_a_given_entity_and_period_need_no_assumption(self, parser: RuleIntentParser) -> None:
        decision = clarify_scope(parser.parse("2024年日本的毛利率"), glossary=default_glossary(), today=TODAY,
                                 lang=Lang.ZH)
        assert isinstance(decision, Proceed) and decision.slots.assumptions == () and decision.refinements == ()

    def test_narrative_questions_are_not_asked_back(self, parser: RuleIntentParser) -> None:
        decision = clarify_scope(parser.parse("What is Project Lotus?"), glossary=default_glossary(), today=TODAY,
                                 lang=Lang.EN)
        assert not isinstance(decision, AskBack)
