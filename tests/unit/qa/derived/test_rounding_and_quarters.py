"""A mean over a year's quarters leaves the year out; checks allow the rounding of the figures as written."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.model import Fact
from ragspine.qa.result import AnswerResult
from ragspine.qa.rounding import rounding_allowance, within_rounding
from tests.unit.qa.derived.statement_set import answered, statement_fact, statement_facts, statement_qa

QUARTERS = {"2024Q1": 1872406318.25, "2024Q2": 2095118473.6, "2024Q3": 2218690145.82, "2024Q4": 2466132277.69}


def quarter_fact(period: str, value: float, unit: str = "CNY") -> Fact:
    return statement_fact("REVENUE", period, value, unit=unit, period_type="Q",
                          source_locator=f"table=2,row=REVENUE,col={period}")


def ask(folder: Path, question: str, facts: list[Fact]) -> AnswerResult:
    return answered(statement_qa(folder, facts), question)


def with_quarters(year_unit: str = "CNY", year_value: float = 8652347215.36) -> list[Fact]:
    return [statement_fact("REVENUE", "2024", year_value, unit=year_unit),
            *(quarter_fact(p, v) for p, v in QUARTERS.items())]


class TestMeanOfTheQuarters:
    @pytest.mark.parametrize(("question", "marker", "mean"), [
        ("2024年四个季度营业收入的平均值", "平均值：", "2024Q1–2024Q4平均值：2163086803.84 CNY（4 个数的平均）"),
        ("What was the average of the four quarters of 2024 revenue?", "average:",
         "2024Q1–2024Q4 average: 2163086803.84 CNY (mean of 4 figures)"),
        ("2024年の四半期合計の売上高の平均は？", "の平均：", "2024Q1–2024Q4の平均：2163086803.84 CNY（4 個の数値の平均）"),
    ])
    def test_the_year_is_not_averaged_with_its_own_quarters(self, folder: Path, question: str, marker: str,
                                                            mean: str) -> None:
        result = ask(folder, question, with_quarters())
        line = next(line for line in result.answer.splitlines() if marker in line)
        assert mean in line
        assert "col=FY2024" not in line  # the year's own figure is no input of the mean
        assert "3460938886" not in result.answer

    def test_a_year_beside_one_of_its_quarters_is_not_averaged(self, folder: Path) -> None:
        facts = [statement_fact("REVENUE", "2024", 8652347215.36, unit="CNY"), quarter_fact("2024Q1", 1872406318.25)]
        result = ask(folder, "average revenue of FY2024 and 2024Q1", facts)
        assert "average:" not in result.answer
        assert "the year already includes them, so they are not averaged together" in result.answer


class TestChecksWithinRounding:
    def test_parts_in_a_coarser_scale_agree_within_their_rounding(self, folder: Path) -> None:
        facts = statement_facts(TOTAL_ASSETS=statement_fact("TOTAL_ASSETS", "2024", 2500015.36, unit="EUR_K"))
        result = ask(folder, "2024年资产总计是否等于负债合计与净资产之和", facts)
        line = next(line for line in result.answer.splitlines() if "计算自" in line)
        assert "：一致（在四舍五入范围内，相差 15.36 EUR_K）" in line and "不一致" not in line

    def test_in_english_the_check_says_within_rounding(self, folder: Path) -> None:
        facts = statement_facts(TOTAL_ASSETS=statement_fact("TOTAL_ASSETS", "2024", 2500015.36, unit="EUR_K"))
        result = ask(folder, "Does total assets equal total liabilities plus net assets in FY2024?", facts)
        assert "2500015.36 EUR_K against total liabilities" in result.answer
        assert "yes, they agree within rounding (15.36 EUR_K apart)" in result.answer
        assert "does not equal" not in result.answer

    def test_a_gap_beyond_the_rounding_is_still_a_gap(self, folder: Path) -> None:
        facts = statement_facts(TOTAL_ASSETS=statement_fact("TOTAL_ASSETS", "2024", 2501500, unit="EUR_K"))
        result = ask(folder, "Does total assets equal total liabilities plus net assets in FY2024?", facts)
        assert "no, they differ by 1500 EUR_K" in result.answer and "within rounding" not in result.answer

    def test_quarters_in_wan_yuan_against_a_year_in_yuan(self, folder: Path) -> None:
        facts = [statement_fact("REVENUE", "2024", 8652347215.36, unit="CNY"),
                 *(quarter_fact(p, v, unit="CNY_10K") for p, v in
                   {"2024Q1": 187240.63, "2024Q2": 209511.85, "2024Q3": 221869.01, "2024Q4": 246613.23}.items())]
        result = ask(folder, "sum of the quarters of 2024 revenue", facts)
        assert "the same as the stated full-year figure 8652347215.36 CNY within rounding (15.36 CNY apart)" in \
            result.answer
        assert "prevails" not in result.answer


def _fact(value: Decimal, unit: str) -> Fact:
    return statement_fact("REVENUE", "2024", float(value), unit=unit)


@settings(max_examples=200, deadline=None)
@given(parts=st.lists(st.integers(min_value=1, max_value=10**9), min_size=2, max_size=5),
       coarse=st.sampled_from(["CNY_10K", "CNY_K", "CNY_M"]), places=st.integers(min_value=0, max_value=2))
def test_parts_rounded_where_written_always_agree_with_their_exact_total(parts: list[int], coarse: str,
                                                                         places: int) -> None:
    """Parts in yuan, written in a coarser scale to ``places`` decimals: their exact total is within rounding."""
    factor = Decimal({"CNY_10K": 10**4, "CNY_K": 10**3, "CNY_M": 10**6}[coarse])
    step = Decimal(1).scaleb(-places)
    written = [(Decimal(p) / factor).quantize(step, rounding=ROUND_HALF_UP) for p in parts]
    facts = [_fact(sum(map(Decimal, parts), Decimal(0)), "CNY"), *(_fact(w, coarse) for w in written)]
    gap = sum(map(Decimal, parts), Decimal(0)) - sum((w * factor for w in written), Decimal(0))
    assert gap == 0 or within_rounding(gap, facts, "CNY")


@settings(max_examples=200, deadline=None)
@given(parts=st.lists(st.integers(min_value=1, max_value=10**9), min_size=2, max_size=5),
       coarse=st.sampled_from(["CNY_10K", "CNY_K", "CNY_M"]))
def test_a_gap_beyond_every_halfunit_is_never_rounding(parts: list[int], coarse: str) -> None:
    facts = [_fact(Decimal(p), "CNY") for p in parts] + [_fact(Decimal("12.34"), coarse)]
    beyond = rounding_allowance(facts, "CNY") + Decimal("0.01")
    assert not within_rounding(beyond, facts, "CNY") and not within_rounding(-beyond, facts, "CNY")


@pytest.mark.parametrize(("question", "mean"), [
    ("What was the quarterly average revenue in 2024?", "2024Q1–2024Q4 average: 2163086803.84 CNY (mean of 4 figures)"),
    ("2024年の4つの四半期の売上高の平均は？", "2024Q1–2024Q4の平均：2163086803.84 CNY（4 個の数値の平均）"),
    ("2024年各四半期の売上高の平均", "2024Q1–2024Q4の平均：2163086803.84 CNY（4 個の数値の平均）"),
])
def test_other_wordings_of_the_quarters_average_them(folder: Path, question: str, mean: str) -> None:
    assert mean in ask(folder, question, with_quarters()).answer


class TestFormulaCheckWithinRounding:
    """A stated sum or difference against its inputs written in whole millions: their halves allowed."""

    def test_a_difference_within_its_inputs_rounding_adds_no_check(self, folder: Path) -> None:
        stated = statement_fact("NET_WORKING_CAPITAL", "2024", 300.4)  # 900 - 600, each rounded to the million
        result = ask(folder, "What was the net working capital in FY2024?",
                     statement_facts(NET_WORKING_CAPITAL=stated))
        assert "300.4 EUR_M（来源：" in result.answer and "Check" not in result.answer

    def test_a_difference_beyond_its_inputs_rounding_is_checked(self, folder: Path) -> None:
        stated = statement_fact("NET_WORKING_CAPITAL", "2024", 302)
        result = ask(folder, "What was the net working capital in FY2024?",
                     statement_facts(NET_WORKING_CAPITAL=stated))
        assert "Check: computed as CURRENT_ASSETS - CURRENT_LIABILITIES it is 300 EUR_M, which differs" in \
            result.answer
