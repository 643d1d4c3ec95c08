"""Formula metrics answered through ``answer_question``: computed from stated inputs, every input cited."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragspine.facts.model import Fact
from ragspine.qa.result import AnswerResult, AnswerStatus
from tests.unit.qa.derived.statement_set import (
    DOC,
    answered,
    statement_fact,
    statement_facts,
    statement_qa,
)


def ask(folder: Path, question: str, facts: list[Fact] | None = None) -> AnswerResult:
    return answered(statement_qa(folder, statement_facts() if facts is None else facts), question)


def cited(result: AnswerResult) -> set[str]:
    return {s["locator"] for s in result.sources if s["doc"] == DOC}


def rows(*metrics: str) -> set[str]:
    return {f"table=1,row={m},col=FY2024" for m in metrics}


class TestComputed:
    @pytest.mark.parametrize("question", ["What was the operating margin in FY2024?", "2024年度の営業利益率は？",
                                          "2024年的营业利润率是多少"])
    def test_operating_margin_from_operating_income_and_revenue(self, folder: Path, question: str) -> None:
        result = ask(folder, question)
        assert result.status is AnswerStatus.FOUND
        assert "7.50 PCT" in result.answer and "OPERATING_INCOME / REVENUE" in result.answer
        assert "（计算自：Example_FY2024_Statements.md · table=1,row=OPERATING_INCOME,col=FY2024；" in result.answer
        assert cited(result) == rows("OPERATING_INCOME", "REVENUE")

    def test_quick_ratio_subtracts_inventories(self, folder: Path) -> None:
        result = ask(folder, "What was the quick ratio in FY2024?")
        assert "116.67 PCT" in result.answer
        assert cited(result) == rows("CURRENT_ASSETS", "INVENTORIES", "CURRENT_LIABILITIES")

    def test_dupont_roe_multiplies_three_computed_factors_and_cites_their_stated_inputs(self, folder: Path) -> None:
        result = ask(folder, "2024年度のデュポン分解によるROEは何%か")
        assert "ROE_DUPONT" in result.answer
        assert "8.00 PCT" in result.answer  # 5% net margin x 0.8 turnover x 2.0 leverage
        assert cited(result) == rows("NET_INCOME", "REVENUE", "TOTAL_ASSETS", "NET_ASSETS")

    def test_free_cash_flow_is_money_in_the_inputs_unit(self, folder: Path) -> None:
        result = ask(folder, "free cash flow FY2024")
        assert "140 EUR_M" in result.answer
        assert cited(result) == rows("OPERATING_CASH_FLOW", "CAPEX")

    def test_every_number_shown_is_an_input_the_result_or_the_period(self, folder: Path) -> None:
        result = ask(folder, "What was the current ratio in FY2024?")
        body = re.sub(r"（计算自：[^）]*）", "", result.answer)
        assert set(re.findall(r"\d+(?:\.\d+)?", body)) == {"2024", "150.00", "900", "600"}


class TestNotComputed:
    def test_a_missing_input_is_named_and_no_number_is_given(self, folder: Path) -> None:
        result = ask(folder, "What was the interest coverage in FY2024?")
        assert result.status is AnswerStatus.NOT_FOUND and result.sources == ()
        assert "no figure for interest expense (INTEREST_EXPENSE)" in result.answer
        assert set(re.findall(r"\d+(?:\.\d+)?", result.answer)) == {"2024"}

    def test_inputs_in_two_currencies_are_never_converted(self, folder: Path) -> None:
        facts = statement_facts(OPERATING_INCOME=statement_fact("OPERATING_INCOME", "2024", 160, unit="USD_M"))
        result = ask(folder, "What was the operating margin in FY2024?", facts)
        assert result.status is AnswerStatus.NOT_FOUND
        assert "different currencies (EUR_M、USD_M)" in result.answer and "PCT" not in result.answer


class TestScales:
    def test_a_figure_in_billions_is_put_on_the_scale_of_millions_and_said(self, folder: Path) -> None:
        facts = statement_facts(OPERATING_INCOME=statement_fact("OPERATING_INCOME", "2024", 0.15, unit="EUR_B"))
        result = ask(folder, "What was the operating margin in FY2024?", facts)
        assert "7.50 PCT" in result.answer
        assert "EUR_B put on the scale of EUR_M" in result.answer


class TestStatedWins:
    def test_a_stated_figure_is_the_answer_and_a_disagreeing_computation_is_shown_beside_it(self, folder: Path) -> None:
        stated = statement_fact("OPERATING_MARGIN", "2024", 7.2, unit="PCT")
        result = ask(folder, "What was the operating margin in FY2024?", statement_facts(OPERATING_MARGIN=stated))
        first, check = result.answer.splitlines()[:2]
        assert first.endswith("7.2 PCT（来源：Example_FY2024_Statements.md · table=1,row=OPERATING_MARGIN,col=FY2024）")
        assert check.startswith("Check: computed as OPERATING_INCOME / REVENUE it is 7.50 PCT, which differs")

    def test_an_agreeing_computation_adds_nothing(self, folder: Path) -> None:
        stated = statement_fact("OPERATING_MARGIN", "2024", 7.5, unit="PCT")
        result = ask(folder, "What was the operating margin in FY2024?", statement_facts(OPERATING_MARGIN=stated))
        assert "Check" not in result.answer and "7.5 PCT（来源：" in result.answer
        assert cited(result) == rows("OPERATING_MARGIN")


class TestAskedByItsFormula:
    """A question naming the method (DuPont, or the factors as a product) is answered by that formula."""

    @pytest.mark.parametrize("question", [
        "2024年度のROEをDuPont分解(純利益率×総資産回転率×財務レバレッジ)で求めると何%か",
        "2024年度のROEをDuPont分解で求めると何%か",
        "What was ROE in FY2024 using net margin × asset turnover × financial leverage?",
    ])
    def test_the_decomposition_is_the_headline_and_its_factors_follow(self, folder: Path, question: str) -> None:
        result = ask(folder, question)
        first, *rest = result.answer.splitlines()
        assert "ROE_DUPONT" in first and "8.00 PCT" in first, result.answer
        assert "（ROE）" not in result.answer and "(ROE)" not in result.answer  # not the other ROE as well
        if "×" in question:  # the factors follow, each in its own unit (何%か asks the headline in percent)
            assert any("FINANCIAL_LEVERAGE" in r and "2.00 TIMES" in r for r in rest), result.answer
            assert [m for m in ("NET_MARGIN", "ASSET_TURNOVER", "FINANCIAL_LEVERAGE") if any(m in r for r in rest)] \
                == ["NET_MARGIN", "ASSET_TURNOVER", "FINANCIAL_LEVERAGE"]

    def test_the_factors_asked_alone_are_not_multiplied(self, folder: Path) -> None:
        result = ask(folder, "What were net margin, asset turnover and financial leverage in FY2024?")
        assert "ROE_DUPONT" not in result.answer
        assert "NET_MARGIN" in result.answer.splitlines()[0]


class TestOutflowsEitherSign:
    """Statements write capex as spent (80) or as an outflow ((80), -80): free cash flow is the same."""

    @pytest.mark.parametrize("capex", [80, -80])
    def test_free_cash_flow_takes_capex_as_spent_whatever_its_sign(self, folder: Path, capex: int) -> None:
        facts = statement_facts(CAPEX=statement_fact("CAPEX", "2024", capex))
        result = ask(folder, "free cash flow FY2024", facts)
        assert "140 EUR_M" in result.answer and "300" not in result.answer, result.answer
        assert cited(result) == rows("OPERATING_CASH_FLOW", "CAPEX")
