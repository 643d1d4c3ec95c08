"""``POST /v1/ask``: an answer stringing on whole passages keeps the sentences that speak to the question.

Asked why Mainland China's online fulfilment times improved, a 1.5B model announced the reasons
and copied the region's whole section: the revenue growth paragraph, the new-stores paragraph,
then the warehouse-network sentence that answers. Each sentence is sourced and about Mainland
China, so no earlier check withheld it. The answer now keeps the announcing line and the
answering sentence. A second sentence that goes on with the passage of the answering one, a
cause cited to a paragraph that speaks to the question, and a reply of one sentence are kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

import pytest

from ragspine.qa.evidence import Evidence
from ragspine.settings import Settings
from tests.fakes.narrative import StaticRetriever, evidence
from tests.support.chat_server import ChatServer, ask_through_api
from tests.support.chat_server import cited_sources as sources

CN_REVENUE = "2024财年，中国内地营业收入同比增长11.9%，增长主要来自线上渠道：微信小程序商城于2024年3月上线，公司同时与多家直播平台建立了带货合作。"
CN_STORES = "线下方面，中国内地全年净新增门店34家，新店主要分布在二线城市。"
CN_FULFIL = "中国内地团队持续推进会员运营与门店数字化改造，区域仓配网络的调整已在年内完成，线上订单的履约时效随之改善。"
SECTION = f"{CN_REVENUE} {CN_STORES} {CN_FULFIL}"


def paragraph(text: str, number: int) -> Evidence:
    # As the index gives it: the paragraph, with its section around it as the context the model reads.
    return replace(evidence(text, locator=f"heading=中国内地（ACME_CN）,para={number}"), context=SECTION)


CN = [paragraph(CN_FULFIL, 3), paragraph(CN_REVENUE, 1), paragraph(CN_STORES, 2)]
FULFIL_WHY = "中国内地2024财年线上订单的履约时效为什么有所改善？"
HK_REVENUE = evidence("2024财年，香港营业收入同比下降7.4%，主要原因是入境旅客消费走弱，以及位于广东道的三家门店关闭。")
HK_STORES_25 = evidence("香港团队继续以本地客群为核心，同时观察旅客消费的恢复节奏，审慎安排新的开店计划。",
                        doc="ACME_FY2025_MDA.docx", locator="heading=香港（ACME_HK）,para=2")
JP_SUMMARY = evidence("2025年、ACME_JPの収益性は前年から回復しました。", doc="ACME_JP_2025_Report.md",
                      locator="heading=概要,para=1")
JP_PRICE = evidence("2025年4月、ACME_JPは店頭の棚価格を引き上げました。円安による輸入コストの上昇を販売価格に反映するための措置です。"
                    "この価格改定により、収益性は前年から回復しました。",
                    doc="ACME_JP_2025_Report.md", locator="heading=価格改定,para=1")


def cite(item: Evidence) -> str:
    return f"（来源：{item.doc} {item.locator}）"


@pytest.fixture
def ask(settings: Settings) -> Iterator[Callable[[str, str, Sequence[Evidence]], dict[str, object]]]:
    servers: list[ChatServer] = []

    def run(question: str, reply: str, passages: Sequence[Evidence]) -> dict[str, object]:
        server = ChatServer(lambda messages: reply)
        server.serve()
        servers.append(server)
        return ask_through_api(settings, server, question, retriever=StaticRetriever(list(passages)))

    yield run
    for server in servers:
        server.close()


def test_a_copied_section_keeps_the_sentence_that_answers(ask: Callable[..., dict[str, object]]) -> None:
    reply = f"原因如下：\n{CN_REVENUE}[2]\n{CN_STORES}[3]\n{CN_FULFIL}[1]"

    body = ask(FULFIL_WHY, reply, CN)

    assert body["narrative_status"] == "answered"
    assert body["answer"] == f"原因如下：\n{CN_FULFIL}{cite(CN[0])}"
    assert sources(body) == [(CN[0].doc, CN[0].locator)]


def test_an_unrelated_passage_strung_before_the_answer_is_dropped(ask: Callable[..., dict[str, object]]) -> None:
    # Hong Kong's 2024 fall in revenue, then the paragraph on the 2025 openings asked about.
    reply = (f"{HK_REVENUE.text}[2]"
             "香港团队继续以本地客群为核心，同时观察旅客消费的恢复节奏，审慎安排新的开店计划。[1]")

    body = ask("香港团队为什么在2025财年审慎安排新的开店计划？", reply, [HK_STORES_25, HK_REVENUE])

    assert body["answer"] == f"{HK_STORES_25.text}{cite(HK_STORES_25)}"
    assert sources(body) == [(HK_STORES_25.doc, HK_STORES_25.locator)]


def test_a_sentence_going_on_with_the_answering_passage_is_kept(ask: Callable[..., dict[str, object]]) -> None:
    # An English answer to a Chinese passage: its words alone judge it; the second sentence names no shop.
    reply = "Hong Kong shut three of its shops on Canton Road in fiscal 2024 [1]. Tourist spending had weakened as well [1]."

    body = ask("Why did Hong Kong shut its shops on Canton Road in 2024?", reply, [HK_REVENUE, HK_STORES_25])

    assert "Tourist spending had weakened as well" in str(body["answer"])


def test_a_cause_cited_to_a_paragraph_speaking_to_the_question_is_kept(
        ask: Callable[..., dict[str, object]]) -> None:
    # The price-rise sentence says nothing of profitability; the paragraph it cites does (この価格改定により…回復).
    reply = "2025年、ACME_JPの収益性は前年から回復しました。[1]2025年4月、ACME_JPは店頭の棚価格を引き上げました。[2]"

    body = ask("2025年にACME_JPの収益性が回復したのはなぜですか？", reply, [JP_SUMMARY, JP_PRICE])

    assert "棚価格を引き上げました。" in str(body["answer"])
    assert sources(body) == [(JP_SUMMARY.doc, JP_SUMMARY.locator), (JP_PRICE.doc, JP_PRICE.locator)]


def test_a_reply_of_one_sentence_is_left_whole(ask: Callable[..., dict[str, object]]) -> None:
    body = ask(FULFIL_WHY, f"{CN_REVENUE}[2]", CN)

    assert str(body["answer"]).startswith(CN_REVENUE)
