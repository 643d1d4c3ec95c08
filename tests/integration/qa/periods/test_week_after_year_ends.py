"""A 52/53-week year ending in the first days of January, asked by the calendar year its end falls in.

The balance sheet heads its columns ``January 2, 2021 | December 28, 2019``: for a December
calendar a year end in the week after December closes the year before, so ``January 2, 2021`` is
filed as FY2020 and ``December 28, 2019`` as FY2019; no column is FY2021.
A user asking "2021" means the one column dated in 2021: answered from it, the reading said.
A year that has figures of its own is never read so, and neither is a year no column is dated in.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.bootstrap import get_services
from ragspine.qa.answer import answer_question
from tests.support.domain_env import ingested_for_module, service_answer

WEEK_YEARS = """\
# Lakeside Systems annual report

Selected balance sheet items (in millions):

| Balance Sheet | January 2, 2021 | December 28, 2019 |
| --- | --- | --- |
| Deferred contract costs | $ 14 | $ 52 |
| Prepaid licences | 88 | 71 |
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "week_after_year_ends", {"lakeside.md": WEEK_YEARS})


def test_a_year_only_a_week_after_year_end_is_dated_in_is_read_as_that_column(ingested: None) -> None:
    # WHEN a user asks for the change between the calendar years the two columns are dated in
    result = answer_question("What was the change in deferred contract costs from 2019 to 2021?",
                             qa=get_services().qa)
    # THEN the column dated January 2, 2021 is compared with December 28, 2019, both cited
    assert "FY2020 vs FY2019 down 38" in result.answer
    assert "January 2 2021" in result.answer and "December 28 2019" in result.answer
    # AND the answer says how 2021 was read
    assert "read '2021' as FY2020 (January 2 2021)" in result.answer
    assert any(a.typed == "2021" for a in result.slots.assumptions)


def test_a_lookup_of_that_year_is_answered_in_the_question_language(ingested: None) -> None:
    answer, _ = service_answer("2021年的Prepaid licences是多少？")
    assert "88" in answer and "January 2 2021" in answer
    assert "将“2021”理解为FY2020 (January 2 2021)" in answer


def test_a_year_with_figures_of_its_own_is_not_read_so(ingested: None) -> None:
    # 2020 is the year the January 2, 2021 column closes: answered as it is, no reading to say
    answer, _ = service_answer("What were the prepaid licences in 2020?")
    assert "88" in answer and "read '2020'" not in answer


def test_the_prior_year_named_beside_it_is_left_unanswered(ingested: None) -> None:
    # 2020 and 2021 would both read the January 2, 2021 column: no change of a column with itself
    answer, _ = service_answer("What was the change in prepaid licences from 2020 to 2021?")
    assert "read '2021'" not in answer and "vs FY2020" not in answer


def test_a_year_no_column_is_dated_in_gets_no_figure(ingested: None) -> None:
    answer, _ = service_answer("What were the prepaid licences in 2022?")
    assert "88" not in answer and "71" not in answer
