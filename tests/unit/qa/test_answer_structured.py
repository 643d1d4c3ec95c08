"""``answer_question`` on the structured route: found, not found, unrecognized, never a guess."""

from __future__ import annotations

import re
from datetime import date

import pytest

from ragspine.errors import InvalidInputError
from ragspine.qa.answer import answer_question
from ragspine.qa.result import AnswerStatus, Route
from tests.fakes.facts import InMemoryFactStore
from tests.fakes.qa import make_qa
from tests.unit.facts.test_fact_model import make_fact

TODAY = date(2026, 11, 30)
JP_MARGIN = make_fact(metric_code="GROSS_MARGIN", entity="ACME_JP", geography="JP", value=36.0, unit="PCT",
                      source_locator="slide=4,table=1,row=GROSS_MARGIN,col=FY2024")


def ask(question: str, store: InMemoryFactStore | None = None, max_chars: int = 1000):
    store = store if store is not None else InMemoryFactStore([make_fact(), JP_MARGIN])
    return answer_question(question, qa=make_qa(store, max_chars=max_chars))


class TestFound:
    def test_found_fact_is_rendered_with_value_unit_and_source(self) -> None:
        result = ask("2024年日本的毛利率是多少")
        assert result.answer.endswith(
            "36.0 PCT（来源：ACME_FY2024_Review.pptx · slide=4,table=1,row=GROSS_MARGIN,col=FY2024）")
        assert result.sources == ({"doc": "ACME_FY2024_Review.pptx",
                                   "locator": "slide=4,table=1,row=GROSS_MARGIN,col=FY2024"},)
        assert (result.route, result.status) == (Route.STRUCTURED, AnswerStatus.FOUND)

    def test_seed_example_answers_1320_usd_m(self) -> None:
        result = ask("中国内地FY2024的REVENUE是多少")
        assert "1320 USD_M（来源：ACME_FY2024_Review.pptx · slide=2,table=1,row=REVENUE,col=FY2024）" in result.answer

    @pytest.mark.parametrize("question", [
        "What was Mainland China's revenue in FY2024?",
        "中国大陆2024年度的营收",
        "中国本土の2024年度の売上高はいくらですか",
    ])
    def test_the_same_fact_is_found_in_english_chinese_and_japanese(self, question: str) -> None:
        assert ask(question).results[0].fact == make_fact()


class TestNoGuessing:
    def test_not_found_answer_has_no_number_but_the_period_asked(self) -> None:
        result = ask("日本FY2030的营业收入是多少")
        assert result.status is AnswerStatus.NOT_FOUND
        assert result.sources == ()
        assert "未找到" in result.answer
        assert set(re.findall(r"\d+(?:\.\d+)?", result.answer)) == {"2030"}

    def test_unknown_entity_is_stated_plainly(self) -> None:
        result = ask("Wayne Enterprises revenue FY2024")
        assert result.status is AnswerStatus.UNRECOGNIZED_PARAM
        assert "entity" in result.answer and "Wayne Enterprises" in result.answer
        assert result.sources == ()

    def test_unknown_metric_is_asked_back_with_the_closest_metrics(self) -> None:
        store = InMemoryFactStore([make_fact()])
        result = ask("2024年日本的利润率是多少", store)
        assert result.route is Route.CLARIFICATION and result.status is AnswerStatus.NEEDS_CLARIFICATION
        assert result.clarification is not None
        assert [o.value for o in result.clarification.options] == ["OPERATING_MARGIN", "GROSS_PROFIT", "GROSS_MARGIN"]
        assert store.lookups == []  # no channel ran

    def test_malformed_period_is_reported_not_replaced_by_a_default(self) -> None:
        store = InMemoryFactStore([make_fact()])
        result = ask("中国内地2024年第五季度营收", store)
        assert result.status is AnswerStatus.UNRECOGNIZED_PARAM
        assert "period" in result.answer
        assert store.lookups == []


class TestAssumptions:
    def test_missing_entity_and_period_are_assumed_and_listed(self) -> None:
        group = make_fact(entity="ACME_GROUP", geography="GLOBAL", period="2025", value=2475,
                          source_doc_id="ACME_FY2025_Review.pptx", source_locator="slide=5,table=1,row=营业收入,col=FY2025")
        result = ask("营收是多少", InMemoryFactStore([group]))
        assert result.status is AnswerStatus.FOUND
        assert [(a.slot.value, a.value) for a in result.slots.assumptions] == [
            ("entity", "ACME_GROUP"), ("period", "FY2025")]
        assert "假设" in result.answer


class TestEnumerations:
    def test_each_enumerated_period_is_looked_up_and_cited(self) -> None:
        older = make_fact(period="2023", value=1180, source_locator="slide=2,table=1,row=REVENUE,col=FY2023")
        result = ask("中国内地FY2023和FY2024的营收", InMemoryFactStore([older, make_fact()]))
        assert result.status is AnswerStatus.FOUND
        assert [s["locator"] for s in result.sources] == [older.source_locator, make_fact().source_locator]

    def test_partly_found_enumeration_says_which_is_missing(self) -> None:
        result = ask("中国内地FY2024和FY2030的营收")
        assert result.status is AnswerStatus.PARTIAL
        assert "1320 USD_M" in result.answer and "未找到" in result.answer


class TestBadInput:
    @pytest.mark.parametrize("question", ["", "   \n"])
    def test_empty_question_is_refused(self, question: str) -> None:
        with pytest.raises(InvalidInputError, match="empty"):
            ask(question)

    def test_question_over_the_limit_is_refused_with_the_limit(self) -> None:
        with pytest.raises(InvalidInputError, match="limit is 50"):
            ask("营收" * 40, max_chars=50)
