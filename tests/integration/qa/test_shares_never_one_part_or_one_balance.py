"""A share of a named sum divides the whole sum; a ratio of two balances no date picks is asked back.

"The proportion of the sum of A and B to total net sales" divides A + B by the total, citing every
cell, whichever word joins the sum to its whole ("to", "over", "as a proportion of", "divided by"):
never B alone over the total, which "B to total net sales" read as a ratio of its own would give.

A roll-forward states each row at the beginning and at the end of the period. A question naming no
date ("the ratio of current deferred revenue to non-current deferred revenue") names neither balance:
it is asked back, never answered from the column whose heading takes the fewest words.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.domain_env import ingested_for_module, service_answer

SEGMENT_SALES = """\
# Orchard Provisions annual report

Segment net sales for the fiscal year 2024 ($ in millions):

| | 2024 | 2023 |
| --- | --- | --- |
| Bakery | 1,200.0 | 1,100.0 |
| Dairy & Frozen | 800.0 | 700.0 |
| Beverages | 500.0 | 450.0 |
| Total net sales | 2,500.0 | 2,250.0 |
"""

DEFERRED_REVENUE = """\
# Kestrel Software annual report

Deferred revenue for the year ended December 31, 2024 (in thousands of US dollars):

| | Balance at beginning | Increase/(Decrease) | Balance at end of period |
| --- | --- | --- | --- |
| Deferred revenue (current) | 2,600 | (400) | 2,200 |
| Deferred revenue (non-current) | 1,900 | (150) | 1,750 |
"""


@pytest.fixture(scope="module")
def segment_sales(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "named_sum_shares", {"orchard.md": SEGMENT_SALES})


@pytest.fixture(scope="module")
def deferred_revenue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "undated_balances", {"kestrel.md": DEFERRED_REVENUE})


_SUM_FORMS = [
    "What is the proportion of the sum of Bakery and Beverages to total net sales in 2024?",
    "What is the proportion of the sum of Bakery and Beverages over total net sales in 2024?",
    "What is the sum of Bakery and Beverages as a proportion of total net sales in 2024?",
    "What is the sum of Bakery and Beverages divided by total net sales in 2024?",
]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_SUM_FORMS))
def test_a_named_sum_is_divided_whole(segment_sales: None, question: str) -> None:
    # GIVEN rows of segment net sales and their total
    # WHEN the sum of two segments over the total is asked, joined by any dividing word
    answer, _ = service_answer(question)
    first = answer.splitlines()[0]
    # THEN the two parts' sum is divided by the total, every cell cited; never one part over the total
    assert ": 0.68" in first, answer  # (1,200 + 500) / 2,500
    for row in ("Bakery", "Beverages", "Total net sales"):
        assert f"table=1,row={row},col=2024" in first, first
    assert "0.20" not in answer and "20.00%" not in answer, answer  # 500 / 2,500


_BALANCE_RATIO_FORMS = [
    "What is the ratio of current deferred revenue to non-current deferred revenue?",
    "What is the ratio of current deferred revenue over non-current deferred revenue?",
    "What is current deferred revenue as a proportion of non-current deferred revenue?",
    "What is current deferred revenue divided by non-current deferred revenue?",
]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_BALANCE_RATIO_FORMS))
def test_an_undated_ratio_of_balances_is_asked_back(deferred_revenue: None, question: str) -> None:
    # GIVEN a roll-forward with a balance at the beginning and one at the end of the period
    # WHEN a ratio of two rows is asked with no date
    answer, _ = service_answer(question)
    # THEN which balance is asked back: no figure of either column is given as the answer
    assert "Which did you mean" in answer, answer
    assert "balance at beginning" in answer and "balance at end of period" in answer, answer
    for figure in ("1.37", "1.26", "2600", "1900", "2200", "1750"):  # either column's ratio or cells
        assert figure not in answer, answer


def test_a_dated_ratio_of_balances_reads_that_date(deferred_revenue: None) -> None:
    answer, _ = service_answer("What is the ratio of current deferred revenue to non-current deferred revenue "
                               "at the end of the period?")
    first = answer.splitlines()[0]
    assert ": 1.26" in first, answer  # 2,200 / 1,750
    assert "row=Deferred revenue (current),col=Balance at end of period" in first, first
    assert "row=Deferred revenue (non-current),col=Balance at end of period" in first, first


def test_an_undated_balance_of_one_row_is_asked_back(deferred_revenue: None) -> None:
    answer, _ = service_answer("What was current deferred revenue?")
    assert "Which did you mean" in answer, answer
    assert "2600" not in answer and "2200" not in answer, answer
