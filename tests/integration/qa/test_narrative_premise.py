"""A why-question about a fall (or a rise) the fact table shows the other way: the premise is corrected.

Asked "为什么2025年香港的毛利率下降了？" (Hong Kong's gross margin rose from 41.0 to 42.0), the
quoting default answered with Japan's passages on its own margin fall. The answer now says the
premise does not hold, with both figures and their sources, in the question's language, and asks
no model. When the figures are missing, disputed, equal or agree with the question, or the
question says no single direction, nothing is said of the premise.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import pytest

from ragspine.facts.model import Fact
from ragspine.llm.openai_compat import OpenAICompatibleProvider
from ragspine.qa.answer import answer_question
from ragspine.qa.result import AnswerResult, AnswerStatus, NarrativeKind
from ragspine.sensitivity import Sensitivity
from tests.fakes.facts import InMemoryFactStore
from tests.fakes.narrative import StaticRetriever, evidence
from tests.fakes.qa import make_qa
from tests.support.chat_server import ChatServer, chat_server

# The passages the index gave for the Hong Kong question: Japan's margin, and Hong Kong's other news.
JP_MARGIN = evidence("2024财年，日本毛利率下降2个百分点，原因是日元走弱推高了进口商品的采购成本。",
                     locator="heading=日本（ACME_JP）,para=1")
HK_2025 = evidence("2025财年，香港业务在完成租金重新谈判后企稳，经营压力较上一财年明显缓解。",
                   doc="ACME_FY2025_MDA.docx", locator="heading=香港（ACME_HK）,para=1")
PASSAGES = [JP_MARGIN, HK_2025]
# What a 1.5B model said to the question: Japan's fall explained as Hong Kong's.
MODEL_REPLY = "香港的毛利率下降是因为日元走弱推高了进口商品的采购成本。[1]"
NOW = "（来源：ACME_FY2025_Review.pptx · slide=3,table=1,row=毛利率,col=FY2025）"
BEFORE = "（来源：ACME_FY2024_Review.pptx · slide=3,table=1,row=GROSS_MARGIN,col=FY2024）"


def margin(year: int, value: float, *, entity: str = "ACME_HK", slide: int = 3,
           sensitivity: Sensitivity = Sensitivity.INTERNAL) -> Fact:
    row = "毛利率" if year == 2025 else "GROSS_MARGIN"
    return Fact("GROSS_MARGIN", entity, entity[-2:], "TOTAL", "FY", str(year), value, "PCT",
                f"ACME_FY{year}_Review.pptx", f"slide={slide},table=1,row={row},col=FY{year}",
                sensitivity=sensitivity)


def store_of(facts: Iterable[Fact]) -> InMemoryFactStore:
    store = InMemoryFactStore()
    store.put_many(list(facts))
    return store


@pytest.fixture
def model() -> Iterator[ChatServer]:
    with chat_server(lambda messages: MODEL_REPLY) as server:
        yield server


def ask(question: str, facts: Iterable[Fact], server: ChatServer) -> AnswerResult:
    llm = OpenAICompatibleProvider(server.base_url, None, "local-test", timeout_s=5.0)
    return answer_question(question, qa=make_qa(store_of(facts), retriever=StaticRetriever(PASSAGES), llm=llm))


HK_ROSE = [margin(2024, 41.0), margin(2025, 42.0)]


@pytest.mark.parametrize(("question", "said"), [
    ("为什么2025年香港的毛利率下降了？",
     f"问题的前提与数据不符：香港的毛利率FY2025为42.0%{NOW}，FY2024为41.0%{BEFORE}，是上升而非下降。"),
    ("Why did Hong Kong's gross margin fall in 2025?",
     f"The question's premise does not hold: Hong Kong's gross margin was 42.0% in FY2025{NOW} against 41.0% "
     f"in FY2024{BEFORE}, so it rose rather than fell."),
    ("2025年に香港の粗利率が低下したのはなぜですか？",
     f"質問の前提はデータと一致しません：香港の売上総利益率はFY2025が42.0%{NOW}、FY2024が41.0%{BEFORE}で、"
     "低下ではなく上昇しています。"),
])
def test_a_fall_the_figures_show_as_a_rise_is_corrected_in_the_questions_language(
        question: str, said: str, model: ChatServer) -> None:
    result = ask(question, HK_ROSE, model)

    narrative_part = result.answer.split("\n\n")[-1]
    assert narrative_part.endswith(said)
    assert "日本" not in result.answer and "日元" not in result.answer  # no passage of Japan's fall quoted
    assert result.narrative_status is AnswerStatus.ANSWERED
    assert result.narrative_detail is not None
    assert result.narrative_detail.kind is NarrativeKind.PREMISE_CONTRADICTED
    assert {(s["doc"], s["locator"]) for s in result.sources} >= {
        ("ACME_FY2025_Review.pptx", "slide=3,table=1,row=毛利率,col=FY2025"),
        ("ACME_FY2024_Review.pptx", "slide=3,table=1,row=GROSS_MARGIN,col=FY2024")}
    assert model.requests == []  # the cause of a fall that did not happen is asked of no model


def test_a_rise_the_figures_show_as_a_fall_is_corrected(model: ChatServer) -> None:
    result = ask("为什么2025年香港的毛利率上升了？", [margin(2024, 42.0), margin(2025, 41.0)], model)

    assert result.answer.endswith(f"FY2025为41.0%{NOW}，FY2024为42.0%{BEFORE}，是下降而非上升。")


def test_the_quoting_default_corrects_the_premise_too() -> None:
    qa = make_qa(store_of(HK_ROSE), retriever=StaticRetriever(PASSAGES))

    result = answer_question("为什么2025年香港的毛利率下降了？", qa=qa)

    assert "问题的前提与数据不符" in result.answer and JP_MARGIN.text not in result.answer


@pytest.mark.parametrize(("question", "facts"), [
    ("为什么2025年香港的毛利率上升了？", HK_ROSE),  # the premise holds: the passages and the model answer it
    ("为什么2025年香港的毛利率下降了？", [margin(2025, 42.0)]),  # no figure for the year before
    ("为什么2025年香港的毛利率下降了？", [margin(2024, 42.0), margin(2025, 42.0)]),  # unchanged
    ("为什么2025年香港的毛利率下降了？", [margin(2024, 41.0, sensitivity=Sensitivity.RESTRICTED),
                                    margin(2025, 42.0)]),  # a figure above the asker's clearance
    ("为什么2025年香港的收入下降而毛利率上升？", HK_ROSE),  # both directions said
    ("为什么2025年香港的毛利率增长放缓？", HK_ROSE),  # the pace, not the direction
    ("为什么香港的毛利率下降了？", HK_ROSE),  # no year named: the year assumed is no premise
])
def test_no_verdict_on_the_premise_when_the_figures_do_not_contradict_it(
        question: str, facts: list[Fact], model: ChatServer) -> None:
    result = ask(question, facts, model)

    assert "前提" not in result.answer
    assert result.narrative_detail is None or result.narrative_detail.kind is not NarrativeKind.PREMISE_CONTRADICTED


def test_a_disputed_figure_gives_no_verdict(model: ChatServer) -> None:
    store = store_of(HK_ROSE)
    store.put_conflicts([margin(2024, 43.0, slide=7)])  # another slide states another 2024 margin
    llm = OpenAICompatibleProvider(model.base_url, None, "local-test", timeout_s=5.0)

    result = answer_question("为什么2025年香港的毛利率下降了？",
                             qa=make_qa(store, retriever=StaticRetriever(PASSAGES), llm=llm))

    assert "前提" not in result.answer
