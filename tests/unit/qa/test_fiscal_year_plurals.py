""""FYs", the plural of a fiscal year, is a period word: never read as a company the domain does not know.

"What was the average EBITDA for both FYs?" over a table of two fiscal years is the average of the
row's two figures, as "for both years" is; before, "FYs" was asked back as an unknown company.
Through ``answer_question`` on a domain folder fresh from ``domain init`` and a statement's own rows.
"""

from __future__ import annotations

import pytest

from ragspine.domain.starter import init_domain
from ragspine.qa.answer import QAComponents, answer_question
from ragspine.qa.result import AnswerStatus
from tests.unit.qa.derived.statement_set import statement_fact, statement_qa_with_labels


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> QAComponents:
    folder = tmp_path_factory.mktemp("fys") / "domain"
    init_domain(folder)
    rows = {"underlying ebitda": (61.4, 70.2), "net finance costs": (12.5, 14.1)}
    return statement_qa_with_labels(folder, [
        statement_fact(f"label:{row}", year, value, unit="USD_M", source_locator=f"table=1,row={row},col={year}")
        for row, pair in rows.items() for year, value in zip(("2018", "2019"), pair, strict=True)])


@pytest.mark.parametrize("question", [
    "What was the average underlying EBITDA for both FYs?",
    "What was the average Underlying EBITDA in both FYs?",
])
def test_both_fys_are_the_tables_years(qa: QAComponents, question: str) -> None:
    result = answer_question(question, qa=qa)
    assert result.status is AnswerStatus.FOUND, result.answer
    assert "Could not recognise" not in result.answer
    assert "FY2018–FY2019 average: 65.8 USD_M" in result.answer, result.answer
    assert "row=underlying ebitda,col=2018" in result.answer and "row=underlying ebitda,col=2019" in result.answer


def test_a_capitalised_name_beside_it_is_still_asked_back(qa: QAComponents) -> None:
    result = answer_question("What was the average underlying EBITDA of Globex for both FYs?", qa=qa)
    assert "“Globex”" in result.answer and "65.8" not in result.answer, result.answer
