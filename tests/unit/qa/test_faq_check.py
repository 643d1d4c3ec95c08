"""Locating an FAQ citation among passages, and the numbers its passage must state."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.faq_check import cited_texts, locator_pairs, states_numbers, unsupported_numbers

PASSAGES = [
    ("Summary table", "sheet=Summary"),
    ("Item: Reporting unit; Value: JPY billion", "sheet=Summary,row=2"),
    ("Item: Employees; Value: 3100", "sheet=Summary,row=3"),
    ("Fiscal year = calendar year (1 January – 31 December).", "slide=1"),
    ("All amounts are in millions of US dollars.", "slide=1"),
    ("Items can be returned within 30 days.", "heading=Returns, exchanges,para=1"),
]


@pytest.mark.parametrize(("cited", "expected"), [
    ("sheet=Summary,cell=B2", ("Item: Reporting unit; Value: JPY billion",)),  # a cell is checked against its row
    ("sheet=Summary,cell=B3,row=3,col=2", ("Item: Employees; Value: 3100",)),
    ("slide=1", ("Fiscal year = calendar year (1 January – 31 December).", "All amounts are in millions of US dollars.")),
    ("heading=Returns, exchanges", ("Items can be returned within 30 days.",)),  # a comma inside a heading
    ("slide=9", ()),
    ("", ()),
])
def test_a_citation_finds_the_passages_at_its_locator(cited: str, expected: tuple[str, ...]) -> None:
    assert cited_texts(cited, PASSAGES) == expected


def test_a_cell_names_its_row() -> None:
    assert locator_pairs("sheet=Q,cell=C5") == {("sheet", "Q"), ("cell", "C5"), ("row", "5")}


@given(st.integers(min_value=1000, max_value=999_999), st.sampled_from(["{:,}", "{}", "{:,}.0"]),
       st.sampled_from(["{:,}", "{}"]))
def test_a_number_stated_in_another_form_is_supported(value: int, said: str, written: str) -> None:
    answer = f"The group has {said.format(value)} employees."
    assert states_numbers(answer)
    assert unsupported_numbers(answer, [f"Employees: {written.format(value)}"]) == ()
    assert unsupported_numbers(answer, [f"Employees: {written.format(value + 1)}"]) == (str(value),)


def test_an_answer_without_numbers_states_none() -> None:
    assert not states_numbers("Returns need the original receipt.")


def test_a_number_the_question_states_is_allowed() -> None:
    assert unsupported_numbers("Yes, FY2025 figures are in JPY billion.", ["JPY billion"], asked=frozenset({"2025"})) == ()
