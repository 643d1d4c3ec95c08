"""RESTRICTED content never reaches a model prompt or an answer: two independent exits, each
proven alone, and a canary run over many questions (seed 000)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ragspine.llm.chat import Message
from ragspine.qa import narrative
from ragspine.qa.answer import answer_question
from ragspine.qa.evidence import Evidence
from ragspine.qa.prompt import RestrictedEvidenceError, assemble_prompt
from ragspine.retrieval.narrative_adapter import HybridNarrativeRetriever
from ragspine.retrieval.pipeline import HybridRetriever
from ragspine.sensitivity import Sensitivity
from tests.fakes.chunks import InMemoryChunkIndex
from tests.fakes.facts import InMemoryFactStore
from tests.fakes.llm_providers import RecordingProvider
from tests.fakes.narrative import StaticRetriever
from tests.fakes.qa import make_qa
from tests.integration.qa.corpus_chunks import corpus_chunks

# Phrases only the RESTRICTED board minutes contain (checked below); no question uses them, so
# finding one in a prompt or an answer can only mean RESTRICTED content leaked.
CANARIES = ("Hikari", "420", "due diligence", "price-sensitive", "deal team", "Company Secretary",
            "integration risks")
QUESTIONS = [
    "What is Project Falcon?", "Tell me about the proposed acquisition discussed by the board",
    "董事会讨论了什么收购？", "2025年第四季度董事会会议纪要说了什么？", "取締役会では何が議論されましたか？",
    "Which retailer does ACME plan to acquire, and for how much?", "ACME收购计划的金额是多少？",
    "What did the board minutes for 2025Q4 say about Project Falcon?", "Project Falconの買収額は？",
    "为什么2024年香港营收下降？", "Why did Japan's gross margin fall in FY2024?", "What is Project Lotus?",
    "How long do I have to return an item?", "What membership tiers does ACME offer?", "ACME的会员有哪些等级？",
    "日本の2025年の値上げについて教えてください", "What happened to the stores on Canton Road?",
    "为什么中国内地营收增长？", "What was discussed in the confidential minutes?", "ACME的战略收购目标是谁？",
]


def test_canaries_exist_only_in_restricted_content() -> None:
    chunks = corpus_chunks()
    restricted = " ".join(c.text for c in chunks if c.sensitivity is Sensitivity.RESTRICTED)
    others = " ".join(c.text for c in chunks if c.sensitivity is not Sensitivity.RESTRICTED)
    assert all(c in restricted and c not in others for c in CANARIES)
    assert not any(c in q for c in CANARIES for q in QUESTIONS)


def retriever_over_corpus() -> HybridNarrativeRetriever:
    chunks = corpus_chunks()
    return HybridNarrativeRetriever(HybridRetriever(InMemoryChunkIndex(chunks)))


def run(questions: Sequence[str], retriever, llm: RecordingProvider) -> list[str]:
    qa = make_qa(InMemoryFactStore(), retriever=retriever, llm=llm)
    return [answer_question(q, qa=qa).answer for q in questions]


def assert_no_canary(texts: Sequence[str]) -> None:
    for text in texts:
        for canary in CANARIES:
            assert canary not in text, f"RESTRICTED canary {canary!r} leaked: {text[:200]}"


def test_canary_never_reaches_a_prompt_or_an_answer() -> None:
    llm = RecordingProvider()  # behaves like the extractive provider, and records every prompt
    answers = run(QUESTIONS, retriever_over_corpus(), llm)
    assert llm.calls, "the run must exercise generation, or it proves nothing"
    assert_no_canary([llm.sent_text(), *answers])


def test_exit_one_alone_the_index_filter_holds_with_the_prompt_guard_disabled(monkeypatch) -> None:
    monkeypatch.setattr(narrative, "assemble_prompt",
                        lambda q, ev, *, history=(), **_: _unchecked(q, ev, history))
    llm = RecordingProvider()
    answers = run(QUESTIONS, retriever_over_corpus(), llm)
    assert llm.calls
    assert_no_canary([llm.sent_text(), *answers])


def test_exit_two_alone_the_prompt_guard_holds_when_retrieval_leaks() -> None:
    leaking = leaking_retriever()
    llm = RecordingProvider()
    answers = run(["What did the board discuss about Project Falcon?", "为什么2024年香港营收下降？"], leaking, llm)
    assert_no_canary([llm.sent_text(), *answers])


def test_the_guard_refuses_to_build_a_prompt_with_a_restricted_item() -> None:
    restricted = next(_evidence(c) for c in corpus_chunks() if c.sensitivity is Sensitivity.RESTRICTED)
    with pytest.raises(RestrictedEvidenceError):
        assemble_prompt("q", [restricted])


def test_the_disabled_guard_really_would_leak(monkeypatch) -> None:
    # Proves the exit-one test above can fail: without the index filter AND without the guard,
    # the canary does reach the prompt.
    monkeypatch.setattr(narrative, "assemble_prompt",
                        lambda q, ev, *, history=(), **_: _unchecked(q, ev, history))
    leaking = leaking_retriever()
    llm = RecordingProvider()
    run(["What did the board discuss about Project Falcon?"], leaking, llm)
    assert "Hikari" in llm.sent_text()


def leaking_retriever() -> StaticRetriever:
    """A retriever whose index filter is broken: the RESTRICTED minutes come back first."""
    chunks = sorted(corpus_chunks(), key=lambda c: (c.sensitivity is not Sensitivity.RESTRICTED, "Hikari" not in c.text))
    return StaticRetriever([_evidence(c) for c in chunks], honour_ceiling=False)


def _unchecked(question: str, evidence: Sequence[Evidence], history: Sequence[Message]) -> list[Message]:
    from ragspine.llm.extractive import build_user_message
    from ragspine.llm.ports import Role
    from ragspine.qa.prompt import SYSTEM_PROMPT

    user = build_user_message(question, [(e.text, e.doc, e.locator) for e in evidence])
    return [Message(Role.SYSTEM, SYSTEM_PROMPT), *history, Message(Role.USER, user)]


def _evidence(chunk) -> Evidence:  # type: ignore[no-untyped-def]
    return Evidence(chunk_id=chunk.chunk_id, doc=chunk.doc_id, locator=chunk.source_locator, text=chunk.text,
                    sensitivity=chunk.sensitivity, library=chunk.library)
