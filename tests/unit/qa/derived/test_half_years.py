"""A half year of a figure over a period is the sum of its two fiscal quarters, cited; of a balance, asked back."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.qa.answer import answer_question
from ragspine.qa.result import AnswerResult
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
