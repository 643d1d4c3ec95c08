"""Header rows that say something of the whole table: a measure word over every column, a year in the corner."""

from __future__ import annotations

import pytest

from tests.support.markdown_facts import markdown_table_facts


@pytest.mark.parametrize("measure", ["Years", "years", "Days", "Number"])
def test_a_measure_word_over_every_column_leaves_the_sub_columns_read(measure: str) -> None:
    rows = [["", "2019", "", "2018", ""], ["", "Men", "Women", "Men", "Women"], ["", *[measure] * 4],
            ["Member aged 65", "86.8", "88.9", "87.3", "89.3"]]
    facts = markdown_table_facts(rows, "ACME Japan pension assumptions")
    assert {(f.metric_code, f.period, f.value) for f in facts} == {
        ("label:men: member aged 65", "2019", 86.8), ("label:women: member aged 65", "2019", 88.9),
        ("label:men: member aged 65", "2018", 87.3), ("label:women: member aged 65", "2018", 89.3)}
    assert next(f for f in facts if f.value == 88.9).source_locator.endswith(f"col=2019/Women/{measure}")


def test_a_header_row_of_two_kinds_under_each_year_stays_unread() -> None:
    """``Men`` over ``Cost``: two kinds under one column, which is the figure's is not certain."""
    rows = [["", "2019", "", "2018", ""], ["", "Men", "Women", "Men", "Women"], ["", "Cost", "Cost", "Headcount", "Cost"],
            ["Member aged 65", "86.8", "88.9", "87.3", "89.3"]]
    facts = markdown_table_facts(rows, "ACME Japan pension assumptions")
    assert not any(f.period == "2018" and f.value == 87.3 for f in facts)


def test_a_year_over_the_label_column_dates_the_table() -> None:
    rows = [["", "Total", "Fixed rate financial assets"], ["2019", "£m", "£m"], ["Sterling", "29.1", "0.2"],
            ["Renminbi", "42.0", "11.9"]]
    facts = markdown_table_facts(rows, "ACME Japan interest rate profile")
    assert {(f.metric_code, f.period, f.value, f.unit) for f in facts} == {
        ("label:sterling", "2019", 29.1, "GBP_M"), ("label:fixed rate financial assets: sterling", "2019", 0.2, "GBP_M"),
        ("label:renminbi", "2019", 42.0, "GBP_M"), ("label:fixed rate financial assets: renminbi", "2019", 11.9, "GBP_M")}


def test_two_years_over_the_label_column_date_nothing() -> None:
    rows = [["2019", "Total"], ["2018", "£m"], ["Sterling", "29.1"]]
    assert markdown_table_facts(rows, "ACME Japan interest rate profile") == []


@pytest.mark.parametrize(("first", "second"), [("FY2024 results", "FY2025 results"), ("FY2024 Actual", "FY2025 Actual"),
                                               ("2024年実績", "2025年実績")])
def test_a_year_over_its_results_is_that_years_column(first: str, second: str) -> None:
    """``FY2025 results`` states the year's figures: read as FY2025, never as a kind of figure beside the row's."""
    rows = [["(USD million)", first, second, "FY2026 forecast"], ["Revenue", "196.9", "214.3", "230.0"]]
    facts = markdown_table_facts(rows, "ACME Japan")
    assert {(f.metric_code, f.period, f.value) for f in facts} == {("REVENUE", "2024", 196.9), ("REVENUE", "2025", 214.3)}


def test_a_kind_broken_over_two_header_rows_is_one_kind() -> None:
    """``Revised Preliminary`` always over ``Allocation``: one phrase set on two lines, the kind of its columns."""
    rows = [["", "Revised Preliminary", "Measurement", "Revised Preliminary"],
            ["", "Allocation", "Period", "Allocation"],
            ["(In millions)", "As of August 1, 2019", "Adjustments", "As of December 31, 2019"],
            ["Goodwill", "261.3", "(7.4)", "253.9"], ["Total liabilities", "$ 94.9", "$ 5.2", "$ 100.1"]]
    facts = {(f.metric_code, f.period, f.value) for f in markdown_table_facts(rows, "Purchase price allocation")}
    assert facts == {("label:revised preliminary allocation: goodwill", "2019", 253.9),
                     ("label:revised preliminary allocation: total liabilities", "2019", 100.1)}
