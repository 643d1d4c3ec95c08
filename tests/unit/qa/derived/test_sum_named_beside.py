"""A sum formula metric named beside its own inputs written with "+": answered as that formula.

Another filing's reconciliation row "+ Depreciation and amortization" is no name the question's
"+ depreciation and amortization" uses: the sign adds, and the glossary's metric is read after it.

"operating income + depreciation and amortization (EBITDA)" names EBITDA and its two inputs: the
answer is EBITDA computed from both stated rows, each cited, never one input with the other missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.facts.model import Fact
from ragspine.qa.result import AnswerStatus
from tests.unit.qa.derived.statement_set import (
    DOC,
    answered,
    statement_fact,
    statement_facts,
    statement_qa,
    statement_qa_with_labels,
)


def with_depreciation() -> list[Fact]:
    return [*statement_facts(), statement_fact("DEPRECIATION", "2024", 50)]


@pytest.mark.parametrize("question", [
    "What was FY2024 operating income + depreciation and amortization (EBITDA)?",
    "What is the FY2024 unadjusted operating income + depreciation and amortization from the cash flow statement "
    "(unadjusted EBITDA)?",
])
def test_inputs_added_beside_the_formula_metric_answer_the_formula(folder: Path, question: str) -> None:
    result = answered(statement_qa(folder, with_depreciation()), question)
    assert result.status is AnswerStatus.FOUND, result.answer
    first = result.answer.splitlines()[0]
    assert "EBITDA (EBITDA): 200 EUR_M" in first, result.answer  # 150 operating income + 50 D&A
    assert {s["locator"] for s in result.sources if s["doc"] == DOC} >= {
        "table=1,row=OPERATING_INCOME,col=FY2024", "table=1,row=DEPRECIATION,col=FY2024"}


def test_a_sum_beside_another_formula_metric_is_not_read_as_it(folder: Path) -> None:
    result = answered(statement_qa(folder, with_depreciation()),
                      "What was FY2024 operating income + depreciation and amortization (free cash flow)?")
    assert "EBITDA" not in result.answer and "FREE_CASH_FLOW" not in result.answer.splitlines()[0], result.answer


def test_a_row_printed_with_a_plus_sign_is_not_read_for_the_added_metric(folder: Path) -> None:
    reconciliation = statement_fact("label:+ depreciation and amortization", "2024", 999,
                                    source_doc_id="Other_FY2024_Reconciliation.md")
    facts = [*with_depreciation(), reconciliation]
    result = answered(statement_qa_with_labels(folder, facts),
                      "What was FY2024 operating income + depreciation and amortization (EBITDA)?")
    assert "EBITDA (EBITDA): 200 EUR_M" in result.answer.splitlines()[0], result.answer
    assert "999" not in result.answer


def test_a_sum_defining_the_input_of_the_metric_asked_leaves_that_metric_asked(folder: Path) -> None:
    result = answered(statement_qa(folder, with_depreciation()), "What is the FY2024 EBITDA % margin, taking EBITDA "
                                                                  "as operating income + depreciation and amortization?")
    first = result.answer.splitlines()[0]
    assert "EBITDA_MARGIN" in first and "10" in first, result.answer  # (150 + 50) / 2000 revenue
