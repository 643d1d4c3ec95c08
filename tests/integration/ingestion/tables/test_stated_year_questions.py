"""Years a table writes without the glossary's calendar, asked through ``ragspine ingest`` and ``ragspine ask``.

A domain folder fresh from ``ragspine domain init`` keeps a December year. The report below
dates its columns by 30 June (an Australian year), by split years, by a retailer's year ends in
January and February (named by their end, as its text says), and its share table by balance rows; "in 2019" is the column or the rows that write 2019, with the header as written in
the locator. A table whose two columns could both be 2019 gives no figure for 2019: the answer
quotes the row's passage with both dates.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.domain_env import cli_answer, ingested_in_fresh_domain

REPORT = """\
# Annual report

| | 30 June 2019 | 30 June 2018 | Change |
| --- | --- | --- | --- |
| | $’000 | $’000 | % |
| Underlying EBITDA | 85,123 | 62,575 | 36% |

| € million | 2017/2018 | 2018/2019 |
| --- | --- | --- |
| Income taxes on continuing operations | −216 | −298 |

| Non-vested awards | Shares |
| --- | --- |
| Non-vested at December 31, 2018 | 1,187,586 |
| Granted | 473,550 |
| Vested | (365,223) |
| Non-vested at December 31, 2019 | 1,283,281 |

| (In millions) | As of August 1, 2019 | As of October 15, 2019 |
| --- | --- | --- |
| Acquired inventories | 40.7 | 40.0 |

| (In millions) | January 30, 2021 | February 1, 2020 |
| --- | --- | --- |
| Gift card liabilities | 96.4 | 88.1 |

Gift card liabilities at the end of fiscal 2021 (ended January 30, 2021) rose with holiday sales.
"""


@pytest.fixture
def asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from ingested_in_fresh_domain(monkeypatch, tmp_path, {"report.md": REPORT})


def test_a_mid_year_column_answers_the_year_it_writes(asked: None) -> None:
    answer = cli_answer("What was the underlying EBITDA in 2018?")
    assert "62575" in answer and "col=30 June 2018" in answer, answer
    assert "85123" not in answer


def test_a_split_year_answers_the_year_it_ends_in(asked: None) -> None:
    answer = cli_answer("What was the amount of income taxes on continuing operations in FY2019?")
    assert "-298" in answer and "col=2018/2019" in answer, answer


def test_a_roll_forward_movement_answers_the_year_its_closing_balance_closes(asked: None) -> None:
    answer = cli_answer("What is the number of non-vested shares granted in 2019?")
    assert "473550" in answer and "col=Shares" in answer, answer


def test_two_columns_of_one_year_give_no_figure(asked: None) -> None:
    answer = cli_answer("What were the acquired inventories in 2019?")
    assert "FY2019 acquired inventories" not in answer, answer  # no figure picked as the year's
    # each column is read as of its own date: both offered by their dates, neither given as the year's
    assert "august 1, 2019: acquired inventories" in answer and "october 15, 2019: acquired inventories" in answer, \
        answer


def test_a_date_of_its_own_column_answers_a_question_naming_it(asked: None) -> None:
    answer = cli_answer("What were the acquired inventories as of October 15, 2019?")
    assert "october 15, 2019: acquired inventories" in answer and ": 40.0" in answer, answer
    assert "col=As of October 15 2019" in answer and "FY2019" not in answer, answer


def test_a_year_ended_in_january_or_february_answers_the_year_its_date_writes(asked: None) -> None:
    answer = cli_answer("What was the change in gift card liabilities from 2020 to 2021?")
    assert "FY2021 vs FY2020 up 8.3" in answer, answer
    assert "col=February 1 2020" in answer and "col=January 30 2021" in answer, answer
