"""Columns of a common-size statement or a rate reconciliation: "%" on the first and last figures, bare between."""

from __future__ import annotations

import pytest

from ragspine.ingestion.table_percent_columns import common_size_columns
from tests.support.markdown_facts import markdown_table_facts


def _columns(*column: str) -> set[int]:
    rows = [("Item", "2019"), *(((f"Row {i}", cell)) for i, cell in enumerate(column))]
    return common_size_columns(rows, range(1, len(rows)), [1])


def test_bare_figures_between_a_whole_of_100_percent_and_a_last_percentage_are_percentages() -> None:
    assert _columns("100.0 %", "40.0", "33.1", "7.2 %") == {1}


@pytest.mark.parametrize("column", [
    ("$182", "22", "(11)", "22.6%"),  # amounts over a rate row
    ("100.0 %", "$40.0", "33.1", "7.2 %"),  # a currency between: an amount
    ("100.0 %", "40.0", "33.1", "7.2"),  # the last figure bare: the convention not followed
    ("90.0 %", "40.0", "33.1", "7.2 %"),  # no whole of 100 % heads the column
    ("100.0 %", "7.2 %"),  # nothing bare between
])
def test_other_columns_are_not_read_as_percentages(column: tuple[str, ...]) -> None:
    assert _columns(*column) == set()


def test_a_rate_reconciliation_from_a_first_to_a_last_rate_is_in_percentage_points() -> None:
    # a statutory rate, the items moving it, the effective rate they sum to
    assert _columns("25.0%", "2.4", "(6.1)", "0.3", "21.6%") == {1}
    assert _columns("25.0%", "—", "(6.1)", "2.7", "21.6%") == {1}  # a dash states no item


@pytest.mark.parametrize("column", [
    ("25.0%", "2.4", "(6.1)", "0.3", "19.0%"),  # the items do not reach the last rate
    ("25.0%", "1,200", "(6.1)", "21.6%"),  # an amount between
])
def test_rates_the_figures_between_do_not_reconcile_are_not_read_as_percentages(column: tuple[str, ...]) -> None:
    assert _columns(*column) == set()


def test_the_items_of_a_rate_reconciliation_are_stored_in_percent() -> None:
    rows = [["Years ended December 31,", "2019", "2018"], ["Statutory income tax rate", "25.0%", "25.0%"],
            ["Regional taxes, net of relief", "2.4", "1.9"], ["Research credits", "(6.1)", "(4.4)"],
            ["Other", "0.3", "—"], ["Effective income tax rate", "21.6%", "22.5%"]]
    facts = markdown_table_facts(rows, "Income taxes")
    assert {(f.metric_code, f.period, f.value, f.unit) for f in facts if "regional" in f.metric_code} == {
        ("label:regional taxes, net of relief", "2019", 2.4, "PCT"),
        ("label:regional taxes, net of relief", "2018", 1.9, "PCT")}
