"""Header cells as converters split or set them (``ingestion/table_split_headings``), read as the heading they are."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.support.markdown_facts import markdown_table_facts

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


def _two_blocks(year: int, tail: str) -> list[list[str]]:
    """A quarterly price table of two years, each year's block under its own header rows."""
    def block(y: int, days: tuple[int, int, int]) -> list[list[str]]:
        return [["", "", "", "16 Weeks"], ["", "12 Weeks Ended", "", tail],
                ["", f"October {days[0]},", f"July {days[1]},", f"April {days[2]},"], ["", str(y), str(y), str(y)]]
    return [*block(year, (2, 10, 18)), ["High", "$41.20", "$39.75", "$38.10"], ["Low", "$30.05", "$31.60", "$29.90"],
            *block(year - 1, (3, 11, 19)), ["High", "$44.80", "$40.15", "$47.35"], ["Low", "$33.40", "$32.25", "$35.70"]]


@given(st.integers(min_value=2005, max_value=2029), st.sampled_from(["Ended", "Weeks Ended"]))
def test_header_rows_set_again_over_a_second_block_read_as_the_first_blocks(year: int, tail: str) -> None:
    # the tail under "16 Weeks" ends "12 Weeks Ended" left of it in both blocks' headers alike: each block is read
    # under its own dates, so no figure of the second block lands on the first block's dates
    facts = {(code, value) for code, _, value, _ in _facts(_two_blocks(year, tail))}
    assert facts == {(f"label:october 2, {year}: high", 41.2), (f"label:july 10, {year}: high", 39.75),
                     (f"label:april 18, {year}: high", 38.1), (f"label:october 2, {year}: low", 30.05),
                     (f"label:july 10, {year}: low", 31.6), (f"label:april 18, {year}: low", 29.9),
                     (f"label:october 3, {year - 1}: high", 44.8), (f"label:july 11, {year - 1}: high", 40.15),
                     (f"label:april 19, {year - 1}: high", 47.35), (f"label:october 3, {year - 1}: low", 33.4),
                     (f"label:july 11, {year - 1}: low", 32.25), (f"label:april 19, {year - 1}: low", 35.7)}
