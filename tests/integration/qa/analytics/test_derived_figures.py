"""Formula metrics on the shipped domains through ``answer_question`` and ``POST /v1/ask``.

ACME states revenue and operating profit but no operating margin: the margin is computed from
them, citing both cells. Vela states its EBITDA margins: the stated figure is the answer.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.integration.domain.test_vela_domain import ask as vela_ask
from tests.integration.domain.test_vela_domain import ingested, vela
from tests.integration.qa.analytics.test_acme_analytics import COMPUTED, ask, computed_line, wired
from tests.support.ask import Ask

__all__ = ["ask", "ingested", "vela", "vela_ask", "wired"]


def _sources(body: dict[str, Any]) -> set[tuple[str, str]]:
    return {(s["doc"], s["locator"]) for s in body["sources"]}


class TestAcme:
    def test_operating_margin_is_computed_from_the_two_stated_figures(self, ask: Ask) -> None:
        body = ask("中国内地2024年的经营利润率是多少")
        assert (body["route"], body["status"]) == ("structured", "found")
        line = computed_line(body, "经营利润率（OPERATING_MARGIN）")
        assert "14.00 PCT（按公式 OPERATING_PROFIT / REVENUE 计算：经营利润（OPERATING_PROFIT） 184.8 USD_M；" in line
        assert _sources(body) == {("ACME_FY2024_Review.pptx", "slide=2,table=1,row=OPERATING_PROFIT,col=FY2024"),
                                  ("ACME_FY2024_Review.pptx", "slide=2,table=1,row=REVENUE,col=FY2024")}

    def test_two_years_of_margins_each_cite_their_own_year(self, ask: Ask) -> None:
        body = ask("What was Mainland China's operating margin in FY2024 and FY2025?")
        assert "14.00 PCT" in computed_line(body, "FY2024 operating margin")
        assert "15.00 PCT" in computed_line(body, "FY2025 operating margin")
        assert len(body["sources"]) == 4

    def test_a_year_without_inputs_names_them_and_gives_no_number(self, ask: Ask) -> None:
        body = ask("香港2030年の営業利益率は")
        assert body["status"] == "not_found" and body["sources"] == []
        assert "営業利益（OPERATING_PROFIT）；売上高（REVENUE） のデータがないため" in body["answer"]


class TestVela:
    def test_a_stated_margin_is_the_answer(self, vela_ask: Ask) -> None:
        body = vela_ask("What was the Clinics division's EBITDA margin in FY2025?")
        assert body["status"] == "found"
        assert "EBITDA margin (EBITDA_MARGIN): " in body["answer"] and "（来源：" in body["answer"]
        assert "computed as" not in body["answer"]

    def test_a_margin_neither_stated_nor_computable_names_the_missing_input(self, vela_ask: Ask) -> None:
        body = vela_ask("Amsterdam EBITDA margin FY2025")
        assert body["status"] == "not_found" and body["sources"] == []
        assert body["answer"].startswith("Amsterdam General Hospital (VELA_AMSTERDAM) FY2025 EBITDA margin "
                                         "(EBITDA_MARGIN) cannot be computed (EBITDA / REVENUE): there is no figure "
                                         "for EBITDA (EBITDA), so no value is given.")


class TestAcmeArithmetic:
    def test_average_revenue_over_three_years(self, ask: Ask) -> None:
        body = ask("中国内地2023年至2025年营业收入的平均值")
        line = computed_line(body, "平均值：")
        assert "1317.33 USD_M（3 个数的平均）" in line

    def test_cagr_in_english(self, ask: Ask) -> None:
        line = computed_line(ask("Mainland China revenue CAGR from FY2023 to FY2025"), "compound annual growth rate")
        assert "(2 years): 10.93%" in line

    def test_difference_between_two_regions(self, ask: Ask) -> None:
        line = computed_line(ask("中国内地和香港2024年营业收入相差多少"), "营业收入（REVENUE）：中国内地")
        assert "中国内地（ACME_CN）比香港（ACME_HK）高 982 USD_M" in line

    def test_net_margin_rounded_as_asked_from_a_ratio_of_two_named_metrics(self, ask: Ask) -> None:
        line = computed_line(ask("日本2024年净利润占营业收入的比例是百分之几？保留一位小数"), "之比")
        assert "净利润（NET_PROFIT）与营业收入（REVENUE）之比：4.5%" in line  # 29.5 / 655

    def test_the_gap_between_two_figures_of_one_region_and_year(self, ask: Ask) -> None:
        line = computed_line(ask("日本2024年营业收入与净利润相差多少"), "之差")
        assert "营业收入（REVENUE）与净利润（NET_PROFIT）之差：625.5 USD_M（营业收入（REVENUE）比净利润（NET_PROFIT）高）" \
            in line  # 655 - 29.5

    def test_one_figure_of_two_years_divided(self, ask: Ask) -> None:
        line = computed_line(ask("What is the ratio of Japan revenue in FY2024 to FY2023?"), "ratio of FY2024")
        assert "revenue (REVENUE) ratio of FY2024 to FY2023: 1.02" in line, line  # 655 / 640


class TestNeverAnInputForTheDerivedFigure:
    """A margin, ratio or growth is answered with itself or "cannot be computed", never with an input."""

    def test_a_margin_written_after_its_numerator_is_the_formula_metric(self, ask: Ask) -> None:
        body = ask("What was Mainland China's operating profit % margin in FY2024?")
        assert body["status"] == "found"
        assert "14.00 PCT" in computed_line(body, "operating margin (OPERATING_MARGIN)")

    @pytest.mark.parametrize("question, phrase", [
        ("What was Mainland China's net profit margin in FY2024?", "net profit margin"),
        ("中国内地2024年净利率是多少", "净利率"),
        ("中国内地の2024年の純利益率は", "純利益率"),
        ("What was Mainland China's revenue turnover in FY2024?", "revenue turnover"),
    ])
    def test_a_derived_figure_with_no_formula_gives_no_number(self, ask: Ask, question: str, phrase: str) -> None:
        body = ask(question)
        assert (body["route"], body["status"], body["sources"]) == ("structured", "not_found", [])
        assert phrase in body["answer"]
        assert not re.search(r"\d", body["answer"]), body["answer"]  # neither net profit 29.5 nor any figure

    def test_a_growth_over_one_period_with_no_year_before_stated_gives_no_number(self, ask: Ask) -> None:
        body = ask("What was Mainland China's revenue growth in FY2023?")  # FY2022 is stated nowhere
        assert (body["status"], body["sources"]) == ("not_found", [])
        assert "needs two periods" in body["answer"] and not re.search(r"\d", body["answer"])

    def test_a_growth_of_one_year_named_is_against_the_year_before(self, ask: Ask) -> None:
        body = ask("What was Mainland China's revenue growth in FY2024?")
        assert "FY2024 vs FY2023 up 140 USD_M（+11.86%）" in computed_line(body, "FY2024 vs FY2023")

    def test_a_growth_over_two_periods_is_the_change(self, ask: Ask) -> None:
        body = ask("What was Mainland China's revenue growth from FY2024 to FY2025?")
        assert body["status"] == "found" and "%" in body["answer"]


class TestAverageOfAFormulaMetric:
    def test_the_mean_of_two_computed_margins_leads_and_cites_every_input(self, ask: Ask) -> None:
        body = ask("What was Mainland China's average operating margin in FY2024 and FY2025?")
        first = body["answer"].splitlines()[0]
        assert "FY2024–FY2025 average: 14.50 PCT (mean of 2 figures)" in first, body["answer"]
        assert first == computed_line(body, "average:")
        cited = COMPUTED.search(first)
        assert cited is not None, first
        assert len(cited.group(1).split("；")) == 4  # both years' profit and revenue

    def test_a_growth_rate_that_cannot_be_computed_gives_none_of_its_inputs(self, ask: Ask) -> None:
        body = ask("Mainland China revenue CAGR from FY2021 to FY2025")  # no FY2021 figure
        assert (body["status"], body["sources"]) == ("not_found", [])
        assert body["answer"] == ("The Mainland China (ACME_CN) revenue (REVENUE) growth rate cannot be computed: there "
                                  "is no figure for Mainland China (ACME_CN) FY2021 revenue (REVENUE), so no value is "
                                  "given.")
        assert "（来源：" not in body["answer"]


class TestTheFigureAskedLeads:
    def test_a_growth_rate_leads_its_inputs(self, ask: Ask) -> None:
        body = ask("Mainland China revenue CAGR from FY2023 to FY2025")
        assert "compound annual growth rate (2 years): 10.93%" in body["answer"].splitlines()[0], body["answer"]

    def test_a_change_between_two_year_averages_says_each_span_and_cites_every_year(self, ask: Ask) -> None:
        body = ask("What is the change between the FY2024 and FY2025 average revenue of Mainland China?")
        first = body["answer"].splitlines()[0]
        # each year's average is over it and the year before, the spans said: 1386 (FY2024–25) less 1250 (FY2023–24)
        assert "change of the average (2024–2025 against 2023–2024): 136 USD_M (means 1386 and 1250)" in first, first
        cited = COMPUTED.search(first)
        assert cited is not None and len(cited.group(1).split("；")) == 3, first

    def test_a_mean_of_computed_margins_stays_first_beside_an_average_of_stated_figures(self, ask: Ask) -> None:
        body = ask("What was Mainland China's average operating margin and net profit in FY2024 and FY2025?")
        lines = body["answer"].splitlines()
        assert "operating margin (OPERATING_MARGIN) FY2024–FY2025 average: 14.50 PCT" in lines[0], body["answer"]
        assert "net profit (NET_PROFIT) FY2024–FY2025 average" in lines[1], body["answer"]

    def test_a_figure_and_a_margin_over_it_asked_together_are_both_answered(self, ask: Ask) -> None:
        body = ask("What were Mainland China's revenue and operating margin in FY2024?")
        assert "revenue (REVENUE): 1320" in body["answer"] and "14.00 PCT" in body["answer"], body["answer"]
