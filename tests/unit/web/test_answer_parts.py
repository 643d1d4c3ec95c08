"""The answer as parts: numbers marked fact / computed / quoted / unverified, and the text kept whole."""

from __future__ import annotations

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.query_metric import QueryResult, QueryStatus
from ragspine.qa.answer import answer_question
from ragspine.qa.parts import answer_parts
from ragspine.qa.result import AnswerResult, AnswerStatus, Route
from ragspine.qa.slots import Slots
from tests.fakes.facts import InMemoryFactStore
from tests.fakes.qa import make_qa
from tests.unit.facts.test_fact_model import make_fact

TODAY = date(2026, 11, 30)
FY2025 = make_fact(period="2025", value=1452, source_doc_id="ACME_FY2025_Review.pptx",
                   source_locator="slide=2,table=1,row=营业收入,col=FY2025", source_file_hash="sha256:" + "b" * 64)
FY2024 = make_fact(source_file_hash="sha256:" + "a" * 64)


def _result(answer: str, *facts: object, sources: tuple[dict[str, str], ...] = (),
            route: Route = Route.NARRATIVE) -> AnswerResult:
    results = tuple(QueryResult(QueryStatus.FOUND, fact=f) for f in facts)  # type: ignore[arg-type]
    return AnswerResult(answer=answer, sources=sources, route=route, status=AnswerStatus.ANSWERED,
                        slots=Slots((), (), (), ()), results=results)


def _numbers(result: AnswerResult) -> list[tuple[str, str | None]]:
    return [(p.text, p.kind) for p in answer_parts(result) if p.type == "number"]


def test_a_found_fact_is_a_fact_chip_with_its_id_unit_period_and_pinned_version() -> None:
    result = answer_question("中国内地FY2024的REVENUE是多少", qa=make_qa(InMemoryFactStore([FY2024])))
    numbers = [p for p in answer_parts(result) if p.type == "number"]
    assert len(numbers) == 1
    chip = numbers[0]
    assert (chip.kind, chip.value, chip.unit, chip.period, chip.id) == (
        "fact", "1320", "USD_M", "FY2024", "REVENUE/ACME_CN/TOTAL/FY2024")
    assert [s.as_dict() for s in chip.sources] == [{"doc": "ACME_FY2024_Review.pptx",
                                                    "locator": "slide=2,table=1,row=REVENUE,col=FY2024",
                                                    "version": "sha256:" + "a" * 64}]


def test_a_year_over_year_change_is_computed_from_both_inputs_and_the_inputs_stay_facts() -> None:
    result = answer_question("中国2025年营业收入同比增长多少", qa=make_qa(InMemoryFactStore([FY2024, FY2025])))
    kinds = _numbers(result)
    assert ("1320", "fact") in kinds and ("1452", "fact") in kinds
    computed = [p for p in answer_parts(result) if p.kind == "computed" and p.type == "number"]
    assert [p.text for p in computed] == ["132", "+10.00"]
    assert {s.doc for s in computed[0].sources} == {"ACME_FY2024_Review.pptx", "ACME_FY2025_Review.pptx"}
    assert computed[0].id and computed[0].id.startswith("calc-")


def test_a_narrative_figure_before_its_passage_citation_is_quoted_with_that_passage() -> None:
    source = {"doc": "ACME_Product_Policy.md", "locator": "heading=Returns"}
    parts = answer_parts(_result("Items can be returned within 30 days.（来源：ACME_Product_Policy.md heading=Returns）",
                                 sources=(source,)))
    quoted = [p for p in parts if p.type == "number"]
    assert [(p.text, p.kind) for p in quoted] == [("30", "quoted")]
    assert quoted[0].sources[0].doc == "ACME_Product_Policy.md"
    assert quoted[0].sources[0].locator == "heading=Returns"


def test_a_figure_no_citation_covers_is_marked_unverified() -> None:
    parts = answer_parts(_result("Stores grew by 34 this year. Returns take 30 days.（来源：P.md · heading=Returns）"))
    assert _numbers(_result("Stores grew by 34 this year. Returns take 30 days.（来源：P.md · heading=Returns）")) == [
        ("34", "unverified"), ("30", "quoted")]
    assert parts[-1].type == "citation"


def test_period_labels_and_years_are_not_figures() -> None:
    assert _numbers(_result("FY2024 and 2024Q3 and 2024年 were good.")) == []


@given(st.text(alphabet=st.sampled_from(list("0123456789,.年FYQ（）()：: 来源·abc\n。")), max_size=80))
def test_the_parts_always_join_back_to_the_answer(answer: str) -> None:
    assert "".join(p.text for p in answer_parts(_result(answer))) == answer


def test_a_figure_in_a_sentence_that_ends_before_its_citation_is_quoted() -> None:
    answer = ("归因分析：\n2024财年，香港营业收入同比下降7.4%，主要原因是三家门店关闭。"
              "（来源：ACME_FY2024_MDA.docx heading=香港（ACME_HK）,para=1）")
    source = {"doc": "ACME_FY2024_MDA.docx", "locator": "heading=香港（ACME_HK）,para=1"}
    parts = answer_parts(_result(answer, sources=(source,)))
    assert [(p.text, p.kind) for p in parts if p.type == "number"] == [("7.4", "quoted")]
    assert parts[-1].sources[0].locator == "heading=香港（ACME_HK）,para=1"


def test_a_ranking_line_cites_its_inputs_once_and_each_ranked_figure_is_that_fact() -> None:
    hk = make_fact(entity="ACME_HK", geography="HK", period="2025", value=351,
                   source_doc_id="ACME_FY2025_Review.pptx", source_locator="slide=3,table=1,row=营业收入,col=FY2025")
    answer = ("FY2025 营业收入排名：中国内地 1452 USD_M；香港 351 USD_M。最高的是中国内地，比香港高 1101 USD_M"
              "（计算自：ACME_FY2025_Review.pptx · slide=2,table=1,row=营业收入,col=FY2025；"
              "ACME_FY2025_Review.pptx · slide=3,table=1,row=营业收入,col=FY2025）")
    assert _numbers(_result(answer, FY2025, hk, route=Route.STRUCTURED)) == [
        ("1452", "fact"), ("351", "fact"), ("1101", "computed")]


def test_a_citation_whose_row_nests_brackets_two_deep_is_one_citation_and_its_figure_a_quote() -> None:
    locator = "table=1,row=Interest rate swaps: Carrying amount (non-current (liabilities)/assets),col=2019"
    answer = f"The carrying amount was -494.（来源：tatqa_264.md · {locator}）"
    parts = answer_parts(_result(answer, sources=({"doc": "tatqa_264.md", "locator": locator},)))
    assert [(p.text, p.kind) for p in parts if p.type == "number"] == [("-494", "quoted")]
    assert parts[-1].type == "citation" and parts[-1].sources[0].locator == locator
