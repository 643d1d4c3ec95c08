"""Due spans as questions and payment schedules word them (``qa/due_years.py``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.due_years import due_span, heading_years

_NUMBERS = {1: "one", 2: "two", 3: "three", 5: "five"}


@given(st.sampled_from(sorted(_NUMBERS)), st.booleans(), st.sampled_from(["less than", "within", "up to", "under"]))
def test_a_span_below_some_years_is_one_however_written(n: int, in_words: bool, below: str) -> None:
    count = _NUMBERS[n] if in_words else str(n)
    years = "year" if n == 1 else "years"
    assert due_span(f"What is due {below} {count} {years}?") == due_span(f"{below.title()} {n} {years}") \
        == ("below", n, 0)


@pytest.mark.parametrize(("asked", "header"), [
    ("within 1-3 years", "1-3 years"), ("between one and three years", "1 – 3 years"),
    ("in 3 to 5 years", "3-5 years"), ("after five years", "More than 5 years"), ("beyond 5 years", "Over 5 years"),
    ("in 3 to 5 years", "Years 3-5"), ("between one and three years", "Years1-3")])
def test_a_question_and_a_header_name_the_same_span(asked: str, header: str) -> None:
    assert due_span(f"What is payable {asked}?") == due_span(header) is not None


@pytest.mark.parametrize("text", ["What were the operating leases in 2021?", "1-3 years and more than 5 years",
                                  "Useful life (in years)", "Year 3", "Years 2019-2020"])
def test_no_span_or_two_spans_name_none(text: str) -> None:
    assert due_span(text) is None


@given(st.integers(1990, 2090), st.integers(1, 9), st.sampled_from(["-", "–", "—", " - "]), st.booleans())
def test_a_span_of_years_heads_the_same_column_however_its_dash_and_end_are_written(
        first: int, length: int, dash: str, short_end: bool) -> None:
    last = first + length
    end = f"{last % 100:02d}" if short_end and last // 100 == first // 100 else str(last)
    assert heading_years(f"{first}{dash}{end}") == heading_years(f"{first}-{last}") == (first, last)


@pytest.mark.parametrize("heading", ["2022-2021", "Thereafter", "1-3 years", "2021-2022 (1)", "FY2021"])
def test_what_is_no_year_or_span_of_years_heads_no_dated_column(heading: str) -> None:
    assert heading_years(heading) is None
