"""A ratio named "A to B" ("net debt to EBITDA", as analysts name leverage) is computed, not asked back as one phrase."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.qa.answer import QAComponents
from tests.unit.qa.derived.statement_set import answered, statement_fact, statement_facts, statement_qa


def _qa(folder: Path, debt: int) -> QAComponents:
    # operating income 150 + depreciation 50: EBITDA 200, computed by the pack's formula
    return statement_qa(folder, statement_facts(
        INTEREST_BEARING_DEBT=statement_fact("INTEREST_BEARING_DEBT", "2024", debt),
        DEPRECIATION=statement_fact("DEPRECIATION", "2024", 50)))


@settings(max_examples=8, deadline=None)
@given(debt=st.integers(10, 5000), name=st.sampled_from(["total debt", "interest-bearing debt", "borrowings"]),
       lead=st.sampled_from(["What was", "What is the company's"]))
def test_debt_to_ebitda_is_a_ratio(folder: Path, debt: int, name: str, lead: str) -> None:
    answer = answered(_qa(folder, debt), f"{lead} {name} to EBITDA in FY2024?").answer
    # THEN the ratio leads, computed over the EBITDA the pack's formula gives, every input cited
    first = answer.splitlines()[0]
    assert f"ratio of interest-bearing debt (INTEREST_BEARING_DEBT) to EBITDA (EBITDA): {_ratio(debt)}" in first
    assert "row=DEPRECIATION" in first and "Which did you mean" not in answer


def _ratio(debt: int) -> Decimal:
    return (Decimal(debt) / 200).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def test_from_one_figure_to_another_is_no_ratio(folder: Path) -> None:
    answer = answered(_qa(folder, 500), "How did it move from revenue to operating income in FY2024?").answer
    assert "ratio of" not in answer
