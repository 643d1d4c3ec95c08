"""Columns each headed by a company's own quarter-end date (``June 28, 2024 | March 29, 2024``), ingested and asked.

Such a date ends none of the glossary's fiscal years or quarters, and several in one year cannot all be
"that year": each column's figures are read as of its date, named by it (``june 28, 2024: net sales``),
undated. A question naming a row and two of those dates (a date without its year taking the year written
after it) gets the later date's figure against the earlier's, each cited under its date; the dates are
never read as a fiscal year, not even one closing the year beside the others of that year (``Dec. 28, 2019``
beside ``Sept. 28, 2019``), written day first or as ``2019年12月31日``. A question asking a longer span ended on
such a date ("the twelve months ended") is not answered with its quarter's column.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.bootstrap import get_services
from ragspine.qa.result import AnswerStatus
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module, rows_read, service_answer

QUARTERS = """\
# Quarterly results

(in millions)

| Three Months Ended | June 28, 2024 | March 29, 2024 | January 26, 2024 | October 27, 2023 |
| --- | --- | --- | --- | --- |
| Net sales | $5,120 | $4,870 | $5,310 | $4,955 |
| Revenue | $5,400 | $5,020 | $5,500 | $5,100 |
| Operating income | $610 | $655 | $590 | $540 |
"""

# the dates broken over two header lines, a period word over them
SPLIT = """\
# Stock prices

| | 12 Weeks Ended | | |
| --- | --- | --- | --- |
| | August 4, | May 12, | February 18, |
| | 2024 | 2024 | 2024 |
| High | $61.20 | $58.75 | $55.10 |
| Low | $49.05 | $47.80 | $44.35 |
"""

# quarter-ends of one year, the first of them in the last week of December: a quarter too, never the year
YEAR_CLOSING = """\
# Selected quarterly data

(in thousands)

| | Dec. 28, 2019 | Sept. 28, 2019 | June 29, 2019 | Mar. 30, 2019 |
| --- | --- | --- | --- | --- |
| Net revenue | 98,400 | 91,200 | 88,700 | 80,100 |
| Net income (loss) | 4,100 | (1,200) | 2,900 | 1,500 |
"""

# the same written day first, as British reports do, and as Japanese ones do
DAY_FIRST = """\
# Quarterly trading (£ million)

| | 31 December 2019 | 30 September 2019 | 30 June 2019 |
| --- | --- | --- | --- |
| Group revenue | 412.5 | 398.1 | 377.0 |
| Operating profit | 41.2 | (3.6) | 35.0 |
"""

JAPANESE = """\
# 四半期業績（単位：百万円）

| | 2019年12月31日 | 2019年9月30日 |
| --- | --- | --- |
| 売上高 | 12,400 | 11,800 |
| 営業利益 | 1,300 | (200) |
"""


@pytest.fixture(scope="module")
def quarters(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "own_dates", {"quarters.md": QUARTERS, "prices.md": SPLIT,
                                                                 "closing.md": YEAR_CLOSING, "uk.md": DAY_FIRST,
                                                                 "jp.md": JAPANESE})


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, quarters: None) -> Ask:
    return asker(request.param, get_services())


def test_each_column_is_read_as_of_its_own_date(quarters: None) -> None:
    facts = rows_read()

    assert facts["june 28, 2024: net sales"][:2] == ("UNDATED", 5120), facts
    assert facts["october 27, 2023: operating income"][:2] == ("UNDATED", 540), facts
    assert facts["march 29, 2024: revenue"][:2] == ("UNDATED", 5020), facts  # a row the glossary reads, too
    assert facts["may 12, 2024: low"][:2] == ("UNDATED", 47.8), facts
    assert not any("three months ended" in name for name in facts), facts  # the heading of the dates heads no row


def test_a_row_of_two_dates_is_compared_later_against_earlier(ask: Ask) -> None:
    body = ask("What was the change in net sales between the quarters ended June 28 and March 29 in 2024?")
    answer = body["answer"]

    assert body["status"] == "found", answer
    assert "net sales: 2024-06-28 vs 2024-03-29 up 250 USD_M（+5.13%）" in answer, answer
    assert "june 28, 2024: net sales" in answer and ": 4870 USD_M" in answer, answer
    assert "FY2024" not in answer and "FY2023" not in answer, answer


def test_dates_of_two_years_and_a_percentage(quarters: None) -> None:
    answer, status = service_answer("What was the percentage change in operating income between the quarters "
                                    "ended January 26, 2024 and October 27, 2023?")

    assert status is AnswerStatus.FOUND, answer
    assert "operating income: 2024-01-26 vs 2023-10-27 up 50 USD_M（+9.26%）" in answer, answer
    assert "year ended" not in answer, answer  # no January year end read: the dates are no fiscal year's


def test_dates_broken_over_header_lines_are_read_too(quarters: None) -> None:
    answer, status = service_answer("What was the change in the high between May 12, 2024 and August 4, 2024?")

    assert status is AnswerStatus.FOUND, answer
    assert "high: 2024-08-04 vs 2024-05-12 up 2.45（+4.17%）" in answer, answer


@pytest.mark.parametrize("question", [
    "What was the change in net sales between June 30 and March 31 in 2024?",  # dates no column states
    "What was the net sales in 2024?",  # a year: none of these figures is of a fiscal year
    "What is the difference between the high and low price on August 4, 2024?",  # two rows compared
])
def test_nothing_else_is_answered_from_the_dated_columns(quarters: None, question: str) -> None:
    answer, status = service_answer(question)

    assert status is not AnswerStatus.FOUND, answer
    assert "计算自" not in answer and "5120" not in answer, answer


@pytest.mark.parametrize(("name", "value"), [("december 28, 2019: net revenue", 98400),
                                             ("december 31, 2019: group revenue", 412.5),
                                             ("december 31, 2019: 売上高", 12400),
                                             ("september 30, 2019: 営業利益", -200)])
def test_a_quarter_end_closing_the_year_beside_others_of_that_year_is_read_as_its_date(
        quarters: None, name: str, value: float) -> None:
    assert rows_read()[name][:2] == ("UNDATED", value)


@pytest.mark.parametrize("question", ["What was the net revenue in 2019?", "What was the group revenue in 2019?",
                                      "2019年の売上高はいくらですか？"])
def test_a_year_is_not_answered_with_its_last_quarter(quarters: None, question: str) -> None:
    answer, status = service_answer(question)

    assert status is not AnswerStatus.FOUND, answer
    assert not any(figure in answer for figure in ("98400", "412.5", "12400")), answer


def test_a_quarter_ended_on_a_date_is_its_column(quarters: None) -> None:
    answer, status = service_answer("What was the group revenue for the quarter ended 31 December 2019?")

    assert status is AnswerStatus.FOUND, answer
    assert "412.5 GBP_M" in answer and "uk.md · table=1,row=Group revenue,col=31 December 2019" in answer, answer


@pytest.mark.parametrize("question", ["What was the group revenue for the twelve months ended December 31, 2019?",
                                      "What was the net revenue for the year ended December 28, 2019?",
                                      "What was the net revenue for the nine months ended Sept. 28, 2019?"])
def test_a_longer_span_ended_on_a_quarter_end_is_not_that_quarter(quarters: None, question: str) -> None:
    answer, status = service_answer(question)

    assert status is not AnswerStatus.FOUND, answer
    assert not any(figure in answer for figure in ("98400", "412.5", "91200")), answer
