"""The LLM fakes behave as the anti-fabrication and canary tests rely on."""

from __future__ import annotations

import re

import pytest

from ragspine.llm.chat import Message
from ragspine.llm.errors import LLMUnavailableError
from ragspine.llm.extractive import NO_EVIDENCE, build_user_message
from ragspine.llm.ports import LLMProvider, Role
from tests.fakes.llm_providers import AdversarialProvider, FailingProvider, RecordingProvider

PROMPT = [Message(Role.SYSTEM, "cite"), Message(Role.USER, build_user_message(
    "香港收入为什么下降？", [("2024财年香港收入下降7.4%，37.5万人次。", "ACME_FY2024_MDA.docx", "heading=香港")]))]


def as_port(provider: LLMProvider) -> LLMProvider:
    return provider


class TestRecordingProvider:
    def test_scripted_replies_come_in_order_and_the_last_repeats(self) -> None:
        provider = as_port(RecordingProvider("first", "second"))

        assert [provider.complete(PROMPT).text for _ in range(3)] == ["first", "second", "second"]

    def test_every_call_is_recorded_with_its_options(self) -> None:
        provider = RecordingProvider("ok")

        provider.complete(PROMPT, max_tokens=99, temperature=0.3)

        assert [(c.messages, c.max_tokens, c.temperature) for c in provider.calls] == [(tuple(PROMPT), 99, 0.3)]
        assert "香港收入下降7.4%" in provider.sent_text()

    def test_without_a_script_it_answers_like_the_extractive_provider(self) -> None:
        provider = RecordingProvider()

        assert "（来源：ACME_FY2024_MDA.docx heading=香港）" in provider.complete(PROMPT).text
        assert provider.complete([Message(Role.USER, "退货政策")]).text == NO_EVIDENCE["zh"]


class TestAdversarialProvider:
    def test_it_states_numbers_absent_from_the_prompt_and_cites_nothing(self) -> None:
        provider = as_port(AdversarialProvider())

        text = provider.complete(PROMPT).text

        prompt = "\n".join(m.content for m in PROMPT)
        numbers = set(re.findall(r"\d+(?:\.\d+)?", text))
        assert numbers and all(n not in prompt for n in numbers)
        assert "来源" not in text

    def test_it_falls_back_to_a_number_longer_than_any_in_the_prompt(self) -> None:
        crowded = " ".join(AdversarialProvider.CANDIDATES)
        provider = AdversarialProvider()

        provider.complete([Message(Role.USER, crowded)])

        assert provider.invented == ("99999", "999999")


class TestFailingProvider:
    def test_it_raises_the_given_error_and_records_the_call(self) -> None:
        error = LLMUnavailableError("down", provider="failing")
        provider = FailingProvider(error)

        with pytest.raises(LLMUnavailableError) as caught:
            as_port(provider).complete(PROMPT)

        assert caught.value is error and len(provider.calls) == 1
