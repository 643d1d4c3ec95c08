"""Rankings, shares and sums of quarters put their figures on one unit, or compute nothing.

Two currencies are never converted and an amount in no stated unit is never set beside one in a
currency: the answer says the units differ and ranks, shares or adds nothing. Scales of one
currency are arithmetic (万元 beside 元, ``JPY_B`` beside ``JPY_M``): the figures are put on the
finer scale and the answer says so.
"""

from __future__ import annotations

from ragspine.facts.glossary import Period
from ragspine.facts.model import Fact
from ragspine.facts.query_metric import MetricQuery, QueryResult, QueryStatus
from ragspine.qa.analytics.compute import with_analysis
from ragspine.qa.analytics.cues import Analysis
from ragspine.qa.language import Lang
from ragspine.qa.result import AnswerStatus
from ragspine.qa.structured import StructuredOutcome
from tests.support.glossary import default_glossary

FY2024 = Period("FY", "2024")


def _found(entity: str, value: float, unit: str, period: Period = FY2024) -> QueryResult:
    fact = Fact("REVENUE", entity, "", "TOTAL", period.period_type, period.period, value, unit, f"{entity}.md",
                f"table=1,row=Revenue,col={period.label}")
    return QueryResult(QueryStatus.FOUND, MetricQuery("REVENUE", entity, period, "TOTAL"), fact)


def _lines(analysis: Analysis, *results: QueryResult) -> list[str]:
    outcome = StructuredOutcome(tuple("" for _ in results), (), AnswerStatus.FOUND, results, ())
    return list(with_analysis(outcome, analysis, glossary=default_glossary(), lang=Lang.EN).lines[len(results):])


def test_figures_in_two_currencies_are_not_ranked() -> None:
    lines = _lines(Analysis(order="high"), _found("ACME_CN", 598417.36, "CNY_10K"), _found("ACME_JP", 131850, "USD_K"))
    assert lines == ["The FY2024 revenue (REVENUE) figures are in different units (CNY_10K、USD_K), which are never "
                     "converted, so no ranking is computed."]


def test_scales_of_one_currency_are_ranked_on_the_finer_scale() -> None:
    lines = _lines(Analysis(order="high"), _found("ACME_CN", 1.2, "JPY_B"), _found("ACME_JP", 900, "JPY_M"))
    assert len(lines) == 1
    assert "Mainland China (ACME_CN) 1200 JPY_M; Japan (ACME_JP) 900 JPY_M" in lines[0], lines[0]
    assert "300 JPY_M above Japan (ACME_JP) (JPY_B put on the scale of JPY_M)" in lines[0], lines[0]


def test_no_share_of_a_whole_stated_in_no_unit() -> None:
    lines = _lines(Analysis(share=True), _found("ACME_CN", 266817.36, "CNY_10K"),
                   _found("ACME_GROUP", 8652347215.36, ""))
    assert lines == ["The FY2024 revenue (REVENUE) figures are in different units (CNY_10K、unit not stated), which are "
                     "never converted, so no share is computed."]


def test_a_share_across_scales_of_one_currency_is_computed() -> None:
    lines = _lines(Analysis(share=True), _found("ACME_CN", 266817.36, "CNY_10K"),
                   _found("ACME_GROUP", 8652347215.36, "CNY"))
    assert len(lines) == 1 and "is 30.8% of" in lines[0], lines


def _quarters(unit: str) -> list[QueryResult]:
    values = (183340.05, 203120.31, 209844.03, 268930.33)  # 万元: 865234.72 in all
    return [_found("ACME_GROUP", v, unit, Period("Q", f"2024Q{n}")) for n, v in enumerate(values, start=1)]


def test_a_full_year_in_no_stated_unit_is_never_relabelled_as_the_quarters_unit() -> None:
    lines = _lines(Analysis(sum_of_quarters=True), *_quarters("CNY_10K"), _found("ACME_GROUP", 8652347215.36, ""))
    assert lines[0].startswith("ACME Group (ACME_GROUP)  FY2024 revenue (REVENUE), sum of the four quarters: 865234.72 "
                               "CNY_10K; the stated full-year figure 8652347215.36 (unit not stated) is in another "
                               "unit and is not compared"), lines
    assert "8652347215.36 CNY_10K" not in lines[0]


def test_a_full_year_on_another_scale_of_the_currency_is_compared_on_the_finer_scale() -> None:
    lines = _lines(Analysis(sum_of_quarters=True), *_quarters("CNY_10K"), _found("ACME_GROUP", 8652347200, "CNY"))
    assert "the same as the stated full-year figure 8652347200 CNY" in lines[0], lines
    lines = _lines(Analysis(sum_of_quarters=True), *_quarters("CNY_10K"), _found("ACME_GROUP", 8652357200, "CNY"))
    assert "the stated full-year figure is 8652357200 CNY (10000 CNY apart; the stated figure prevails)" in lines[0]
