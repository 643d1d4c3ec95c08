"""``POST /v1/ask``: a why-answer that leaves out the cause its cited passage states gets that sentence quoted.

Asked why Japan started Project Lotus, a real 1.5B model answered with its scope and cited the
passage that opens "为应对成本压力" (to cope with cost pressure). The answer now ends with that
sentence, quoted and cited; an answer that already gives the cause, or a question that does not
ask why, is left as the model wrote it, and a reply the checks withhold is still withheld.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ragspine.qa.prompt import ANSWER_WITH_CAUSE
from ragspine.qa.stated_causes import QUOTE_LABEL
from ragspine.settings import Settings
from tests.fakes.narrative import StaticRetriever, evidence
from tests.support.chat_server import ChatServer, ask_through_api, chat_server
from tests.support.chat_server import cited_sources as sources

CAUSE = "为应对成本压力，日本于2024年第四季度启动了成本优化项目“Project Lotus”，范围涵盖采购、物流与门店运营。"
LOTUS = evidence(f"{CAUSE}日本门店网络继续稳步扩张。", locator="heading=日本（ACME_JP）,para=2")
HK = evidence("2024财年，香港营业收入同比下降7.4%，主要原因是入境旅客消费走弱。", locator="heading=香港（ACME_HK）,para=1")
WHY = "日本为什么在2024年第四季度启动Project Lotus？"
WHAT = "日本在2024年第四季度启动的Project Lotus涵盖哪些方面？"
Asker = Callable[[str, str], dict[str, Any]]


def cite(item: object) -> str:
    return f"（来源：{item.doc} {item.locator}）"  # type: ignore[attr-defined]


@pytest.fixture
def ask(settings: Settings) -> Iterator[Asker]:
    servers: list[ChatServer] = []

    def run(question: str, reply: str) -> dict[str, Any]:
        server = ChatServer(lambda messages: reply)
        server.serve()
        servers.append(server)
        return ask_through_api(settings, server, question, retriever=StaticRetriever([LOTUS, HK]))

    yield run
    for server in servers:
        server.close()


def test_the_scope_alone_is_followed_by_the_cited_passages_reason(ask: Asker) -> None:
    body = ask(WHY, "Project Lotus的范围涵盖采购、物流与门店运营。[1]")

    assert body["narrative_status"] == "answered"
    assert body["answer"] == (f"Project Lotus的范围涵盖采购、物流与门店运营。{cite(LOTUS)}\n"
                              f"{QUOTE_LABEL['zh'].format(sentence=CAUSE)}{cite(LOTUS)}")
    assert sources(body) == [(LOTUS.doc, LOTUS.locator)]


def test_an_answer_giving_the_reason_is_left_as_written(ask: Asker) -> None:
    body = ask(WHY, "日本为应对成本压力启动了成本优化项目Project Lotus。[1]")

    assert body["answer"] == f"日本为应对成本压力启动了成本优化项目Project Lotus。{cite(LOTUS)}"


def test_a_question_that_does_not_ask_why_gets_no_quote(ask: Asker) -> None:
    body = ask(WHAT, "Project Lotus的范围涵盖采购、物流与门店运营。[1]")

    assert body["answer"] == f"Project Lotus的范围涵盖采购、物流与门店运营。{cite(LOTUS)}"


def test_a_withheld_reply_is_not_rescued_by_a_quote(ask: Asker) -> None:
    body = ask(WHY, "Project Lotus涵盖5个方面。[1]")  # 5: no passage says it

    assert (body["narrative_status"], body["narrative_detail"]["unsupported"]) == ("provenance_rejected", ["5"])
    assert QUOTE_LABEL["zh"].split("“")[0] not in body["answer"]


def test_the_citations_words_are_not_the_answer_giving_the_cause(settings: Settings) -> None:
    # The locator "heading=価格改定" holds the words of the cause "この価格改定により"; the answer does not.
    price = evidence("円安による輸入コストの上昇を販売価格に反映するための措置です。"
                     "この価格改定により、収益性は前年から回復しました。",
                     doc="ACME_JP_2025_Report.md", locator="heading=価格改定,para=1")
    reply = "日本の収益性が回復したのは円安による輸入コストの上昇を販売価格に反映するための措置です。[1]"
    with chat_server(lambda messages: reply) as server:
        body = ask_through_api(settings, server, "2025年に日本の収益性が回復したのはなぜですか？",
                               retriever=StaticRetriever([price]))

    cause = "この価格改定により、収益性は前年から回復しました。"
    assert body["answer"].endswith(f"\n{QUOTE_LABEL['ja'].format(sentence=cause)}{cite(price)}")


LOTUS_JA = evidence("2024年第4四半期に始まったコスト削減プログラム「Project Lotus」は、2025年も継続しています。",
                    doc="ACME_JP_2025_Report.md", locator="heading=Project Lotus,para=1")
CIRCUMSTANCE = "Project Lotus was started in 2024 and continues to be implemented in Japan. [1]"


@pytest.fixture
def ask_server(settings: Settings) -> Iterator[Callable[..., tuple[dict[str, Any], ChatServer]]]:
    servers: list[ChatServer] = []

    def run(question: str, model: Callable[[list[dict[str, str]]], str],
            passages: list[Any]) -> tuple[dict[str, Any], ChatServer]:
        server = ChatServer(model)
        server.serve()
        servers.append(server)
        return ask_through_api(settings, server, question, retriever=StaticRetriever(passages)), server

    yield run
    for server in servers:
        server.close()


def test_a_why_reply_giving_no_cause_is_asked_again_naming_the_passages_cause(ask_server) -> None:  # type: ignore[no-untyped-def]
    # The real model said only that Project Lotus "was started in 2024 and continues", citing a passage that
    # gives no reason; another passage about Japan states it (in Chinese). Named, it can be said in English.
    question = "Why did Japan start Project Lotus?"
    answer = "Japan started Project Lotus to cope with cost pressure [2]."
    named = ANSWER_WITH_CAUSE["en"].format(number=2, sentence=CAUSE)

    body, server = ask_server(question, lambda messages: answer if named in messages[-1]["content"] else CIRCUMSTANCE,
                              [LOTUS_JA, LOTUS, HK])

    assert len(server.requests) == 2 and named not in server.requests[0][-1]["content"]
    assert (body["narrative_status"], body["answer"]) == ("answered", answer.replace(" [2]", cite(LOTUS)))


def test_a_why_reply_giving_a_cause_is_not_asked_again(ask_server) -> None:  # type: ignore[no-untyped-def]
    body, server = ask_server(WHY, lambda messages: "日本为应对成本压力启动了成本优化项目Project Lotus。[2]",
                              [LOTUS_JA, LOTUS, HK])

    assert len(server.requests) == 1 and body["narrative_status"] == "answered"


def test_a_question_not_asking_why_is_not_asked_for_a_cause(ask_server) -> None:  # type: ignore[no-untyped-def]
    body, server = ask_server(WHAT, lambda messages: "Project Lotus的范围涵盖采购、物流与门店运营。[2]",
                              [LOTUS_JA, LOTUS, HK])

    assert len(server.requests) == 1 and body["narrative_status"] == "answered"


def test_another_regions_cause_is_never_named(ask_server) -> None:  # type: ignore[no-untyped-def]
    # Hong Kong's "主要原因是…" is no reason Japan started a project: no passage about Japan states one.
    body, server = ask_server(WHY, lambda messages: "Project Lotus于2024年第四季度开始，2025年继续。[1]", [LOTUS_JA, HK])

    assert len(server.requests) == 1
