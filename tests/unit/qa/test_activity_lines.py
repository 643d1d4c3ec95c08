""""Cash used in investing activities" asks the cash flow line, never the cash balance the word "cash" names."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.qa.answer import answer_question
from tests.unit.qa.derived.statement_set import finance_domain, statement_fact, statement_facts, statement_qa


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return finance_domain(tmp_path_factory.mktemp("finance") / "domain")


def _ask(folder: Path, question: str) -> str:
    facts = [*statement_facts(), statement_fact("CASH", "2024", 400), statement_fact("INVESTING_CASH_FLOW", "2024", -310)]
    return answer_question(question, qa=statement_qa(folder, facts)).answer


@pytest.mark.parametrize("question", [
    "What was the cash used in investing activities in FY2024?",
    "How much cash was used in investing activities in 2024?",
    "What were the cash flows used in the investing activities in FY2024?",
])
def test_cash_named_inside_a_cash_flow_line_is_that_line(folder: Path, question: str) -> None:
    answer = _ask(folder, question)
    assert "cash flow from investing activities (INVESTING_CASH_FLOW): -310 EUR_M（来源：" in answer, answer
    assert "400" not in answer


def test_cash_on_its_own_is_still_the_balance(folder: Path) -> None:
    assert "cash and cash equivalents (CASH): 400 EUR_M（来源：" in _ask(folder, "What was cash at the end of FY2024?")


def test_a_line_of_an_activity_no_metric_names_is_never_the_balance(folder: Path) -> None:
    answer = _ask(folder, "How much cash was provided by hedging activities in FY2024?")
    assert "400" not in answer, answer
