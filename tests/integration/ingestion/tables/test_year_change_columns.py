"""A table of changes between two years (``2021 and 2020 | 2020 and 2019`` under "Change"), ingested and asked.

Its figures are facts of each change, never of either year: stored undated as the row qualified by the
change (``change from 2020 to 2021: rent``). A question naming the row and two years the changes chain
between gets their sum (the change over the span) or, with "average", their mean; one naming two of the
changes by their years and asking the difference gets the later change minus the earlier. Each cited.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.bootstrap import get_services
from ragspine.facts.open_vocabulary import label_of
from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, service_answer

CHANGES = """\
# Selling expenses

The following table shows the changes in selling expenses:

| | Increase (decrease) | |
| --- | --- | --- |
| (In thousands) | 2021 vs 2020 | 2020 vs 2019 |
| Commissions | $1,250 | $(430) |
| Rent | (310) | 95 |
| Total change in selling expenses | $940 | $(335) |
"""


@pytest.fixture(scope="module")
def changes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "year_changes", {"changes.md": CHANGES})


def test_each_column_is_read_as_its_change_of_no_single_year(changes: None) -> None:
    store = get_services().facts
    facts = {label_of(f.metric_code): f for metric, entity in store.open_codes()
             for f in store.find(metric_code=metric, entity=entity)}

    assert facts["change from 2020 to 2021: commissions"].value == 1250, facts
    assert facts["change from 2019 to 2020: rent"].value == 95, facts
    assert facts["change from 2020 to 2021: rent"].unit == "USD_K", facts
    assert {f.period_type for f in facts.values()} == {"UNDATED"}, facts


def test_the_change_over_two_years_is_the_sum_of_its_yearly_changes(changes: None) -> None:
    answer, status = service_answer("What is the total change in selling expenses from fiscal year 2019 to 2021?")

    assert status is AnswerStatus.FOUND, answer
    assert "from 2019 to 2021 (2019–2020 + 2020–2021), sum: 605 USD_K" in answer, answer
    assert "col=Increase (decrease)/2021 vs 2020" in answer and "col=Increase (decrease)/2020 vs 2019" in answer, answer


def test_the_average_annual_change_is_their_mean(changes: None) -> None:
    answer, status = service_answer("What is the average annual change in commissions from 2019 to 2021?")

    assert status is AnswerStatus.FOUND, answer
    assert "average annual change: 410 USD_K (mean of 2 figures)" in answer, answer


def test_two_changes_named_by_their_years_are_compared_later_against_earlier(changes: None) -> None:
    answer, status = service_answer(
        "What is the difference in the rent change in 2021 and 2020 as compared to 2020 and 2019?")

    assert status is AnswerStatus.FOUND, answer
    assert "rent: change over 2020–2021 vs 2019–2020 down 405 USD_K" in answer, answer


def test_a_chinese_question_gets_the_sum(changes: None) -> None:
    answer, status = service_answer("2019年至2021年的total change in selling expenses合计是多少？")

    assert status is AnswerStatus.FOUND, answer
    assert "（2019年至2021年：2019–2020 + 2020–2021）合计：605 USD_K" in answer, answer


@pytest.mark.parametrize("question", [
    "What was the rent in 2021?",  # a year's own figure: the table states none
    "What is the total change in rent from 2018 to 2021?",  # no change from 2018 is stated
    "What is the ratio of the commissions change to the rent change from 2019 to 2021?",
])
def test_nothing_else_is_answered_from_the_changes(changes: None, question: str) -> None:
    answer, status = service_answer(question)

    assert status is not AnswerStatus.FOUND, answer
    assert "计算自" not in answer, answer
