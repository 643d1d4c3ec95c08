"""Rows of one table compared, asked through ``ragspine ingest`` and ``ragspine ask`` on a fresh domain folder.

A segment table of one year, a tax table of three years and an intangible-assets table stating no
period: the gap between two rows, a share of the row the question calls the total or of rows it adds
up itself, and the change of an average between two year spans are computed from the cells, each
cited; rows of two undated tables are never compared.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.domain_env import cli_answer, ingested_in_fresh_domain

SEGMENTS = """\
# Net sales by region

(in thousands)

| | 2019 | 2018 |
| --- | --- | --- |
| APAC | 533,340 | 479,987 |
| EMEA | 315,535 | 283,000 |
"""

INTANGIBLES = """\
# Intangible assets acquired

(in millions)

| | Useful life (in years) | Fair value amount |
| --- | --- | --- |
| Purchased technology | 4.2 | 232 |
| Trademarks and tradenames | 5.0 | 25 |
| Total intangible assets | | 492 |
"""

TAX = """\
# Current tax expense

(in millions)

| | 2019 | 2018 | 2017 |
| --- | --- | --- | --- |
| Total current tax expense | 1,062 | 1,018 | 950 |
| Fees paid | 40 | 30 | 20 |
| Tax advice | 5 | 15 | 10 |
"""

OTHER_INTANGIBLES = """\
# Intangible assets of the second acquisition

(in millions)

| | Fair value amount |
| --- | --- |
| Customer lists | 215 |
"""


@pytest.fixture
def asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from ingested_in_fresh_domain(monkeypatch, tmp_path, {"segments.md": SEGMENTS, "intangibles.md": INTANGIBLES,
                                                                "other.md": OTHER_INTANGIBLES, "tax.md": TAX})


def test_the_gap_between_two_rows_of_one_year(asked: None) -> None:
    answer = cli_answer("What was the difference in 2019 between APAC and EMEA?")
    assert ": 217805 K (apac (label:apac) above emea (label:emea))" in answer, answer
    assert "segments.md · table=1,row=APAC,col=2019" in answer and "segments.md · table=1,row=EMEA,col=2019" in answer


def test_the_gap_between_two_rows_of_a_table_stating_no_period(asked: None) -> None:
    answer = cli_answer("What was the difference in the fair value amount between purchased technology and "
                        "trademarks and tradenames?")
    assert ": 207 M (" in answer and "the document states no period for this figure" in answer, answer


def test_rows_of_two_undated_tables_are_not_compared(asked: None) -> None:
    answer = cli_answer("What was the difference in the fair value amount between purchased technology and "
                        "customer lists?")
    assert "17 USD_M" not in answer and "计算自" not in answer, answer


def test_the_change_of_an_average_between_two_year_spans(asked: None) -> None:
    answer = cli_answer("What is the change in the average total current tax expense between 2017-2018, and "
                        "2018-2019?")
    assert "(2018–2019 against 2017–2018): 56 M (means 1040 and 984)" in answer, answer
    assert all(f"tax.md · table=1,row=Total current tax expense,col={year}" in answer for year in (2017, 2018, 2019))


def test_a_share_of_the_rows_the_question_adds_up(asked: None) -> None:
    answer = cli_answer("What percentage of fees paid and tax advice combined is tax advice in 2019?")
    assert "combined: 11.11% (sum 45 M)" in answer, answer
