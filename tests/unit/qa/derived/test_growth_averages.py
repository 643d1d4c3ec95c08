"""An average of growth rates is a mean of rates, never the mean of the amounts they run between.

"What was the average revenue growth of North and South in FY2024?" asks for each region's growth
from FY2023 to FY2024 and their mean; "the average annual revenue growth from 2021 to 2024" for the
mean of each year's growth. Each is asked through ``answer_question``: the computed line names every
rate it averages and cites every figure, and a missing year before gives no number at all.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.model import Fact
from ragspine.qa.answer import answer_question
from ragspine.qa.result import AnswerResult, AnswerStatus
from tests.unit.qa.derived.statement_set import DOC, answered, statement_fact, statement_qa

AVERAGE_GROWTH = re.compile(r"average growth: (-?[\d.]+)%")


def region_facts(north: tuple[float, float], south: tuple[float, float]) -> list[Fact]:
    """FY2023 and FY2024 revenue of the two regions, each cell at its own row and column."""
    return [statement_fact("REVENUE", year, value, entity=entity, source_locator=f"table=2,row={entity},col=FY{year}")
            for entity, values in (("EXAMPLE_NORTH", north), ("EXAMPLE_SOUTH", south))
            for year, value in zip(("2023", "2024"), values, strict=True)]


def growth_line(result: AnswerResult) -> str:
    lines = [line for line in result.answer.splitlines() if "average growth" in line]
    assert len(lines) == 1, result.answer
    return lines[0]


@pytest.mark.parametrize("question", [
    "What was the average revenue growth of North and South in FY2024?",
    "What was the average growth in revenue of North and South in FY2024?",
    "What was the mean revenue growth rate of North and South in FY2024?",
])
def test_the_mean_of_each_entitys_growth_rate_is_answered(folder: Path, question: str) -> None:
    result = answered(statement_qa(folder, region_facts((400, 440), (200, 230))), question)
    line = growth_line(result)
    assert "average growth: 12.50% (mean of 2 growth rates: North (EXAMPLE_NORTH) +10.00%, South (EXAMPLE_SOUTH) " \
           "+15.00%)" in line, line
    for entity in ("EXAMPLE_NORTH", "EXAMPLE_SOUTH"):
        for year in ("2023", "2024"):
            assert f"{DOC} · table=2,row={entity},col=FY{year}" in line
    assert "average: 317.5" not in result.answer and "(mean of 2 figures)" not in result.answer, result.answer


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=90_000), min_size=4, max_size=4))
def test_the_figure_is_the_mean_of_the_rates(folder: Path, values: list[int]) -> None:
    north, south = (values[0], values[1]), (values[2], values[3])
    result = answered(statement_qa(folder, region_facts(north, south)),
                      "What was the average revenue growth of North and South in FY2024?")
    match = AVERAGE_GROWTH.search(growth_line(result))
    assert match is not None
    rates = [(Decimal(b) - Decimal(a)) / Decimal(a) * 100 for a, b in (north, south)]
    expected = (sum(rates, Decimal(0)) / 2).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    assert Decimal(match.group(1)) == expected


def test_one_entitys_average_annual_growth_is_the_mean_of_its_years(folder: Path) -> None:
    facts = [statement_fact("REVENUE", year, value)
             for year, value in (("2021", 1500), ("2022", 1650), ("2023", 1800), ("2024", 2000))]
    line = growth_line(answered(statement_qa(folder, facts),
                                "What was the average annual revenue growth from 2021 to 2024?"))
    # 10.00%, 9.09% and 11.11%: their mean, not the mean revenue 1737.5
    assert "FY2021–FY2024 average growth: 10.07% (mean of 3 growth rates: FY2021–FY2022 +10.00%, " \
           "FY2022–FY2023 +9.09%, FY2023–FY2024 +11.11%)" in line, line


def test_a_missing_year_before_gives_no_number(folder: Path) -> None:
    facts = [f for f in region_facts((400, 440), (200, 230))
             if not (f.entity == "EXAMPLE_SOUTH" and f.period == "2023")]
    result = answer_question("What was the average revenue growth of North and South in FY2024?",
                             qa=statement_qa(folder, facts))
    assert "cannot be computed: there is no figure for South (EXAMPLE_SOUTH) FY2023" in result.answer, result.answer
    assert "average growth:" not in result.answer and "(mean of 2 figures)" not in result.answer, result.answer


def test_in_japanese(folder: Path) -> None:
    result = answered(statement_qa(folder, region_facts((400, 440), (200, 230))),
                      "2024年度の北部と南部の売上高の平均成長率は何%か")
    assert "の平均成長率：12.50%" in result.answer, result.answer
    assert result.status is AnswerStatus.FOUND
