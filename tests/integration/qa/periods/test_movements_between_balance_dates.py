"""A roll-forward's movement asked between two of its balance dates: the movement of the years between them.

The table states a balance, the year's movements and the next balance down its rows; each movement is
the year the later balance closes. "Granted between December 31, 2018 and December 31, 2019" is 2019's
grants, never 2018's beside them nor both added up; across two years it is the two years between the
dates. A balance asked between the same dates is still the two balances, and dates no balance row writes
are read as before.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, service_answer

UNITS = """\
# Tallis Instruments annual report

Restricted stock unit activity was as follows:

|  | Number of Units |
| --- | --- |
| Unvested at December 31, 2017 | 140 |
| Granted | 95 |
| Vested | (40) |
| Unvested at December 31, 2018 | 195 |
| Granted | 120 |
| Vested | (60) |
| Unvested at December 31, 2019 | 255 |
"""

OPTIONS = """\
# Marrow Valley annual report

Stock option activity for the fiscal years was as follows:

|  | Number of Options |
| --- | --- |
| Outstanding at September 30, 2018 | 4,310 |
| Exercised | (512) |
| Canceled | (88) |
| Outstanding at September 30, 2019 | 3,710 |
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "movements_between_balances",
                                   {"tallis.md": UNITS, "marrow.md": OPTIONS})


@pytest.mark.parametrize("question", [
    "How many units were granted between December 31, 2018 and December 31, 2019?",
    "How many units were granted from December 31, 2018 to December 31, 2019?",
    "What is the total number of units granted between 31 December 2018 and 31 December 2019?",
])
def test_a_movement_between_two_balance_dates_is_the_later_years(ingested: None, question: str) -> None:
    answer, status = service_answer(question)
    assert status is AnswerStatus.FOUND, answer
    assert "FY2019 number of units: granted (label:number of units: granted): 120" in answer
    # neither 2018's grants nor the two years added up
    assert "95" not in answer and "215" not in answer


def test_across_two_years_it_is_both_years_between_the_dates(ingested: None) -> None:
    answer, _ = service_answer("What is the total number of units vested between December 31, 2017 and "
                               "December 31, 2019?")
    assert "FY2018 + FY2019: -100" in answer


def test_a_year_end_the_glossary_does_not_close_reads_the_same(ingested: None) -> None:
    # the options table's balances are dated September 30: each filed under the year it writes
    answer, _ = service_answer("How many options were exercised between September 30, 2018 and September 30, 2019?")
    assert "FY2019 number of options: exercised (label:number of options: exercised): -512" in answer


def test_a_balance_between_the_dates_is_still_the_two_balances(ingested: None) -> None:
    answer, _ = service_answer("What is the change in unvested units between December 31, 2018 and "
                               "December 31, 2019?")
    assert "FY2019 vs FY2018 up 60" in answer


def test_dates_no_balance_row_writes_are_read_as_before(ingested: None) -> None:
    # June 30, 2018 heads no balance row: the date inside the year is asked back, as before
    answer, status = service_answer("How many units were granted between June 30, 2018 and December 31, 2019?")
    assert status is AnswerStatus.UNRECOGNIZED_PARAM, answer
    assert "120" not in answer
