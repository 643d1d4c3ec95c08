"""Header cells as converters split or set them (``ingestion/table_split_headings``), read as the heading they are."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.unit.ingestion.tables.markdown_facts import markdown_table_facts

_MONTHS = ["January", "March", "April", "June", "August", "September", "October", "November"]


def _facts(rows: list[list[str]]) -> set[tuple[str, str, object, str]]:
    return {(f.metric_code, f.period, f.value, f.source_locator) for f in markdown_table_facts(rows, "Stock of goods")}


@given(st.sampled_from(_MONTHS), st.integers(min_value=1, max_value=28), st.booleans())
def test_a_month_and_day_in_the_corner_heads_every_year_column(month: str, day: int, day_first: bool) -> None:
    written = f"{day} {month}" if day_first else f"{month} {day},"
    facts = _facts([[written, "", ""], ["", "2021", "2020"], ["Spare parts", "3,310", "2,870"]])
    assert {(code, period, value) for code, period, value, _ in facts} == {
        ("label:spare parts", "2021", 3310), ("label:spare parts", "2020", 2870)}
    assert all(written.rstrip(",") in locator for *_, locator in facts), facts


def test_a_corner_text_that_is_no_date_stays_a_label_column_note() -> None:
    facts = _facts([["(In thousands)", "", ""], ["", "2021", "2020"], ["Spare parts", "3,310", "2,870"]])
    assert {locator for *_, locator in facts} == {"table=1,row=Spare parts,col=2021", "table=1,row=Spare parts,col=2020"}


@given(st.sampled_from(["Years Ended June 30,", "Years Ended December 31,", "Fiscal Years Ended September 30,"]),
       st.integers(min_value=1, max_value=3))
def test_a_headings_tail_written_again_beside_it_names_no_column(heading: str, words: int) -> None:
    tail = " ".join(heading.split()[-words:])
    facts = _facts([["", "", heading, tail], ["", "2021", "2020", "2019"], ["Freight costs", "410", "385", "352"]])
    assert {period for _, period, _, _ in facts} == {"2021", "2020", "2019"}, facts


def test_a_different_text_beside_a_heading_keeps_its_column_apart() -> None:
    # "Change" ends no heading left of it: its column stays a change, never a year's figure
    facts = _facts([["", "", "Years Ended June 30,", "Change"], ["", "2021", "2020", "%"],
                    ["Freight costs", "410", "385", "6%"]])
    assert {period for _, period, _, _ in facts} == {"2021", "2020"}, facts
