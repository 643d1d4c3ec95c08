"""A figure asked "as previously reported" is not answered with the restated figure the facts keep.

The facts hold one figure per period, the comparatives as a later report shows them: a question for
the version first published gets a line saying it is not kept apart, and no number. "As reported"
alone (the old-standard column of an adoption table) is still answered with the stated figure.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.qa.answer import answer_question
from ragspine.qa.result import AnswerResult, AnswerStatus
from tests.unit.qa.derived.statement_set import statement_facts, statement_qa

_EARLIER = st.sampled_from(["as previously reported", "as originally reported", "as first reported",
                            "before the restatement", "prior to restatement", "before its restatement",
                            "previously reported", "unrestated"])


def _ask(folder: Path, question: str) -> AnswerResult:
    return answer_question(question, qa=statement_qa(folder, statement_facts()))


@settings(max_examples=25, deadline=None)
@given(_EARLIER, st.sampled_from(["What was revenue {words} for FY2023?", "What was the {words} revenue in 2023?",
                                  "FY2023 revenue {words}?"]))
def test_the_earlier_version_is_refused_with_its_reason(folder: Path, words: str, template: str) -> None:
    result = _ask(folder, template.format(words=words))
    assert result.status is AnswerStatus.NOT_FOUND, result.answer
    assert "1800" not in result.answer and "before a restatement" in result.answer, result.answer


@pytest.mark.parametrize(("question", "said"), [
    ("2023年度の遡及修正前の売上高はいくらか", "遡及修正前"),
    ("2023年重述前的营业收入是多少", "重述前"),
])
def test_in_japanese_and_chinese(folder: Path, question: str, said: str) -> None:
    result = _ask(folder, question)
    assert result.status is AnswerStatus.NOT_FOUND and said in result.answer, result.answer
    assert "1800" not in result.answer


def test_as_reported_alone_is_the_stated_figure(folder: Path) -> None:
    result = _ask(folder, "What was revenue as reported for FY2023?")
    assert result.status is AnswerStatus.FOUND and "1800 EUR_M" in result.answer, result.answer
