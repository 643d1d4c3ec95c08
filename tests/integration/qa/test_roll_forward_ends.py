"""A roll-forward's opening and closing rows of one item: "ending" or "closing" names the row at the end.

"Intangibles, beginning of year" and "Intangibles, end of year" share the item's name; a question asking
for the "ending intangibles" or "the intangibles at the end of 2023" means the closing row, and so does the
change of the item between two years (the difference of its balances at each year's end); a question naming
neither end for one year is still asked back.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.domain_env import ingested_for_module, service_answer

ROLL_FORWARD = """\
# Larchmont Tools annual report

Changes in intangibles (in millions):

| | December 31, 2023 | December 31, 2022 |
| --- | --- | --- |
| Intangibles, beginning of year | $ 812.4 | $ 790.1 |
| Additions from acquisitions | 95.0 | 44.7 |
| Amortization | (27.6) | (20.4) |
| Measurement period adjustments | (4.0) | (2.0) |
| Intangibles, end of year | $ 875.8 | $ 812.4 |
"""


@pytest.fixture(scope="module")
def ingested_roll_forward(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "roll_forward_ends", {"larchmont.md": ROLL_FORWARD})


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["ending", "closing"]), st.sampled_from(["", "the ", "total "]))
def test_ending_before_the_item_reads_the_closing_row(ingested_roll_forward: None, end: str, lead: str) -> None:
    # GIVEN a roll-forward whose opening and closing rows name the same item
    # WHEN the question names the item's end in one word before it
    answer, _ = service_answer(f"What was {lead}{end} intangibles in 2023?")
    # THEN the closing row's figure is given, cited from its row
    assert "875.8" in answer and "end of year" in answer
    assert "812.4" not in answer


def test_the_sum_of_ending_balances_adds_the_closing_rows(ingested_roll_forward: None) -> None:
    answer, _ = service_answer("What is the total ending intangibles for the years 2022 and 2023?")
    assert "1688.2" in answer or "1,688.2" in answer


def test_a_counted_span_of_years_names_no_rows_period(ingested_roll_forward: None) -> None:
    # "the 2 year period" is the years averaged over, not the "period" of "Measurement period adjustments"
    answer, _ = service_answer("What is the average ending intangibles for the 2 year period from 2022 to 2023?")
    assert "844.1" in answer


def test_the_end_of_a_year_reads_the_closing_row(ingested_roll_forward: None) -> None:
    answer, _ = service_answer("What were the intangibles at the end of 2023?")
    assert "875.8" in answer and "812.4" not in answer


def test_a_year_ending_on_a_date_names_no_end_of_the_item(ingested_roll_forward: None) -> None:
    # "the year ending December 31, 2023" names the period: the item's two rows are still offered back
    answer, _ = service_answer("What were the intangibles for the year ending December 31, 2023?")
    assert "875.8" not in answer and "812.4" not in answer


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["What was the change in intangibles from 2022 to 2023?",
                        "What is the difference in intangibles between 2022 and 2023?",
                        "By how much did intangibles increase from 2022 to 2023?"]))
def test_the_change_of_an_item_between_years_reads_the_closing_row(ingested_roll_forward: None,
                                                                   question: str) -> None:
    # GIVEN a roll-forward stating the item at each year's beginning and end
    # WHEN the question asks how the item moved between two years, naming neither end
    answer, _ = service_answer(question)
    # THEN the closing balances are compared, each cited from the closing row
    assert "up 63.4" in answer
    assert "row=Intangibles end of year,col=December 31 2023" in answer
    assert "row=Intangibles end of year,col=December 31 2022" in answer
    assert "beginning of year" not in answer


def test_the_change_of_the_opening_balance_keeps_its_row(ingested_roll_forward: None) -> None:
    # the opening balance named reads its own row, never the closing one
    answer, _ = service_answer("What was the change in intangibles at the beginning of the year from 2022 to 2023?")
    assert "up 22.3" in answer and "end of year" not in answer


MOVEMENT = """\
# Larchmont Tools annual report

Contributed equity:

| | 2023 | 2022 |
| --- | --- | --- |
| | $M | $M |
| Movement: | | |
| Share buy-back | (282) | – |
| Issue of shares under the employee plan | 114 | 482 |
| Contributed equity at end of period | 5,828 | 6,055 |
"""


@pytest.fixture(scope="module")
def ingested_movement(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "movement_end", {"larchmont.md": MOVEMENT})


def test_the_change_of_a_balance_stated_only_at_the_end_reads_that_row(ingested_movement: None) -> None:
    # GIVEN the item is stated only as its balance at the end of each period
    # WHEN its change between two years is asked in the currency's scale
    answer, _ = service_answer("What is the nominal difference in contributed equity between 2022 and 2023 in terms "
                               "of $M?")
    # THEN the end-of-period balances are compared
    assert "down 227" in answer
    assert "row=Movement: Contributed equity at end of period,col=2023" in answer


CLOSING_CASH = """\
# Larchmont Tools highlights

Key figures (in millions):

| | 2023 | 2022 |
| --- | --- | --- |
| Closing cash | 183.2 | 121.6 |
| Net debt, end of year | 40.5 | 52.0 |
"""


@pytest.fixture(scope="module")
def ingested_closing_cash(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "closing_cash", {"larchmont.md": CLOSING_CASH})


def test_a_row_named_closing_keeps_its_own_word(ingested_closing_cash: None) -> None:
    # GIVEN a row written "Closing cash" beside another row's "end of year": "closing" is that row's own word
    answer, _ = service_answer("What was the closing cash in 2023?")
    assert "183.2" in answer
