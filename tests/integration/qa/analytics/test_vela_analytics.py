"""The same analytics on the second domain, Vela Health (June fiscal year, divisions and hospitals).

Its documents are ingested through ``ragspine load-samples`` (fixtures of the Vela domain suite);
each question is asked through ``answer_question`` and through ``POST /v1/ask``. The clock is
15 September 2025: fiscal quarter 2026Q1 (July to September 2025) is running, so "last quarter"
is 2025Q4 and "last year" FY2025.
"""

from __future__ import annotations

from ragspine.domain.files import shipped_domains_dir
from tests.integration.domain.test_vela_domain import ask, ingested, vela
from tests.integration.qa.analytics.test_acme_analytics import computed_line
from tests.support.ask import Ask

__all__ = ["ask", "ingested", "vela"]  # the Vela domain's fixtures, shared with its own suite
VELA = shipped_domains_dir() / "vela"


def test_year_over_year_on_a_june_fiscal_year(ask: Ask) -> None:
    body = ask("Hospitals division revenue FY2025 year over year")
    assert body["slots"]["period"] == ["FY2024", "FY2025"] and body["status"] == "found"
    line = computed_line(body, "vs FY2024")
    assert "up 122.0 EUR_M（+11.05%）" in line


def test_quarter_over_quarter_within_the_fiscal_year(ask: Ask) -> None:
    body = ask("Clinics revenue 2025Q4 quarter over quarter")
    assert body["slots"]["period"] == ["2025Q3", "2025Q4"]
    assert "up 4 EUR_M（+3.17%）" in computed_line(body, "vs 2025Q3")


def test_the_division_with_the_highest_ebitda(ask: Ask) -> None:
    body = ask("Which division had the highest EBITDA in FY2025?")
    assert body["slots"]["entity"] == ["VELA_HOSPITALS", "VELA_CLINICS", "VELA_DIAGNOSTICS"]
    line = computed_line(body, "Highest:")
    assert "Highest: Hospitals division (VELA_HOSPITALS), 140.7 EUR_M above Clinics division (VELA_CLINICS)" in line


def test_each_hospital_is_the_third_level(ask: Ask) -> None:
    body = ask("各医院2025财年的营业收入")
    assert body["slots"]["entity"] == ["VELA_AMSTERDAM", "VELA_ROTTERDAM"]
    assert "640.0 EUR_M（来源：" in body["answer"] and "586.0 EUR_M（来源：" in body["answer"]


def test_two_hospitals_compared(ask: Ask) -> None:
    body = ask("Which has the lower bed occupancy in FY2025, Amsterdam or Rotterdam?")
    assert "Lowest: Rotterdam Heart Centre (VELA_ROTTERDAM), 2.8 points below" in body["answer"]


def test_last_quarter_follows_the_fiscal_calendar(ask: Ask) -> None:
    body = ask("Clinics revenue last quarter")
    assert body["slots"]["period"] == ["2025Q4"] and body["status"] == "found"
    assert "130 EUR_M（来源：" in body["answer"]
    assert "“last quarter” read as 2025Q4" in body["answer"]


def test_share_of_the_group(ask: Ask) -> None:
    line = computed_line(ask("Diagnostics share of group revenue FY2025"), "% of")
    assert "Diagnostics division (VELA_DIAGNOSTICS) FY2025 revenue (REVENUE) is 14.3% of Vela Health Group" in line


def test_the_four_quarters_beside_the_stated_year(ask: Ask) -> None:
    body = ask("Hospitals division revenue FY2025 sum of the quarters")
    line = computed_line(body, "sum of the four quarters")
    assert "1226.0 EUR_M, the same as the stated full-year figure 1226.0 EUR_M" in line


def test_no_sum_of_an_occupancy_rate(ask: Ask) -> None:
    body = ask("Amsterdam bed occupancy FY2025 sum of the quarters")
    assert body["slots"]["period"] == ["FY2025"]
    assert "cannot be added up" in body["answer"]


def test_each_division_in_japanese_ranked(ask: Ask) -> None:
    body = ask("2025年度の各事業のEBITDAの順位")
    assert body["slots"]["entity"] == ["VELA_HOSPITALS", "VELA_CLINICS", "VELA_DIAGNOSTICS"]
    assert "最も高いのは病院事業（VELA_HOSPITALS）" in computed_line(body, "最も高いのは")


def test_last_year_is_the_june_fiscal_year_just_ended(ask: Ask) -> None:
    body = ask("What was the group's revenue last year?")  # 15 September 2025: FY2025 ended on 30 June
    assert body["slots"]["period"] == ["FY2025"]
    assert "2012.5 EUR_M（来源：" in body["answer"]
    assert "“last year” read as FY2025" in body["answer"]


def test_each_divisions_share_of_the_group_with_no_note_that_the_whole_is_unclear(ask: Ask) -> None:
    body = ask("What share of group revenue did each division make in FY2025?")
    assert computed_line(body, "is 60.9% of Vela Health Group").startswith("Hospitals division (VELA_HOSPITALS)")
    assert computed_line(body, "is 14.3% of Vela Health Group").startswith("Diagnostics division (VELA_DIAGNOSTICS)")
    assert "which figure is the whole" not in body["answer"]


def test_a_hospitals_share_of_its_division_alone(ask: Ask) -> None:
    body = ask("What share of Hospitals revenue came from Amsterdam in FY2025?")
    assert computed_line(body, "is 52.2% of Hospitals division").startswith("Amsterdam General Hospital")
    # the division named is the whole, not a part asked of the group
    assert "VELA_GROUP" not in body["answer"], body["answer"]


def test_the_average_quarterly_revenue_of_a_division(ask: Ask) -> None:
    body = ask("What was the average quarterly revenue of clinics in FY2025?")
    assert body["answer"].splitlines()[0] == computed_line(body, "2025Q1–2025Q4 average: 124.625 EUR_M")
