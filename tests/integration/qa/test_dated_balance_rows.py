"""A balance asked at a date a row names: "the total investment in partnerships at 31 December 2023".

A movement table states its balances as rows named by their day ("At 1 January", "At 31 December")
and the year in its columns. The question naming the table's subject at such a date reads that row
in the year of the date, each figure cited; two days asked, a day inside the year, or two rows named by
the day are asked back with no number. Asked through ``answer_question`` and ``POST /v1/ask``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.bootstrap import get_services
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module, service_answer

MOVEMENTS = """\
# Wrenfield Holdings annual report

17 Investment in partnerships

| £m | 2023 | 2022 |
| --- | --- | --- |
| At 1 January | 48.0 | 40.0 |
| Share of post-tax profit of partnerships | 6.0 | 9.5 |
| Dividends received | (2.0) | (1.5) |
| At 31 December | 52.0 | 48.0 |

The partnerships develop logistics parks.
"""

US_MOVEMENTS = """\
# Corbell Tools annual report

The changes in the warranty reserve were as follows (in thousands):

| | 2023 | 2022 |
| --- | --- | --- |
| Balance at January 1 | 1,200 | 1,000 |
| Provided in the year | 450 | 380 |
| Claims paid | (250) | (180) |
| Balance at December 31 | 1,400 | 1,200 |
"""

TWO_MOVEMENTS = """\
# Ashdown Rail annual report

Property, plant and equipment (in millions):

| | 2023 | 2022 |
| --- | --- | --- |
| Cost: | | |
| At 31 December | 900.0 | 850.0 |
| Accumulated depreciation: | | |
| At 31 December | (300.0) | (260.0) |
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "dated_balances", {"wrenfield.md": MOVEMENTS})


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, ingested: None) -> Ask:
    return asker(request.param, get_services())


def test_a_change_between_two_closing_dates_reads_the_closing_row(ask: Ask) -> None:
    # WHEN a user asks the change of the table's subject between two year-end dates
    answer = ask("What is the percentage change in Wrenfield Holdings' total investment in partnerships "
                 "from 31 December 2022 to 31 December 2023?")["answer"]
    # THEN the closing row of each year is read, each figure cited, and the change computed from both
    assert "FY2023 vs FY2022 up 4.0 GBP_M（+8.33%）" in answer
    assert "row=At 31 December,col=2022" in answer and "row=At 31 December,col=2023" in answer
    assert "At 1 January" not in answer


def test_a_change_between_two_opening_dates_reads_the_opening_row(ask: Ask) -> None:
    # "1 January 2023" opens the year of the 2023 column: the opening row of that column, not the year before
    answer = ask("What is the percentage change in Wrenfield Holdings' total investment in partnerships "
                 "from 1 January 2022 to 1 January 2023?")["answer"]
    assert "FY2023 vs FY2022 up 8.0 GBP_M（+20.00%）" in answer
    assert "row=At 1 January,col=2022" in answer and "row=At 1 January,col=2023" in answer
    assert "At 31 December" not in answer


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(date=st.sampled_from(["31 December 2023", "December 31, 2023", "Dec 31, 2023",
                             "31 Dec 2023"]),
       lead=st.sampled_from(["Wrenfield Holdings' total investment in partnerships",
                             "the investment in partnerships of Wrenfield Holdings"]))
def test_one_date_however_written_reads_that_year_s_balance(ingested: None, date: str, lead: str) -> None:
    answer, _ = service_answer(f"What was {lead} as at {date}?")
    assert "52.0 GBP_M" in answer and "row=At 31 December,col=2023" in answer
    assert "48.0" not in answer


def test_two_different_days_are_asked_back(ingested: None) -> None:
    # "from 1 January 2023 to 31 December 2023" names two rows in one year: no figure chosen
    answer, _ = service_answer("What is the change in Wrenfield Holdings' investment in partnerships "
                               "from 1 January 2023 to 31 December 2023?")
    assert "GBP_M" not in answer


def test_a_day_inside_the_year_is_no_balance_row(ingested: None) -> None:
    answer, _ = service_answer("What was Wrenfield Holdings' investment in partnerships at 30 June 2023?")
    assert "GBP_M" not in answer


def test_another_row_named_keeps_its_own_reading(ingested: None) -> None:
    # the question names "dividends received": the date is its period, the balance rows are not read
    answer, _ = service_answer("What were Wrenfield Holdings' dividends received in the year to 31 December 2023?")
    assert "At 31 December" not in answer


@pytest.fixture(scope="module")
def ingested_us(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "dated_balances_us", {"corbell.md": US_MOVEMENTS})


def test_a_balance_row_written_month_first_is_read_alike(ingested_us: None) -> None:
    answer, _ = service_answer("What is the change in the warranty reserve "
                               "between December 31, 2022 and December 31, 2023?")
    assert "up 200 K" in answer
    assert "row=Balance at December 31,col=2022" in answer and "row=Balance at December 31,col=2023" in answer


@pytest.fixture(scope="module")
def ingested_two(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "dated_balances_two", {"ashdown.md": TWO_MOVEMENTS})


def test_two_rows_named_by_the_day_are_asked_back(ingested_two: None) -> None:
    # cost and accumulated depreciation both close at 31 December: which one is not for the engine to choose
    answer, _ = service_answer("What was the property, plant and equipment at 31 December 2023?")
    assert "900.0" not in answer and "300.0" not in answer
    assert "cost: at 31 december" in answer and "accumulated depreciation: at 31 december" in answer


@pytest.mark.parametrize("asked", ["the dividends", "the profit share"])
def test_words_mostly_another_row_s_are_not_the_balance(ingested: None, asked: str) -> None:
    # "the profit share at 31 December 2023" asks the year's share of profit, which closes then, not the balance
    answer, _ = service_answer(f"What was {asked} of Wrenfield Holdings at 31 December 2023?")
    assert "52.0" not in answer and "At 31 December" not in answer
