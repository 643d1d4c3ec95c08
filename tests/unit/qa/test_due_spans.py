"""Due spans as questions and payment schedules word them (``qa/due_years.py``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.due_years import due_span

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
