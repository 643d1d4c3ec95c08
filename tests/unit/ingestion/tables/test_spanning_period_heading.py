"""A period heading left in one cell of its header row ("Years Ended" centred over three dates) heads every column."""

from __future__ import annotations

import pytest

from tests.support.markdown_facts import markdown_table_facts


@pytest.mark.parametrize("heading_col", [1, 2, 3])
def test_a_years_ended_heading_in_any_one_cell_dates_every_column(heading_col: int) -> None:
    heading = ["", "", "", ""]
    heading[heading_col] = "Years Ended"
    rows = [heading, ["", "June 30, 2019", "June 30, 2018", "June 30, 2017"], ["Consulting", "120", "100", "90"]]

    facts = markdown_table_facts(rows, "Annual report excerpt")

    assert {(f.period, f.value) for f in facts} == {("2019", 120), ("2018", 100), ("2017", 90)}


def test_a_heading_beside_another_text_in_its_row_heads_only_its_own_columns() -> None:
    rows = [["", "", "Years Ended", "2019 vs. 2018"], ["", "June 30, 2019", "June 30, 2018", "Change"],
            ["Consulting", "120", "100", "20"]]

    facts = markdown_table_facts(rows, "Annual report excerpt")

    assert {(f.period, f.value) for f in facts} == {("2018", 100)}


def test_a_heading_centred_beside_another_text_heads_the_columns_left_of_it_too() -> None:
    rows = [["", "", "Years Ended", "", "2019 vs. 2018"],
            ["", "June 30, 2019", "June 30, 2018", "June 30, 2017", "Change"],
            ["Consulting", "120", "100", "90", "20"]]

    facts = markdown_table_facts(rows, "Annual report excerpt")

    assert {(f.period, f.value) for f in facts} == {("2019", 120), ("2018", 100), ("2017", 90)}
