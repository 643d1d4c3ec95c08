"""``POST /v1/ask`` with the real ``OpenAICompatibleProvider`` against a local chat-completions server.

Models that invent figures (inside Chinese and Japanese sentences, in every surface form), that
comply (restating their passages' numbers in another form), that omit citations, and that time
out; narrative and composite questions in Chinese, Japanese and English.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import date

import pytest
from fastapi.testclient import TestClient

from ragspine.api.app import create_local_app
from ragspine.api.deps import services as services_dep
from ragspine.bootstrap import build_services
from ragspine.llm.openai_compat import OpenAICompatibleProvider
from ragspine.qa.answer import COMPOSITE_SEPARATOR
from ragspine.qa.provenance import check_provenance
from ragspine.settings import LLMProviderName, Settings
from tests.fakes import chat_models
from tests.fakes.narrative import StaticRetriever, evidence
from tests.support.chat_server import ChatServer, Model, chat_server
from tests.support.samples import load_sample_facts

PASSAGES = [
    evidence("2024财年香港营业收入下降7.4%，主要因为入境游客消费疲软，以及广东道三家门店关闭。"),
    evidence("FY2024 ACME_HK revenue fell 7.4% because inbound tourist spending weakened; visitors fell by "
             "12,000 a month.", doc="ACME_FY2024_Review.pptx", locator="slide=3"),
    evidence("香港では来店客が1,200人減少し、売上総利益率は0.5ポイント低下しました。", doc="ACME_JP_2025_Report.md",
             locator="heading=店舗と顧客,para=1"),
]
TEXTS = [p.text for p in PASSAGES]
NARRATIVE = {"zh": "广东道的门店为什么关闭？", "ja": "広東道の店舗はなぜ閉鎖されたのですか？",
             "en": "Why did the Canton Road stores close?"}
COMPOSITE = {"zh": "香港FY2024营收为什么下降？", "ja": "香港のFY2024の売上高はなぜ減少したのですか？",
             "en": "Why did Hong Kong revenue fall in FY2024?"}
QUESTIONS = [(kind, lang, q) for kind, group in (("narrative", NARRATIVE), ("composite", COMPOSITE))
             for lang, q in group.items()]
IDS = [f"{kind}-{lang}" for kind, lang, _ in QUESTIONS]
REJECTED = {"zh": "已被拒绝", "ja": "破棄しました", "en": "numbers the documents do not support"}


@pytest.fixture
def client_for(settings: Settings) -> Iterator[object]:
    servers: list[ChatServer] = []
    closers: list[Callable[[], None]] = []  # each built services' close

    def make(model: Model, *, timeout_s: float = 10.0) -> tuple[TestClient, ChatServer]:
        server = ChatServer(model)
        server.serve()
        servers.append(server)
        wired = settings.model_copy(update={"llm_provider": LLMProviderName.OPENAI, "openai_base_url": server.base_url,
                                            "openai_model": "local-test", "llm_timeout_s": timeout_s})
        services = build_services(wired)
        closers.append(services.close)
        assert isinstance(services.qa.llm, OpenAICompatibleProvider)
        load_sample_facts(services.facts)
        services = replace(services, qa=replace(services.qa, retriever=StaticRetriever(PASSAGES),
                                                clock=lambda: date(2026, 11, 30)))
        app = create_local_app()
        app.dependency_overrides[services_dep] = lambda: services
        return TestClient(app), server

    yield make
    for server in servers:
        server.close()
    for close in closers:
        close()


def ask(client: TestClient, question: str) -> dict[str, object]:
    response = client.post("/v1/ask", json={"question": question})
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


def narrative_part(body: dict[str, object]) -> str:
    answer = str(body["answer"])
    return answer.split(COMPOSITE_SEPARATOR, 1)[1] if body["route"] == "composite" else answer


@pytest.mark.parametrize(("kind", "lang", "question"), QUESTIONS, ids=IDS)
def test_an_inventing_model_is_replaced_by_the_quoted_passages(client_for, kind: str, lang: str,  # type: ignore[no-untyped-def]
                                                                question: str) -> None:
    client, server = client_for(chat_models.inventing)

    body = ask(client, question)

    assert (body["route"], body["narrative_status"]) == (kind, "provenance_rejected")
    assert body["narrative_detail"]["kind"] == "provenance_rejected" and body["narrative_detail"]["unsupported"]
    invented = chat_models.inventing(server.requests[-1])
    part = narrative_part(body)
    assert REJECTED[lang] in part and all(line not in part for line in invented.splitlines())
    assert all(text in part for text in TEXTS)  # the passages, quoted verbatim with their sources
    assert check_provenance(part, evidence_texts=TEXTS).ok


@pytest.mark.parametrize(("kind", "lang", "question"), QUESTIONS, ids=IDS)
def test_a_compliant_model_restating_numbers_in_another_form_is_accepted(client_for, kind: str, lang: str,  # type: ignore[no-untyped-def]
                                                                          question: str) -> None:
    client, server = client_for(chat_models.compliant)

    body = ask(client, question)

    reply = chat_models.compliant(server.requests[-1])
    part = narrative_part(body)
    assert (body["route"], body["narrative_status"]) == (kind, "answered")
    assert part.startswith(reply) and REJECTED[lang] not in part
    assert any(form in reply for form in ("百分之七点四", "7.4 percent", "１，２００", "3家", "一千二百", "twelve thousand"))
    if kind == "composite":
        assert "338 USD_M" in str(body["answer"])  # the structured part, from the fact table


@pytest.mark.parametrize(("kind", "lang", "question"), QUESTIONS[::2], ids=IDS[::2])
def test_a_model_that_cites_nothing_gets_the_passage_each_sentence_came_from(client_for, kind: str, lang: str,  # type: ignore[no-untyped-def]
                                                                             question: str) -> None:
    client, server = client_for(chat_models.uncited)

    body = ask(client, question)

    part = narrative_part(body)
    # one restated passage per sentence, in order: each gets its own passage's citation, no other
    sentences = [chat_models.uncited_sentence(p.text, lang, i) for i, p in enumerate(PASSAGES)]
    assert " ".join(sentences) == chat_models.uncited(server.requests[-1])
    assert part == " ".join(f"{s}（来源：{p.doc} {p.locator}）" for s, p in zip(sentences, PASSAGES, strict=True))
    assert body["narrative_status"] == "answered"


@pytest.mark.parametrize(("kind", "lang", "question"), QUESTIONS[1::2], ids=IDS[1::2])
def test_a_model_that_times_out_falls_back_to_quoting_the_passages(client_for, kind: str, lang: str,  # type: ignore[no-untyped-def]
                                                                    question: str) -> None:
    client, server = client_for(chat_models.sleeping(3.0), timeout_s=0.3)

    body = ask(client, question)

    part = narrative_part(body)
    assert server.requests and (body["route"], body["narrative_status"]) == (kind, "model_unavailable")
    detail = body["narrative_detail"]
    assert (detail["kind"], detail["reason"], detail["retryable"]) == ("model_timeout", "LLM_TIMEOUT", True)
    assert "RAGSPINE_OPENAI_TIMEOUT_S" in detail["hint"]  # the endpoint's own setting
    notice, quoted = part.split("\n", 1)
    assert "0.3 s" in notice  # the notice names the timeout, in the question's language
    assert quoted == "\n".join(f"- {p.text}（来源：{p.doc} {p.locator}）" for p in PASSAGES)


def test_the_server_is_a_real_loopback_chat_completions_endpoint() -> None:
    with chat_server(chat_models.compliant) as server:
        provider = OpenAICompatibleProvider(server.base_url, None, "local-test", timeout_s=5.0)
        from ragspine.llm.chat import Message
        from ragspine.llm.ports import Role
        reply = provider.complete([Message(Role.USER, "问题：为什么？\n\n参考资料：\n")])
    assert server.base_url.startswith("http://127.0.0.1:") and reply.text == "资料不足，无法回答。"
