"""A column of a day inside a year beside a column of a year end, and a question naming both dates.

An acquisition's allocation is stated first as estimated at a day inside the year, then as final at
the year end (``Estimated at June 30, 2019 | Adjustments | Final as of December 31, 2019``). For a
December calendar the final column is FY2019; the estimated one is no fiscal year's, yet its figures
are stated for its date: read as of that date, of no fiscal year. A question naming both dates compares
the row's two cells, each cited under its own column; the year end is still the year it closes.
A header covering a length of time ("Six Months Ended June 30, 2019") is no day's balance: not read so.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, rows_read, service_answer

ALLOCATION = """\
# Harbourline Foods annual report

The purchase price allocation of the Brightwater acquisition (in thousands):

|  | Estimated at June 30, 2019 | Adjustments | Final as of December 31, 2019 |
| --- | --- | --- | --- |
| Cash | $1,240 | $ - | $1,240 |
| Inventories | 416 | 24 | 440 |
| Total purchase consideration | 5,610 | 35 | 5,645 |
"""

SIX_MONTHS = """\
# Corvale Tools annual report

Selected operating figures (in thousands):

|  | Six Months Ended June 30, 2019 | December 31, 2019 |
| --- | --- | --- |
| Service fees | 310 | 655 |
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "day_inside_a_year",
                                   {"harbourline.md": ALLOCATION, "corvale.md": SIX_MONTHS})


def test_the_day_inside_the_year_is_read_as_of_its_date(ingested: None) -> None:
    read = rows_read()
    # the estimated column: of no fiscal year, named by its date; the final column: FY2019, as before
    assert read["june 30, 2019: inventories"][:2] == ("UNDATED", 416)
    assert read["inventories"][:2] == ("FY", 440)


def test_a_question_naming_both_dates_compares_the_two_cells(ingested: None) -> None:
    answer, status = service_answer("What is the change in inventories between June 30 and December 31, 2019?")
    assert status is AnswerStatus.FOUND, answer
    assert "2019-12-31 vs 2019-06-30 up 24" in answer
    # each figure cited under its own column
    assert "col=Estimated at June 30 2019" in answer and "col=Final as of December 31 2019" in answer


def test_a_percentage_change_between_the_dates_is_computed(ingested: None) -> None:
    answer, _ = service_answer(
        "What is the percentage change in the total purchase consideration at June 30 and December 31, 2019?")
    assert "up 35" in answer and "+0.62%" in answer


def test_the_year_end_alone_is_still_its_year(ingested: None) -> None:
    answer, _ = service_answer("What was the cash as of December 31, 2019?")
    assert "1240" in answer and "col=Final as of December 31 2019" in answer


def test_a_length_of_time_is_no_days_balance(ingested: None) -> None:
    # six months' fees are no balance on June 30: no cell of that date, and no change against the year end
    assert not any(row.startswith("june 30, 2019: service fees") for row in rows_read())
    answer, _ = service_answer("What is the change in service fees between June 30 and December 31, 2019?")
    assert "vs 2019-06-30" not in answer
