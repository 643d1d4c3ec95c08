"""A payment schedule's years compared, added up and averaged, asked through ``ragspine ingest`` and ``ask``.

A span no column is headed with ("due within 5 years") is the sum of the columns that cover it exactly.

A schedule whose rows are the years payments fall due (``2021 | 138 | 6``) stores each cell under
its column qualified by the year (``2021: operating leases``), so "operating leases" alone is
one of several rows. A question naming the row and its years gets the change, sum or mean of
those years' cells, each cited and said to fall due then; never a fiscal year's figure.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.domain_env import cli_answer, ingested_in_fresh_domain

LEASES = """\
# Leases

Future minimum lease payments (in millions):

| | Operating Leases | Finance Leases |
| --- | --- | --- |
| 2021 | $138 | $6 |
| 2022 | 135 | 6 |
| 2023 | 120 | 7 |
| 2024 | 94 | 7 |
| Thereafter | 577 | 35 |
| Total future minimum lease payments | 1,064 | 61 |
"""

DUE = """\
# Contractual obligations

(in thousands)

| | Up to 1 year | 1 to 3 years | 3 to 5 years | More than 5 years | Total |
| --- | --- | --- | --- | --- | --- |
| Purchase obligations | 55,755 | 16,220 | 7,595 | 17,649 | 97,219 |
"""


@pytest.fixture
def asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from ingested_in_fresh_domain(monkeypatch, tmp_path, {"leases.md": LEASES, "due.md": DUE})


def test_a_change_between_two_years_of_a_schedule_is_the_later_minus_the_earlier(asked: None) -> None:
    answer = cli_answer("What was the change in operating leases between 2021 and 2022?")
    assert "falling due in 2022 vs 2021 down 3 USD_M（−2.17%）" in answer, answer
    assert "leases.md · table=1,row=2021,col=Operating Leases" in answer, answer
    assert "leases.md · table=1,row=2022,col=Operating Leases" in answer, answer
    assert "FY2021" not in answer and "FY2022" not in answer and "Which did you mean" not in answer, answer


@pytest.mark.parametrize("question", [
    "What was the change in operating leases from 2021 to 2022?",
    "How much did operating leases change between 2022 and 2021?",
    "What is the difference in operating leases between 2021 and 2022?",
])
def test_the_change_is_the_same_however_the_two_years_are_written(asked: None, question: str) -> None:
    answer = cli_answer(question)
    assert "falling due in 2022 vs 2021 down 3 USD_M（−2.17%）" in answer, answer


def test_a_percentage_change_in_a_year_from_another_is_computed_from_those_cells(asked: None) -> None:
    answer = cli_answer("What is the percentage change in finance leases in 2023 from 2022?")
    assert "falling due in 2023 vs 2022 up 1 USD_M（+16.67%）" in answer, answer


def test_a_sum_over_a_range_of_years_adds_each_years_cell(asked: None) -> None:
    answer = cli_answer("What is the sum of operating leases from 2021 to 2024?")
    assert "operating leases falling due in 2021–2024, sum: 487 USD_M (sum of 4 figures)" in answer, answer
    assert answer.count("col=Operating Leases") >= 8, answer  # each cell on its line and in the sum's citation
    assert "577" not in answer and "1064" not in answer, answer  # no later year, no total


def test_an_average_of_two_years_is_their_mean(asked: None) -> None:
    answer = cli_answer("What is the average finance leases in 2023 and 2024?")
    assert "finance leases falling due in 2023–2024, average: 7 USD_M (mean of 2 figures)" in answer, answer


def test_a_year_the_schedule_lacks_computes_nothing(asked: None) -> None:
    answer = cli_answer("What was the change in operating leases between 2024 and 2025?")
    assert "vs" not in answer and "sum:" not in answer and "Which did you mean" in answer, answer


def test_a_ratio_of_two_years_is_not_read_as_a_change(asked: None) -> None:
    answer = cli_answer("What is the ratio of operating leases in 2022 to 2021?")
    assert "down 3" not in answer and "Which did you mean" in answer, answer


@pytest.mark.parametrize("question", [
    "What is the company's total purchase obligations that are due within 5 years?",
    "What is the total of the purchase obligations due within 5 years?",
])
def test_a_span_no_column_heads_is_the_sum_of_the_columns_covering_it(asked: None, question: str) -> None:
    answer = cli_answer(question)
    assert ("purchase obligations falling due within 5 years (up to 1 year + 1 to 3 years + 3 to 5 years), "
            "sum: 79570 K (sum of 3 figures)") in answer, answer
    assert "17649" not in answer and "97219" not in answer, answer  # neither later payments nor the total


def test_a_span_the_columns_do_not_cover_exactly_is_computed_from_nothing(asked: None) -> None:
    answer = cli_answer("What are the purchase obligations due within 4 years?")
    assert "sum:" not in answer and "71975" not in answer and "79570" not in answer, answer
    assert "97219" not in answer, answer  # the Total column holds later payments too


def test_a_span_one_column_heads_is_that_column(asked: None) -> None:
    answer = cli_answer("What are the purchase obligations due within 1 year?")
    assert ": 55755 K" in answer and "sum:" not in answer, answer


def test_a_chinese_change_between_two_years_is_said_in_chinese(asked: None) -> None:
    answer = cli_answer("2021年至2022年operating leases的变化是多少？")
    assert "operating leases：2022年到期 较 2021年到期 减少 3 USD_M（−2.17%）（计算自：" in answer, answer
    assert "FY2021" not in answer, answer


def test_a_japanese_sum_of_two_years_is_said_in_japanese(asked: None) -> None:
    answer = cli_answer("2021年から2022年までのoperating leasesの合計は？")
    assert "operating leases（2021–2022年期日）の合計：273 USD_M（2 個の数値の合計）（计算自：" in answer, answer
