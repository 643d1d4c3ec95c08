"""A half year of a figure over a period is the sum of its two fiscal quarters, cited; of a balance, asked back."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.qa.answer import answer_question
from ragspine.qa.result import AnswerResult, AnswerStatus
from tests.unit.qa.derived.statement_set import DOC, statement_fact, statement_facts, statement_qa

QUARTERS = {1: 450, 2: 520, 3: 500, 4: 530}


def _ask(folder: Path, question: str) -> AnswerResult:
    quarters = [statement_fact("REVENUE", f"2024Q{n}", value, period_type="Q",
                               source_locator=f"table=3,row=REVENUE,col=Q{n}") for n, value in QUARTERS.items()]
    return answer_question(question, qa=statement_qa(folder, [*statement_facts(), *quarters]))


@pytest.mark.parametrize(("question", "line"), [
    ("What was revenue in H1 2024?", "revenue (REVENUE) 2024Q1 + 2024Q2: 970 EUR_M（计算自："),
    ("2024年上半年营业收入是多少", "营业收入（REVENUE） 2024Q1 + 2024Q2：970 EUR_M（计算自："),
    ("2024年度下期の売上高は", "売上高（REVENUE） 2024Q3 + 2024Q4：1030 EUR_M（计算自："),
])
def test_a_half_year_is_its_two_quarters_added_up_each_cited(folder: Path, question: str, line: str) -> None:
    result = _ask(folder, question)
    assert line in result.answer.splitlines()[0], result.answer
    assert result.answer.count(f"{DOC} · table=3,row=REVENUE,col=Q") >= 4  # the sum's citation and each quarter's


def test_the_reading_and_its_months_are_said(folder: Path) -> None:
    answer = _ask(folder, "What was revenue in H1 2024?").answer
    assert "read 'H1 2024' as 2024Q1 (2024-01 – 2024-03); read 'H1 2024' as 2024Q2 (2024-04 – 2024-06)" in answer


def test_a_half_year_with_a_quarter_missing_gives_no_sum(folder: Path) -> None:
    answer = _ask(folder, "What was revenue in H1 2023?").answer
    assert "cannot be computed" in answer and "EUR_M（计算自" not in answer, answer


def test_a_half_year_of_a_balance_is_asked_back(folder: Path) -> None:
    result = _ask(folder, "2024年上半年的总资产是多少")
    assert "2024年上半年" in result.answer and "2500" not in result.answer, result.answer


_HALF_NAMES = st.sampled_from([("first half of", 1), ("second half of", 2), ("H1", 1), ("H2", 2), ("H1 of", 1)])
_YEAR_NAMES = st.sampled_from(["fiscal 2024", "fiscal year 2024", "the fiscal year 2024", "FY2024", "FY 2024", "2024"])


@settings(max_examples=30, deadline=None)
@given(_HALF_NAMES, _YEAR_NAMES, st.sampled_from(["What was revenue in the {half}?", "Revenue for the {half}?"]))
def test_a_half_of_a_year_written_any_way_is_never_the_year(folder: Path, half: tuple[str, int], year: str,
                                                           template: str) -> None:
    words, which = half
    answer = _ask(folder, template.format(half=f"{words} {year}")).answer
    total = 970 if which == 1 else 1030
    first = answer.splitlines()[0]
    assert f"2024Q{2 * which - 1} + 2024Q{2 * which}: {total} EUR_M（计算自：" in first, answer
    assert "FY2024 revenue" not in first and ": 2000 EUR_M" not in answer, answer


@pytest.mark.parametrize("question", ["What was revenue in the first half?", "What was H2 revenue?"])
def test_a_half_with_no_year_read_is_asked_back_not_answered_with_a_year(folder: Path, question: str) -> None:
    result = _ask(folder, question)
    assert result.status is AnswerStatus.UNRECOGNIZED_PARAM, result.answer
    assert "2000" not in result.answer and "period" in result.answer, result.answer
