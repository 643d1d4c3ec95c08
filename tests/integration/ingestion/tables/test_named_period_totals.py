"""A lower-case "total" beside two named years, through ``ragspine ingest`` and ``answer_question``: the sum of
the years' figures, also where "total" is the row's own word; a capitalised "Total" quoting the row, or
"respectively", asks each year's figure and no sum."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, service_answer

REPORT = """\
# Orchard cooperative

| (in thousands) | 2021 | 2020 |
| --- | --- | --- |
| Cider pressing | 410 | 380 |
| Bottling | 125 | 140 |
| Total cost of pressing and bottling | 535 | 520 |
| Crates on hand | 70 | 65 |

The cooperative presses and bottles cider from its members' apples.
"""


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "orchard", {"orchard.md": REPORT})


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=st.sampled_from([
    "What is the total cost of pressing and bottling in both 2021 and 2020?",
    "What was the total cost of pressing and bottling in 2020 and 2021?",
    "What is the total value of cost of pressing and bottling between 2020 to 2021?",
]))
def test_a_rows_own_total_over_two_named_years_is_their_sum(asked: None, question: str) -> None:
    answer, status = service_answer(question)

    assert status is AnswerStatus.FOUND, answer
    first = answer.splitlines()[0]
    assert ": 1055 " in first and "计算自" in first, answer
    assert "535" in answer and "520" in answer, answer  # each year's figure still shown


def test_a_total_word_beside_a_row_without_one_is_their_sum(asked: None) -> None:
    answer, _ = service_answer("What was the total crates on hand in 2020 and 2021?")

    assert ": 135" in answer.splitlines()[0], answer


@pytest.mark.parametrize("question", [
    "What was the Total cost of pressing and bottling in 2021 and 2020?",
    "What was the total cost of pressing and bottling in 2021 and 2020 respectively?",
    "What was the total cost of pressing and bottling in 2021?",
])
def test_a_quoted_total_or_each_year_asks_no_sum(asked: None, question: str) -> None:
    answer, status = service_answer(question)

    assert status is AnswerStatus.FOUND, answer
    assert "1055" not in answer, answer
    assert "535" in answer, answer
