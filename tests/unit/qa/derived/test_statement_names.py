"""The names of a filing's statements are where to look, never a figure asked."""

from __future__ import annotations

import pytest

from ragspine.qa.statement_names import without_statement_names


@pytest.mark.parametrize("question", [
    "What is the FY2021 EBITDA from the cash flow statement?",
    "Answer from the statement of cash flows and the income statement.",
    "Use the balance sheet and the P&L statement.",
    "Based on the consolidated statements of operations",
])
def test_statement_names_are_blanked_in_place(question: str) -> None:
    blanked = without_statement_names(question)
    assert len(blanked) == len(question)
    for word in ("cash", "income", "balance", "P&L", "operations"):
        assert word not in blanked


def test_figures_named_outside_a_statement_name_stay() -> None:
    question = "What was cash and operating income in FY2024?"
    assert without_statement_names(question) == question
