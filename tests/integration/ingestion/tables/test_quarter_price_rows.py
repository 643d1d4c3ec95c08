"""A share-price table sets its quarters down the rows and kinds of figure across, asked through ``ragspine ask``.

``| | High | Low |`` over ``2025:`` and its ``First Quarter`` … ``Fourth Quarter`` rows states the
high and low of each quarter of 2025. Before, each row was read as a line item of the year
("high: first quarter" of FY2025, four of them colliding) or not at all, so "the high in the
fourth quarter of 2025" and "the average quarterly low" had no figure. A year written once over
the kinds (``Share Price Range 2025`` centred over ``Low | High``) dates the table the same way.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.domain_env import cli_answer, ingested_in_fresh_domain
from tests.support.markdown_facts import markdown_table_facts

_BY_YEAR_ROWS = """\
# Market for our ordinary shares

The table below gives the high and low trading prices of our ordinary shares in each quarter.

| | High | Low |
| --- | --- | --- |
| 2025: | | |
| Fourth Quarter | $17.35 | $14.75 |
| Third Quarter | $15.10 | $13.00 |
| Second Quarter | $16.80 | $12.40 |
| First Quarter | $14.20 | $11.05 |
| 2024: | | |
| Fourth Quarter | $10.60 | $8.15 |
| Third Quarter | $9.95 | $8.40 |
| Second Quarter | $9.30 | $7.70 |
| First Quarter | $9.10 | $7.25 |
"""

_YEAR_OVER_KINDS = """\
# Trading range

Our ordinary shares traded within the following range in each quarter.

| | | Share Price Range 2023 |
| --- | --- | --- |
| | Low | High |
| First Quarter | $ 3.10 | $ 4.95 |
| Second Quarter | $ 2.85 | $ 4.10 |
| Third Quarter | $ 2.20 | $ 3.35 |
| Fourth Quarter | $ 1.75 | $ 2.60 |
"""


@pytest.fixture
def asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from ingested_in_fresh_domain(monkeypatch, tmp_path, {"prices.md": _BY_YEAR_ROWS,
                                                                "range.md": _YEAR_OVER_KINDS})


def test_a_quarters_figure_of_each_kind_is_read(asked: None) -> None:
    answer = cli_answer("What was the high in the fourth quarter of 2024?")
    assert "2024Q4 high (label:high): 10.6" in answer, answer
    assert "row=Fourth Quarter,col=High" in answer, answer


def test_the_average_quarterly_figure_is_the_mean_of_the_four_quarters(asked: None) -> None:
    answer = cli_answer("What is the average quarterly low in 2024?")
    # (8.15 + 8.40 + 7.70 + 7.25) / 4, each quarter cited
    assert "2024Q1–2024Q4 average: 7.875 (mean of 4 figures)" in answer, answer
    assert answer.count("col=Low") >= 4, answer


def test_the_two_kinds_of_one_quarter_are_compared(asked: None) -> None:
    answer = cli_answer("What is the difference between the high and low in the first quarter of 2025?")
    assert "2025Q1 difference between high (label:high) and low (label:low): 3.15" in answer, answer


def test_a_year_written_once_over_the_kinds_dates_every_column(asked: None) -> None:
    answer = cli_answer("What was the high in the second quarter of 2023?")
    assert "2023Q2 high (label:high): 4.1" in answer, answer
    assert "col=Share Price Range 2023/High" in answer, answer


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(["First Quarter", "1st Quarter", "Q1", "1Q"]), st.sampled_from(["2021:", "2021"]))
def test_each_writing_of_a_quarter_under_a_year_row_is_that_quarter(quarter: str, year: str) -> None:
    facts = markdown_table_facts([["", "High", "Low"], [year, "", ""], [quarter, "$5.50", "$4.25"],
                                  ["Second Quarter", "$6.00", "$5.10"]], "Share prices")
    assert {(f.metric_code, f.period, f.value) for f in facts} == {
        ("label:high", "2021Q1", 5.5), ("label:low", "2021Q1", 4.25),
        ("label:high", "2021Q2", 6.0), ("label:low", "2021Q2", 5.1)}


def test_quarters_under_no_year_are_not_read_as_any_years() -> None:
    facts = markdown_table_facts([["", "High", "Low"], ["First Quarter", "$5.50", "$4.25"],
                                  ["Second Quarter", "$6.00", "$5.10"]], "Share prices")
    assert not [f for f in facts if f.period_type in ("FY", "Q")]


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["January–June 2023", "Jan-Jun 2023", "Six months 2023", "First half 2023", "H1 2023",
                        "Nine months ended 2023", "2023年1月～6月"]))
def test_a_part_of_a_year_written_over_the_columns_is_no_years_figure(span: str) -> None:
    # a half year's sales are never the year's
    facts = markdown_table_facts([["", "", span, ""], ["", "Sales", "Operating profit", "Depreciation"],
                                  ["Zone Europe", "10,250", "1,640", "(310)"], ["Zone Asia", "8,120", "1,220", "(240)"]],
                                 "Analyses by segment")
    assert not [f for f in facts if f.period_type == "FY" and f.period == "2023"], facts
