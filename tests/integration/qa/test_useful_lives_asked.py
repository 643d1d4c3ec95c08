"""A question naming one column of a table whose rows carry several kinds of figure (a useful life in years beside
a fair value), through ``ragspine ingest`` and ``answer_question`` / ``POST /v1/ask``: a useful life is never
answered with the row's fair value; where only the fair value was read, the question is asked back with it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.bootstrap import get_services
from ragspine.qa.kind_phrases import kinds_named
from ragspine.qa.result import AnswerStatus
from tests.support.ask import WAYS, asker
from tests.support.domain_env import ingested_for_module, service_answer

# the intangible assets an acquisition brought: each row's useful life (years) beside its fair value
ACQUIRED_INTANGIBLES = """\
# Intangible assets acquired

The intangible assets acquired were as follows (in millions):

| | Weighted-Average Useful Lives (in years) | Fair Value Amount |
| --- | --- | --- |
| Developed software | 3.5 | $148 |
| Brand names | 6.0 | 37 |
| Total intangible assets | | $185 |
"""

FAIR_VALUES = ("37", "148", "185")


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "useful_lives", {"intangibles.md": ACQUIRED_INTANGIBLES})


@pytest.fixture(params=WAYS)
def ask(asked: None, request: pytest.FixtureRequest) -> Any:
    return asker(request.param, get_services())


def _figures(answer: str) -> set[str]:
    return {figure for figure in FAIR_VALUES if figure in answer.replace(",", "")}


def test_a_useful_life_is_never_answered_with_the_fair_value(ask: Any) -> None:
    body = ask("What was the weighted-average useful lives of brand names?")

    assert not _figures(body["answer"]), body["answer"]
    assert body["clarification"] is not None, body  # asked back with the kind the documents give
    question = body["clarification"]["question"]
    assert "fair value" in question and "useful life" in question, question
    assert [o["question"] for o in body["clarification"]["options"]] == ["what was the fair value of brand names?"]


def test_the_fair_value_column_is_still_answered(ask: Any) -> None:
    body = ask("What was the fair value of brand names?")

    assert body["status"] == AnswerStatus.FOUND.value and "37" in body["answer"], body["answer"]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=st.sampled_from([
    "What was the useful life of brand names?",
    "What is the weighted average useful life of the developed software?",
    "How long is the useful life of developed software in years?",
    "What were the useful lives of brand names?",
    "品牌名称的使用寿命是多少？",
    "Brand namesの耐用年数は何年ですか？",
]))
def test_other_wordings_of_a_useful_life_never_get_the_fair_value(asked: None, question: str) -> None:
    answer, status = service_answer(question)

    assert status is not AnswerStatus.FOUND or not _figures(answer), answer
    assert kinds_named(question) == {"useful life"}
