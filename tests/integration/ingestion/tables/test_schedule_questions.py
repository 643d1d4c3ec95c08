"""A payment schedule's figures, asked through ``ragspine ingest`` and ``ragspine ask``.

A schedule's year columns (``2020 | 2021 | Thereafter``) and due spans (``Less than 1 year``) say
when its figures fall due, not which fiscal year they are of: they are stored undated under the
row qualified by the column. A question naming that year or span and the row gets the figure,
told it falls due then, only where the documents state no fiscal-year figure of the row for that
year; it is never called the fiscal year's figure.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.domain_env import cli_answer, ingested_in_fresh_domain

SCHEDULE = """\
# Contractual obligations

(in thousands)

| | Total | 2020 | 2021 | 2022 | Thereafter |
| --- | --- | --- | --- | --- | --- |
| Operating leases | 1,800 | 400 | 700 | 500 | 200 |
| Capital leases | 90 | 30 | 60 | | |
"""

SPANS = """\
# Payments due by period

(in thousands)

| | Total | Less than 1 year | 1-3 years | More than 5 years |
| --- | --- | --- | --- | --- |
| Purchase obligations | 2,640 | 1,210 | 1,030 | 400 |
"""

# the spans as some reports word them, the years first
YEARS_FIRST = """\
# Contractual commitments

(in thousands)

| | Total | Less than 1 year | Years 1-3 | Years 3-5 | More than 5 years |
| --- | --- | --- | --- | --- | --- |
| Equipment rentals | 980 | 310 | 290 | 255 | 125 |
"""

REPORTED = """\
# Leases reported

| (in thousands) | 2020 | 2019 |
| --- | --- | --- |
| Capital leases | 95 | 80 |
"""


ROWS = """\
# Lease maturities

The following represents future minimum lease payments (table in millions):

| | Vehicle leases | Finance leases |
| --- | --- | --- |
| 2021 | $138 | $6 |
| 2022 | 135 | 9 |
| 2023 | 120 | 7 |
| Thereafter | 577 | 35 |
| Total future minimum lease payments | 970 | 57 |
"""


@pytest.fixture
def asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from ingested_in_fresh_domain(monkeypatch, tmp_path,
                                        {"schedule.md": SCHEDULE, "spans.md": SPANS, "reported.md": REPORTED,
                                         "rows.md": ROWS, "years_first.md": YEARS_FIRST})


def test_a_year_of_a_schedule_answers_a_question_naming_it(asked: None) -> None:
    answer = cli_answer("What were the operating leases in 2021?")
    assert ": 700" in answer and "schedule.md · table=1,row=Operating leases,col=2021" in answer, answer
    assert "falling due in 2021" in answer, answer
    assert "FY2021" not in answer and "fiscal 2021" not in answer, answer  # nor an option naming the fiscal year


def test_a_chinese_question_is_told_in_chinese_when_the_figure_falls_due(asked: None) -> None:
    answer = cli_answer("2021年的operating leases是多少？")
    assert "：700" in answer and "col=2021" in answer and "于2021年到期" in answer, answer
    assert "FY2021" not in answer, answer


def test_a_fiscal_years_figure_wins_over_the_schedules(asked: None) -> None:
    answer = cli_answer("What were the capital leases in 2020?")
    assert ": 95" in answer and "reported.md" in answer, answer
    assert ": 30" not in answer and "falling due" not in answer, answer


def test_a_year_the_schedule_lacks_is_not_found(asked: None) -> None:
    answer = cli_answer("What were the operating leases in 2024?")
    assert "400" not in answer and "700" not in answer and "falling due" not in answer, answer


def test_a_due_span_answers_a_question_naming_it_in_its_own_words(asked: None) -> None:
    answer = cli_answer("What were the purchase obligations due within 1 year?")
    assert ": 1210" in answer and "col=Less than 1 year" in answer, answer
    assert "falling due in less than 1 year" in answer, answer  # the span as the schedule writes it
    assert "FY20" not in answer and "2640" not in answer, answer  # no year assumed, nor the row's total given


def test_another_due_span_answers_its_own(asked: None) -> None:
    answer = cli_answer("What were the purchase obligations due within 1-3 years?")
    assert ": 1030" in answer and "col=1-3 years" in answer and "falling due in 1-3 years" in answer, answer


def test_a_span_written_years_first_answers_a_question_naming_it(asked: None) -> None:
    answer = cli_answer("What were the equipment rentals due in 3 to 5 years?")
    assert ": 255" in answer and "col=Years 3-5" in answer and "falling due in years 3-5" in answer, answer
    assert "980" not in answer and "FY20" not in answer, answer


def test_the_total_of_a_row_is_the_schedules_total_column(asked: None) -> None:
    answer = cli_answer("What is the total operating leases?")
    assert ": 1800" in answer and "col=Total" in answer and "no period" in answer, answer


def test_a_fiscal_years_total_still_wins(asked: None) -> None:
    answer = cli_answer("What were the total capital leases in 2020?")
    assert ": 95" in answer and "reported.md" in answer and ": 90" not in answer, answer


def test_the_total_of_a_span_is_not_the_rows_total(asked: None) -> None:
    answer = cli_answer("What is the total purchase obligations due within 5 years?")
    assert "2640" not in answer, answer  # the Total column holds what falls due after 5 years too


def test_a_change_between_a_schedules_years_reads_no_single_year(asked: None) -> None:
    answer = cli_answer("What was the increase in operating leases from 2021 to 2022?")
    assert "falling due" not in answer, answer


def test_a_schedule_down_the_rows_answers_the_year_a_question_writes(asked: None) -> None:
    answer = cli_answer("What were the finance leases for 2022?")
    assert ": 9" in answer and "rows.md · table=1,row=2022,col=Finance leases" in answer, answer
    assert "falling due in 2022" in answer and "FY2022" not in answer, answer


def test_two_years_of_a_schedule_down_the_rows_answer_each_years_own_cell(asked: None) -> None:
    answer = cli_answer("What were the finance leases in 2022 and 2023?")
    # each year's own cell, cited, said to fall due in it: never one year's figure for both, nor a fiscal year's
    assert "2022: finance leases (label:2022: finance leases): 9 USD_M" in answer, answer
    assert "2023: finance leases (label:2023: finance leases): 7 USD_M" in answer, answer
    assert "rows.md · table=1,row=2022,col=Finance leases" in answer, answer
    assert "rows.md · table=1,row=2023,col=Finance leases" in answer, answer
    assert "falling due in 2022" in answer and "falling due in 2023" in answer and "FY2022" not in answer, answer
