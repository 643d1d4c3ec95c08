"""Columns of a common-size statement: "%" on the first (100 %) and last figures, bare shares between."""

from __future__ import annotations

import pytest

from ragspine.ingestion.table_percent_columns import common_size_columns


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
