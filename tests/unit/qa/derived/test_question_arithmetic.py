"""Question-level arithmetic through ``answer_question``: stated in words, rounded as asked, every input cited."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.model import Fact
from ragspine.qa.answer import QAComponents, answer_question
from ragspine.qa.arithmetic_cues import read_arithmetic
from ragspine.qa.result import AnswerResult
from tests.support.glossary import default_glossary
from tests.unit.qa.derived.statement_set import (
    DOC,
    answered,
    statement_fact,
    statement_facts,
    statement_qa,
    statement_qa_with_labels,
)

COMPUTED = re.compile(r"（计算自：([^（）]*)）")


def ask(folder: Path, question: str, facts: list[Fact] | None = None) -> AnswerResult:
    return answered(statement_qa(folder, statement_facts() if facts is None else facts), question)


def line_with(result: AnswerResult, marker: str) -> tuple[str, set[str]]:
    """The one line holding ``marker`` and the cells it cites (each also among the answer's sources)."""
    lines = [line for line in result.answer.splitlines() if marker in line]
    assert len(lines) == 1, result.answer
    cited = COMPUTED.search(lines[0])
    assert cited is not None, lines[0]
    cells = {part.split(" · ")[1] for part in cited.group(1).split("；")}
    assert {f"{DOC} · {c}" for c in cells} <= {f"{s['doc']} · {s['locator']}" for s in result.sources}
    return lines[0], cells


def cells(metric: str, *years: int) -> set[str]:
    return {f"table=1,row={metric},col=FY{y}" for y in years}


class TestAverage:
    def test_over_two_named_years(self, folder: Path) -> None:
        line, cited = line_with(ask(folder, "What is the average revenue for 2023 and 2024?"), "average:")
        assert "FY2023–FY2024 average: 1900 EUR_M (mean of 2 figures)" in line
        assert cited == cells("REVENUE", 2023, 2024)

    def test_over_a_range_of_years(self, folder: Path) -> None:
        line, cited = line_with(ask(folder, "2021年至2023年营业收入的平均值是多少"), "平均值：")
        assert "1650 EUR_M（3 个数的平均）" in line and cited == cells("REVENUE", 2021, 2022, 2023)

    def test_a_missing_year_is_named_and_nothing_is_averaged(self, folder: Path) -> None:
        result = ask(folder, "average revenue 2019 to 2021")
        assert "cannot be computed: there is no figure for Example Group (EXAMPLE_GROUP) FY2019 revenue" in \
            result.answer
        assert "average:" not in result.answer

    def test_over_two_named_entities(self, folder: Path) -> None:
        facts = [statement_fact("REVENUE", "2024", 120.5, entity="EXAMPLE_NORTH"),
                 statement_fact("REVENUE", "2024", 80, entity="EXAMPLE_SOUTH")]
        line, _ = line_with(ask(folder, "average revenue of North and South in FY2024", facts), "average:")
        assert line.startswith("revenue (REVENUE) FY2024 average: 100.25 EUR_M (mean of 2 figures)")

    def test_rounded_as_asked(self, folder: Path) -> None:
        facts = statement_facts() + [statement_fact("NET_INCOME", "2022", 90)]
        line, _ = line_with(ask(folder, "average net income from 2022 to 2024, to two decimal places", facts),
                            "average:")
        assert "90.33 EUR_M" in line  # (90 + 81 + 100) / 3


class TestGrowthAndRatios:
    def test_cagr_over_a_range(self, folder: Path) -> None:
        line, cited = line_with(ask(folder, "revenue CAGR 2021 to 2024"), "compound annual growth rate")
        assert "FY2021–FY2024 compound annual growth rate (3 years): 10.06%" in line  # (2000/1500)^(1/3) - 1
        assert cited == cells("REVENUE", 2021, 2024)

    def test_n_year_cagr_to_one_named_year_looks_up_the_start(self, folder: Path) -> None:
        result = ask(folder, "3-year CAGR of revenue to FY2024")
        assert result.slots.as_dict()["period"] == ["FY2021", "FY2024"]
        assert "10.06%" in line_with(result, "compound annual growth rate")[0]

    @pytest.mark.parametrize(("question", "shown"), [
        ("What is the ratio of operating income to revenue in FY2024?", ": 0.08"),
        ("FY2024 operating income as a percentage of revenue", ": 7.50%"),
        ("2024年营业利润占营业收入的比例是百分之几", "：7.50%"),
        ("2024年度の売上高に占める営業利益の割合は何%か", "：7.50%"),  # the metric before に占める divides
        ("2024年度の営業利益の売上高に対する比率は小数点以下第3位まで", "：0.075"),
    ])
    def test_ratio_of_two_named_metrics_in_the_direction_the_words_give(self, folder: Path, question: str,
                                                                         shown: str) -> None:
        line, cited = line_with(ask(folder, question), shown)
        assert cited == cells("OPERATING_INCOME", 2024) | cells("REVENUE", 2024)
        assert line.index("OPERATING_INCOME") < line.index("REVENUE")  # operating income is divided by revenue

    def test_revenue_minus_cost_of_sales(self, folder: Path) -> None:
        line, cited = line_with(ask(folder, "2024年度の売上高から売上原価を差し引いた額はいくらか。"), " − ")
        assert line.endswith("：800 EUR_M（计算自：Example_FY2024_Statements.md · table=1,row=REVENUE,col=FY2024；"
                             "Example_FY2024_Statements.md · table=1,row=COST_OF_SALES,col=FY2024）")
        assert cited == cells("REVENUE", 2024) | cells("COST_OF_SALES", 2024)

    def test_a_computed_figure_in_two_currencies_is_refused(self, folder: Path) -> None:
        facts = statement_facts(COST_OF_SALES=statement_fact("COST_OF_SALES", "2024", 1300, unit="USD_M"))
        result = ask(folder, "FY2024 revenue minus cost of sales", facts)
        assert "the units differ (EUR_M, USD_M) and currencies are never converted" in result.answer


class TestConsistency:
    @pytest.mark.parametrize("question", ["2024年度の資産合計は負債合計と純資産合計の和に一致するか",
                                          "Does total assets equal total liabilities plus net assets in FY2024?",
                                          "2024年资产总计是否等于负债合计与净资产之和"])
    def test_a_balance_sheet_that_balances(self, folder: Path, question: str) -> None:
        result = ask(folder, question)
        line = next(line for line in result.answer.splitlines() if "TOTAL_LIABILITIES" in line and "计算自" in line)
        assert "2500 EUR_M" in line and ("一致します" in line or "yes, they match" in line or "：一致" in line)
        assert line_with(result, "计算自")[1] == cells("TOTAL_ASSETS", 2024) | cells("TOTAL_LIABILITIES", 2024) | \
            cells("NET_ASSETS", 2024)

    def test_a_gap_is_said_with_both_sides(self, folder: Path) -> None:
        facts = statement_facts(NET_ASSETS=statement_fact("NET_ASSETS", "2024", 1240))
        line, _ = line_with(ask(folder, "Does total assets equal total liabilities plus net assets in FY2024?", facts),
                            "does not equal")
        assert "2500 EUR_M does not equal" in line and "2490 EUR_M: no, they differ by 10 EUR_M" in line


class TestReading:
    @pytest.mark.parametrize(("question", "places"), [
        ("to two decimal places", 2), ("rounded to 1 decimal place", 1), ("保留两位小数", 2), ("保留1位小数", 1),
        ("小数点以下第2位まで", 2), ("小数点第2位を四捨五入", 1), ("to the nearest whole number", 0), ("ratio", None),
    ])
    def test_rounding_as_asked(self, question: str, places: int | None) -> None:
        assert read_arithmetic(f"revenue FY2024 {question}", default_glossary()).places == places

    @pytest.mark.parametrize(("question", "adds"), [
        ("What is the total easements for both definite-lived and indefinite-lived assets in 2024?", True),
        ("What is the total easements in both domestic and foreign plans in 2024?", True),
        ("What is the total revenue for both 2018 and 2019?", False),  # two periods: PERIOD_SUM's
        ("What is the total revenue for both FYs?", False),
        ("What is the total revenue for both years?", False),
        ("What is the revenue for both domestic and foreign plans in 2024?", False),  # no "total": each figure
    ])
    def test_a_total_for_both_of_two_named_adds_them(self, question: str, adds: bool) -> None:
        assert read_arithmetic(question, default_glossary()).add is adds

    def test_a_metrics_own_words_are_no_cue(self) -> None:
        # 毛利率 holds 率 and gross margin holds "margin": neither asks for a ratio of two figures
        assert not read_arithmetic("2024年日本的毛利率是多少", default_glossary()).computes


class TestJapaneseFilingWording:
    """The wording of questions about Japanese filings: the fiscal year by its end month, change words."""

    def test_year_over_year_by_the_previous_period(self, folder: Path) -> None:
        result = ask(folder, "2024年3月期の売上高は前期比で何%増減したか。")
        assert "FY2024 は FY2023 比 増加 200 EUR_M（+11.11%）" in result.answer

    def test_revenue_up_or_down(self, folder: Path) -> None:
        result = ask(folder, "2023年3月期から2024年3月期にかけて増収か減収か。")
        assert "売上高（REVENUE）：FY2024 は FY2023 比 増加" in result.answer

    def test_operating_income_up_or_down(self, folder: Path) -> None:
        result = ask(folder, "2023年3月期から2024年3月期にかけて営業利益ベースで増益か減益か。")
        assert "営業利益（OPERATING_INCOME）：FY2024 は FY2023 比 増加 24 EUR_M" in result.answer

    def test_a_share_of_total_assets(self, folder: Path) -> None:
        line, _ = line_with(ask(folder, "2024年3月期の純資産合計は総資産の何%を占めるか。"), "比率")
        assert "純資産合計（NET_ASSETS）の資産合計（TOTAL_ASSETS）に対する比率：50.00%" in line

    def test_a_multiple_asked_in_percent(self, folder: Path) -> None:
        result = ask(folder, "2024年3月期の総資産回転率は何%か。")
        assert "総資産回転率（ASSET_TURNOVER）：80.00 PCT" in result.answer

    def test_a_multiple_defined_by_the_question(self, folder: Path) -> None:
        line, _ = line_with(ask(folder, "2024年3月期の総資産回転率(売上高/総資産*100)は何%か。"), "比率")
        assert "売上高（REVENUE）の資産合計（TOTAL_ASSETS）に対する比率：80.00%" in line

    def test_a_formula_metric_changes_in_points_between_two_years(self, folder: Path) -> None:
        line, cited = line_with(ask(folder, "営業利益率は2023年3月期から2024年3月期にかけて何ポイント変化したか。"),
                                "比 増加")
        assert "営業利益率（OPERATING_MARGIN）：FY2024 は FY2023 比 増加 0.50ポイント" in line  # 7.50 - 7.00
        assert cited == cells("OPERATING_INCOME", 2023, 2024) | cells("REVENUE", 2023, 2024)

    def test_the_questions_own_formula_replaces_the_named_metric(self, folder: Path) -> None:
        facts = [*statement_facts(), statement_fact("ORDINARY_INCOME", "2024", 160)]
        result = ask(folder, "2024年3月期のROA(経常利益/総資産)は何%か。", facts)
        assert result.slots.as_dict()["metric"] == ["ORDINARY_INCOME", "TOTAL_ASSETS"]
        line, _ = line_with(result, "比率")
        assert "経常利益（ORDINARY_INCOME）の資産合計（TOTAL_ASSETS）に対する比率：6.40%" in line

    def test_a_sum_of_two_named_items(self, folder: Path) -> None:
        facts = [*statement_facts(), statement_fact("NONCURRENT_ASSETS", "2024", 1600)]
        line, _ = line_with(ask(folder, "2024年3月期の流動資産と固定資産の合計はいくらか。", facts), " + ")
        assert "流動資産（CURRENT_ASSETS） + 固定資産（NONCURRENT_ASSETS）：2500 EUR_M" in line

    def test_a_check_whose_sides_the_question_writes_with_plus(self, folder: Path) -> None:
        facts = [*statement_facts(), statement_fact("NONCURRENT_ASSETS", "2024", 1600)]
        result = ask(folder, "全社の2024年3月期の資産の部の合計(流動資産+固定資産)は、負債・純資産合計の合計と一致するか。",
                     facts)
        line, _ = line_with(result, "一致")
        assert "負債合計（TOTAL_LIABILITIES） + 純資産合計（NET_ASSETS） 2500 EUR_M は 流動資産（CURRENT_ASSETS） + " \
               "固定資産（NONCURRENT_ASSETS） 2500 EUR_M と一致します" in line


@given(st.text(alphabet=st.sampled_from(list("0123456789 年月期第四半期から至to%/+-の合計比率平均averageCAGR売上高営業利益")),
               max_size=50))
def test_any_wording_is_read_without_failing(text: str) -> None:
    arithmetic = read_arithmetic(text, default_glossary())
    assert arithmetic.places is None or arithmetic.places >= 0


def test_a_weighted_average_names_a_figure_and_asks_no_mean() -> None:
    from ragspine.qa.arithmetic_cues import _asks_average

    assert not _asks_average("what was the change in the diluted weighted-average number of shares")
    assert not _asks_average("weighted average shares outstanding")
    assert _asks_average("the average of the weighted-average shares of 2018 and 2019")


def test_an_average_that_may_be_the_rows_own_word_gives_no_mean(folder: Path) -> None:
    row = "label:weighted average grant date fair value: shares vested"
    facts = [statement_fact(row, "2018", 2.84, unit=""), statement_fact(row, "2019", 2.28, unit="")]
    result = answer_question("What is the average shares vested between 2018 and 2019?",
                             qa=statement_qa_with_labels(folder, facts))
    assert '"Average" is also a word of the row\'s own name' in result.answer, result.answer
    assert "2.56" not in result.answer and "计算自" not in result.answer


def test_an_average_asked_beside_the_rows_own_is_computed(folder: Path) -> None:
    row = "label:weighted average grant date fair value: shares vested"
    facts = [statement_fact(row, "2018", 2.84, unit=""), statement_fact(row, "2019", 2.28, unit="")]
    result = answer_question("What is the average of the weighted average grant date fair value of shares vested "
                             "in 2018 and 2019?", qa=statement_qa_with_labels(folder, facts))
    assert "average: 2.56" in result.answer, result.answer


class TestSumOverPeriods:
    def test_one_figure_added_up_over_the_years_asked(self, folder: Path) -> None:
        line, cited = line_with(ask(folder, "What is the sum of revenue from 2021 to 2023?"), "FY2021 + FY2022")
        assert "revenue (REVENUE) FY2021 + FY2022 + FY2023: 4950 EUR_M" in line
        assert cited == cells("REVENUE", 2021, 2022, 2023)

    def test_total_as_the_questions_own_word(self, folder: Path) -> None:
        facts = [statement_fact("label:deposits", y, v) for y, v in (("2018", 2338), ("2019", 1975))]
        result = answer_question("What is the total deposits in 2018 and 2019?",
                                 qa=statement_qa_with_labels(folder, facts))
        assert "deposits (label:deposits) FY2018 + FY2019: 4313 EUR_M（计算自" in result.answer, result.answer

    def test_a_rows_own_total_quoted_as_written_asks_no_sum(self, folder: Path) -> None:
        facts = [statement_fact("label:total cost of revenue", y, v) for y, v in (("2018", 51896), ("2019", 48881))]
        qa = statement_qa_with_labels(folder, facts)
        result = answer_question("What is the Total cost of revenue in 2019 and 2018?", qa=qa)
        assert "FY2019 + FY2018" not in result.answer and "100777" not in result.answer, result.answer
        summed = answer_question("What is the total cost of revenue in 2019 and 2018?", qa=qa)
        assert "FY2019 + FY2018: 100777 EUR_M" in summed.answer, summed.answer
        both = answer_question("What is the total cost of revenue in 2019 and 2018 altogether?", qa=qa)
        assert "FY2019 + FY2018: 100777 EUR_M" in both.answer, both.answer

    def test_a_missing_year_is_named_and_nothing_is_added(self, folder: Path) -> None:
        result = ask(folder, "What is the sum of revenue from 2019 to 2021?")
        assert "cannot be computed: there is no figure for" in result.answer and "FY2019" in result.answer
        assert "计算自" not in result.answer


class TestTheLongerRowNamed:
    ROWS = {"land": (672, 672), "land, property and equipment, net": (1601, 1298), "cost of revenue": (10, 12),
            "revenue: services": (50, 60)}

    def qa(self, folder: Path) -> QAComponents:
        facts = [statement_fact(f"label:{row}", year, value, unit="USD_K") for row, values in self.ROWS.items()
                 for year, value in zip(("2018", "2019"), values, strict=True)]
        return statement_qa_with_labels(folder, facts)

    def test_a_short_row_inside_a_longer_one_named_word_for_word_is_the_longer_one(self, folder: Path) -> None:
        result = answer_question("What is the percentage change in the net cost of land, property, and equipment "
                                 "in 2019 compared to 2018?", qa=self.qa(folder))
        assert "FY2019 vs FY2018 down 303 USD_K（−18.93%）" in result.answer, result.answer
        assert "(label:land)" not in result.answer

    def test_the_short_row_named_alone_stays(self, folder: Path) -> None:
        result = answer_question("What was land in 2019?", qa=self.qa(folder))
        assert "FY2019 land (label:land): 672 USD_K" in result.answer, result.answer


class TestPartOfAWhole:
    ROWS = {"audit fees": 55000, "total fees": 66000, "tax fees": 11000}

    def qa(self, folder: Path) -> QAComponents:
        return statement_qa_with_labels(folder, [statement_fact(f"label:{row}", "2019", value, unit="USD")
                                                 for row, value in self.ROWS.items()])

    @pytest.mark.parametrize("question", [
        "What is the percentage of audit fees in total fees in 2019?",
        "What percentage of the total fees were audit fees in 2019?",
    ])
    def test_the_total_is_the_whole_whichever_comes_first(self, folder: Path, question: str) -> None:
        result = answer_question(question, qa=self.qa(folder))
        line = next(line for line in result.answer.splitlines() if "计算自" in line)
        assert "ratio of audit fees (label:audit fees) to total fees (label:total fees): 83.33%" in line, result.answer

    def test_no_whole_among_the_two_gives_no_share(self, folder: Path) -> None:
        result = answer_question("What is the percentage of audit fees in tax fees in 2019?", qa=self.qa(folder))
        assert "which figure is the whole (a total) is not clear" in result.answer, result.answer
        assert "计算自" not in result.answer


class TestPartOfAWholeWrittenInChineseOrJapanese:
    """A statement's total row written as Chinese and Japanese statements write it, its total word last."""

    @pytest.mark.parametrize(("part", "whole"), [("审计费用", "费用合计"), ("監査報酬", "報酬合計"),
                                                 ("国际", "净销售额总计")])
    def test_the_row_ending_in_a_total_word_is_the_whole(self, folder: Path, part: str, whole: str) -> None:
        qa = statement_qa_with_labels(folder, [statement_fact(f"label:{row}", "2019", value, unit="USD")
                                               for row, value in ((part, 55000), (whole, 66000))])
        result = answer_question(f"What percentage of {whole} was {part} in 2019?", qa=qa)
        line = next((line for line in result.answer.splitlines() if "计算自" in line), "")
        assert "83.33%" in line and line.index(f"label:{part}") < line.index(f"label:{whole}"), result.answer


def test_a_share_whose_words_point_at_no_row_read_gives_no_share(folder: Path) -> None:
    rows = {"land": 672, "leasehold improvements": 798, "land, property and equipment, gross": 8109}
    qa = statement_qa_with_labels(folder, [statement_fact(f"label:{row}", "2019", value, unit="USD_K")
                                           for row, value in rows.items()])
    result = answer_question("What is the proportion of land and leasehold improvements over the gross cost of land, "
                             "property, and equipment in 2019?", qa=qa)
    assert "计算自" not in result.answer, result.answer
