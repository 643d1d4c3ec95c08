"""A figure computed from its formula is an operand of the question's own arithmetic, cited by its inputs.

"The difference in operating margin between North and South", "the average operating margin of
North and South", "the ratio of total liabilities to EBITDA": the margins and EBITDA are computed
from stated figures, and the gap, mean or ratio asked is then computed from them as shown, every
stated figure behind them cited, instead of "there is no figure for … operating margin".
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.model import Fact
from ragspine.qa.result import AnswerStatus
from tests.unit.qa.derived.statement_set import DOC, answered, statement_fact, statement_facts, statement_qa

TWO = Decimal("0.01")


def region_facts(north: tuple[int, int], south: tuple[int, int]) -> list[Fact]:
    """FY2024 revenue and operating income of the two regions (no margin stated)."""
    return [statement_fact(metric, "2024", value, entity=entity, source_locator=f"table=2,row={entity}/{metric}")
            for entity, (revenue, income) in (("EXAMPLE_NORTH", north), ("EXAMPLE_SOUTH", south))
            for metric, value in (("REVENUE", revenue), ("OPERATING_INCOME", income))]


def margin(revenue: int, income: int) -> Decimal:
    return (Decimal(income) / Decimal(revenue) * 100).quantize(TWO, rounding=ROUND_HALF_UP)


def test_the_gap_of_two_entities_computed_margins(folder: Path) -> None:
    result = answered(statement_qa(folder, region_facts((400, 40), (200, 30))),
                      "What was the difference in operating margin between North and South in FY2024?")
    first = result.answer.splitlines()[0]
    assert "North (EXAMPLE_NORTH) is 5.00 points below South (EXAMPLE_SOUTH)" in first, result.answer
    assert all(f"{DOC} · table=2,row={e}/{m}" in first for e in ("EXAMPLE_NORTH", "EXAMPLE_SOUTH")
               for m in ("REVENUE", "OPERATING_INCOME")), first
    assert "cannot be computed" not in result.answer and result.status is AnswerStatus.FOUND


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=100, max_value=90_000), st.integers(min_value=1, max_value=99),
       st.integers(min_value=100, max_value=90_000), st.integers(min_value=1, max_value=99))
def test_the_mean_of_computed_margins_is_the_mean_of_the_margins_shown(folder: Path, north: int, north_pct: int,
                                                                       south: int, south_pct: int) -> None:
    facts = region_facts((north, north * north_pct // 100), (south, south * south_pct // 100))
    result = answered(statement_qa(folder, facts), "What was the average operating margin of North and South in "
                                                   "FY2024?")
    match = re.search(r"FY2024 average: (-?[\d.]+) PCT \(mean of 2 figures\)", result.answer)
    assert match is not None, result.answer
    margins = [margin(north, north * north_pct // 100), margin(south, south * south_pct // 100)]
    assert Decimal(match.group(1)) == (sum(margins, Decimal(0)) / 2).quantize(TWO, rounding=ROUND_HALF_UP)


def test_a_computed_figure_divides_a_stated_one(folder: Path) -> None:
    facts = [*statement_facts(), statement_fact("DEPRECIATION", "2024", 50)]
    result = answered(statement_qa(folder, facts), "What was the ratio of total liabilities to EBITDA in FY2024?")
    first = result.answer.splitlines()[0]
    # 1250 / (150 + 50)
    assert "ratio of total liabilities (TOTAL_LIABILITIES) to EBITDA (EBITDA): 6.25" in first, result.answer
    for row in ("TOTAL_LIABILITIES", "OPERATING_INCOME", "DEPRECIATION"):
        assert f"{DOC} · table=1,row={row},col=FY2024" in first


def test_a_missing_input_of_the_computed_figure_still_gives_no_number(folder: Path) -> None:
    result = answered(statement_qa(folder, statement_facts()), "What was the ratio of total liabilities to EBITDA in "
                                                               "FY2024?")
    assert "cannot be computed" in result.answer.splitlines()[0], result.answer
    assert "6.25" not in result.answer


def test_the_growth_of_a_computed_figure_runs_from_the_year_before(folder: Path) -> None:
    facts = [*statement_facts(), statement_fact("DEPRECIATION", "2024", 50), statement_fact("DEPRECIATION", "2023", 44)]
    result = answered(statement_qa(folder, facts), "What was the growth in EBITDA in FY2024?")
    # (150 + 50) against (126 + 44): both years computed, then their change
    assert "EBITDA (EBITDA): FY2024 vs FY2023 up 30" in result.answer, result.answer
    assert "FY2023 EBITDA (EBITDA): 170 EUR_M" in result.answer, result.answer
