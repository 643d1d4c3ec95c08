"""A total asked of an item the documents state as a current and a non-current row only, through ``ragspine
ingest`` and ``answer_question``: the two rows added up and each cited; never one of them alone, never a pair
the question's words do not name, never where the question says more than the rows do."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, service_answer

REPORT = """\
# Balance sheet items

Selected balance sheet items were as follows (in thousands):

| | 2024 | 2023 |
| --- | --- | --- |
| Deferred revenue, current | 4,100 | 3,900 |
| Deferred revenue, non-current | 1,500 | 1,700 |
| Hedged borrowings, current | 600 | 500 |
| Hedged borrowings, non-current | 2,400 | 2,500 |
| Non-hedged borrowings, current | 90 | 80 |
| Non-hedged borrowings, non-current | 910 | 920 |
| Provisions (current) | (70) | (60) |
| Provisions (non-current) | (230) | (240) |
| Lease liabilities, current | 35 | 30 |
| Lease liabilities, non-current | 165 | 150 |
| Total lease liabilities | 200 | 180 |
"""


# columns naming what each row's figures are of, with the unit run on ("GBP’Million"): the rows' names write it
EXPOSURE = """\
# Currency exposure

The group's monetary items exposed to currency risk are listed below:

| | EUR denominated GBP’Million | Non-EUR denominated GBP’Million |
| --- | --- | --- |
| As at 31 December 2024 | | |
| Monetary assets, current | 500 | 80 |
| Monetary assets, non-current | 40 | 5 |
| As at 31 December 2023 | | |
| Monetary assets, current | 450 | 70 |
| Monetary assets, non-current | 30 | 4 |
"""


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "parts", {"items.md": REPORT})


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=st.sampled_from([
    "What was the total deferred revenue in 2024?",
    "What is the total deferred revenue for 2024?",
    "How much was total deferred revenue in 2024?",
    "What was the company's total Deferred Revenue in 2024?",
]))
def test_the_total_of_an_item_stated_in_two_parts_adds_both(asked: None, question: str) -> None:
    answer, status = service_answer(question)

    assert status is AnswerStatus.FOUND, answer
    assert ": 5600 K（计算自：" in answer, answer
    assert "row=Deferred revenue current,col=2024" in answer and "row=Deferred revenue non-current,col=2024" in answer


def test_a_change_in_such_a_total_adds_both_parts_of_each_year(asked: None) -> None:
    answer, status = service_answer("What is the total deferred revenue in 2023?")

    assert status is AnswerStatus.FOUND, answer
    assert ": 5600 K（计算自：" in answer, answer  # 3,900 + 1,700


@pytest.mark.parametrize(("question", "total", "rows"), [
    ("What were the total hedged borrowings in 2024?", "3000", ("Hedged borrowings current", "Hedged borrowings "
                                                                 "non-current")),
    ("What were the total non-hedged borrowings in 2024?", "1000", ("Non-hedged borrowings current",
                                                                     "Non-hedged borrowings non-current")),
])
def test_a_hyphenated_word_tells_two_items_parts_apart(asked: None, question: str, total: str,
                                                      rows: tuple[str, str]) -> None:
    answer, status = service_answer(question)

    assert status is AnswerStatus.FOUND, answer
    assert f": {total} K（计算自：" in answer, answer
    assert all(f"row={row},col=2024" in answer for row in rows), answer


def test_parts_written_as_negatives_are_added_and_said_by_size(asked: None) -> None:
    answer, status = service_answer("What were the total provisions in 2024?")

    assert status is AnswerStatus.FOUND, answer
    assert ": -300 K; all are written as negatives, so by size 300 K（计算自：" in answer, answer


def test_an_item_stated_whole_is_that_row(asked: None) -> None:
    answer, status = service_answer("What were the total lease liabilities in 2024?")

    assert status is AnswerStatus.FOUND, answer
    assert "total lease liabilities (label:total lease liabilities): 200 K" in answer, answer
    assert "计算自" not in answer, answer


@pytest.mark.parametrize("question", [
    "What was the total deferred revenue at the end of the period in 2024?",  # words the rows do not say
    "What was the total current deferred revenue in 2024?",  # one part named: that row, not the sum
])
def test_words_beyond_the_item_add_nothing_up(asked: None, question: str) -> None:
    answer, _ = service_answer(question)

    assert "5600" not in answer, answer


@pytest.fixture(scope="module")
def exposure(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "exposure", {"fx.md": EXPOSURE})


@pytest.mark.parametrize(("question", "total"), [
    ("What were the total EUR denominated monetary assets as at 31 December 2024?", "540"),
    ("What were the total non-EUR denominated monetary assets as at 31 December 2023?", "74"),
])
def test_rows_whose_names_write_a_unit_word_are_added_and_shown(exposure: None, question: str, total: str) -> None:
    # "GBP’Million" in the rows' names is the document's words, no figure the answer made up
    answer, status = service_answer(question)

    assert status is AnswerStatus.FOUND, answer
    assert f": {total} GBP_M（计算自：" in answer, answer
