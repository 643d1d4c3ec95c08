"""A stated margin at the precision the question asks: fewer decimals round the stated figure, more decimals give the
computed figure with its inputs and say the stated one beside it."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.model import Fact
from tests.unit.qa.derived.statement_set import answered, statement_fact, statement_facts, statement_qa

_WHOLE = ("What was the operating margin in FY2024 to the nearest whole number?",
          "What was the operating margin in FY2024, rounded to the nearest integer?")
_TWO = ("What was the operating margin in FY2024 to two decimal places?",
        "What was the operating margin in FY2024, rounded to 2 decimal places?")


def _facts(income: Decimal, stated: str, revenue: bool = True) -> list[Fact]:
    """Revenue 2,000 and ``income``, with a stated operating margin written ``stated`` (one decimal)."""
    facts = statement_facts(OPERATING_INCOME=statement_fact("OPERATING_INCOME", "2024", float(income)),
                            OPERATING_MARGIN=statement_fact("OPERATING_MARGIN", "2024", float(stated), unit="PCT"))
    return [f for f in facts if revenue or f.metric_code != "REVENUE"]


def _margin(income: Decimal, places: int) -> str:
    return str((income / 2000 * 100).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


@settings(max_examples=12, deadline=None)
@given(income=st.decimals("100.0", "300.0", places=1), question=st.sampled_from(_WHOLE))
def test_the_nearest_whole_number_rounds_the_stated_figure(folder: Path, income: Decimal, question: str) -> None:
    # GIVEN a stated one-decimal margin, as a results summary writes it, agreeing with the statement's figures
    stated = _margin(income, 1)
    answer = answered(statement_qa(folder, _facts(income, stated)), question).answer
    # THEN the answer is the stated figure to the nearest whole number (half-way: as the computed figure rounds)
    assert f"operating margin (OPERATING_MARGIN): {_margin(income, 0)} PCT (the stated {stated} PCT" in answer
    assert answer.splitlines()[0].endswith("）")  # the stated figure's own citation


@settings(max_examples=8, deadline=None)
@given(income=st.decimals("100.0", "300.0", places=1), question=st.sampled_from(_TWO))
def test_more_decimals_than_stated_give_the_computed_figure_beside_the_stated_one(folder: Path, income: Decimal,
                                                                                 question: str) -> None:
    stated = _margin(income, 1)
    answer = answered(statement_qa(folder, _facts(income, stated)), question).answer
    # THEN the computed figure to two decimals leads, with its inputs, and the stated figure is said beside it
    first = answer.splitlines()[0]
    assert f"operating margin (OPERATING_MARGIN): {_margin(income, 2)} PCT (computed as" in first
    assert f"operating income (OPERATING_INCOME) {income}" in first
    assert f"The documents state {stated} PCT, to fewer decimals than asked" in answer


def test_more_decimals_than_stated_with_nothing_to_compute_keep_the_stated_figure(folder: Path) -> None:
    # GIVEN a stated margin and no revenue to compute it from
    answer = answered(statement_qa(folder, _facts(Decimal("198.6"), "9.9", revenue=False)), _TWO[0]).answer
    # THEN the stated figure answers, and the answer says it has fewer decimals than asked
    assert "operating margin (OPERATING_MARGIN): 9.9 PCT" in answer
    assert "The stated figure has fewer decimals than asked" in answer


def test_the_precision_the_stated_figure_has_changes_nothing(folder: Path) -> None:
    answer = answered(statement_qa(folder, _facts(Decimal("198.6"), "9.9")),
                      "What was the operating margin in FY2024 to one decimal place?").answer
    assert "operating margin (OPERATING_MARGIN): 9.9 PCT（" in answer and "rounded" not in answer


def test_japanese_two_decimals_give_the_computed_figure(folder: Path) -> None:
    answer = answered(statement_qa(folder, _facts(Decimal("198.6"), "9.9")),
                      "2024年度の営業利益率を小数点以下第2位まで求めよ").answer
    assert "9.93 PCT" in answer.splitlines()[0] and "公表値は 9.9 PCT" in answer
