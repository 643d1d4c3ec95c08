"""A unit note set in one cell of its own header row states the unit of every column, not of the columns right of it."""

from __future__ import annotations

import pytest

from tests.support.markdown_facts import markdown_table_facts


@pytest.mark.parametrize("note_col", [1, 2, 3])
def test_a_unit_note_in_one_cell_of_a_header_row_is_the_whole_tables(note_col: int) -> None:
    note = ["", "", "", ""]
    note[note_col] = "(in millions)"
    rows = [["", "2019", "2018", "2017"], note, ["Consulting", "$ 120", "$ 100", "$ 90"], ["Hosting", "80", "60", "50"]]

    facts = markdown_table_facts(rows, "Annual report excerpt")

    assert {(f.period, f.unit) for f in facts if f.metric_code == "label:hosting"} == {
        ("2019", "USD_M"), ("2018", "USD_M"), ("2017", "USD_M")}


def test_a_percentage_in_its_own_cell_keeps_its_unit_beside_a_unit_note() -> None:
    rows = [["", "2019", "2018", "% Change"], ["", "(dollars in thousands)", "", ""],
            ["Interest income", "$1,310", "$510", "157%"]]

    facts = markdown_table_facts(rows, "Annual report excerpt")

    assert {(f.period, f.value, f.unit) for f in facts} == {("2019", 1310, "USD_K"), ("2018", 510, "USD_K")}
