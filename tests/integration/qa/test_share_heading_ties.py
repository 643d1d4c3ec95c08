"""A line item stated twice, as an amount under one heading and as a share under a heading of percentages, through
``ragspine ingest`` and ``answer_question``: a question naming the item alone asks the amount; an item
under two headings of amounts is still asked back."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, service_answer

ALLOCATION = """\
# Earnings allocation

| | 2024 | 2023 |
| --- | --- | --- |
| Participating shares at end of period: | | |
| Common shares outstanding | 61.2 | 60.8 |
| Unvested performance shares | 1.4 | 1.0 |
| Total | 62.6 | 61.8 |
| Percentage of income allocated to: | | |
| Common shares | 97.8 % | 98.4 % |
| Unvested performance shares | 2.2 % | 1.6 % |
"""

# the same item as two amounts: which one is meant is the user's to say
RECEIVABLES = """\
# Receivables

| | 2024 | 2023 |
| --- | --- | --- |
| Current | | |
| Grant receivables | 3,400 | 3,150 |
| Non-current | | |
| Grant receivables | 1,200 | 1,090 |
"""


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "share_headings",
                                   {"allocation.md": ALLOCATION, "receivables.md": RECEIVABLES})


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=st.sampled_from(["What is the average unvested performance shares?",
                                 "What was the average unvested performance shares for 2024 and 2023?"]))
def test_the_item_named_alone_is_its_amount(asked: None, question: str) -> None:
    # GIVEN the item's amount under one heading and its share under a heading of percentages
    # WHEN the question names the item alone and asks no percentage
    answer, status = service_answer(question)

    # THEN the amounts are averaged, cited from the amount's row
    assert status is AnswerStatus.FOUND, answer
    assert "average: 1.2" in answer, answer
    assert "row=Participating shares at end of period: Unvested performance shares,col=2024" in answer, answer
    assert "Percentage of income" not in answer, answer


def test_two_amounts_of_one_item_are_asked_back(asked: None) -> None:
    answer, _ = service_answer("What is the change in grant receivables from 2023 to 2024?")

    assert "Choose one" in answer and "non-current: grant receivables" in answer, answer
