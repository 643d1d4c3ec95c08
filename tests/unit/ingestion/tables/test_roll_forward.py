"""A roll-forward (balance, the year's movements, the next balance) dated by its balance rows' own dates.

Stock-option and reserve tables put their dates in the label column, not the headers: each
movement belongs to the year the next balance closes, each balance to its own date's year.
Dates one year apart, ascending, at one time of year; otherwise nothing is dated.
"""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.calendar import FiscalCalendar
from ragspine.ingestion.table_roll_forward import balance_row, roll_forward
from tests.support.markdown_facts import markdown_facts, markdown_table_facts


def _facts(rows: list[list[str]]) -> set[tuple[str, str, object, str]]:
    facts = markdown_table_facts(rows, "Share-based compensation")
    return {(f.metric_code, f.period, f.value, f.source_locator.split(",row=")[-1]) for f in facts}


def test_movements_belong_to_the_year_the_next_balance_closes() -> None:
    facts = _facts([["Non-vested awards", "Shares"], ["Non-vested at December 31, 2018", "1,187,586"],
                    ["Granted", "473,550"], ["Vested", "(365,223)"], ["Non-vested at December 31, 2019", "1,283,281"]])
    assert {(period, value) for _, period, value, _ in facts} == {
        ("2018", 1187586), ("2019", 473550), ("2019", -365223), ("2019", 1283281)}
    assert ("label:shares: non-vested", "2018", 1187586, "Non-vested at December 31 2018,col=Shares") in facts


def test_mid_year_balance_dates_name_the_year_written() -> None:
    facts = _facts([["", "Number of Shares"], ["Outstanding at September 30, 2017", "2,845,866"],
                    ["Granted", "299,397"], ["Outstanding at September 30, 2018", "2,806,364"],
                    ["Granted", "409,368"], ["Outstanding at September 30, 2019", "1,686,902"]])
    assert {(metric, period, value) for metric, period, value, _ in facts} == {
        ("label:number of shares: outstanding", "2017", 2845866), ("label:number of shares: granted", "2018", 299397),
        ("label:number of shares: outstanding", "2018", 2806364), ("label:number of shares: granted", "2019", 409368),
        ("label:number of shares: outstanding", "2019", 1686902)}


def test_a_column_without_a_header_beside_a_headed_one_is_not_read() -> None:
    facts = _facts([["", "Number of Shares (thousands)", ""], ["Nonvested as of December 31, 2018", "5,974", "$6.51"],
                    ["Granted", "3,288", "$6.74"], ["Nonvested as of December 31, 2019", "6,148", "$6.59"]])
    assert {value for _, _, value, _ in facts} == {5974, 3288, 6148}


def test_a_roll_forward_whose_columns_have_no_headers_is_not_dated() -> None:
    assert _facts([["", "", ""], ["Balance at December 31, 2019", "100", "100"], ["Net of tax", "(567)", "(567)"],
                   ["Balance at December 31, 2020", "90", "90"]]) == set()


def test_balances_not_one_year_apart_date_nothing() -> None:
    assert _facts([["", "Shares"], ["Outstanding at September 30, 2017", "10"], ["Granted", "3"],
                   ["Outstanding at September 30, 2019", "13"]]) == set()
    assert _facts([["", "Shares"], ["Outstanding at June 30, 2019", "10"], ["Granted", "3"],
                   ["Outstanding at December 31, 2019", "13"]]) == set()


def test_balances_in_descending_order_date_nothing() -> None:
    assert _facts([["", "Shares"], ["Outstanding at September 30, 2019", "10"], ["Granted", "3"],
                   ["Outstanding at September 30, 2018", "13"]]) == set()


def test_january_balance_dates_outside_the_glossary_year_date_nothing() -> None:
    assert _facts([["", "Shares"], ["Outstanding at January 31, 2018", "10"], ["Granted", "3"],
                   ["Outstanding at January 31, 2019", "13"]]) == set()


def test_a_balance_label_is_its_words_and_its_date() -> None:
    assert balance_row("Balance, December 31, 2019") == ("Balance", dt.date(2019, 12, 31))
    assert balance_row("Outstanding as of 30 June 2018") == ("Outstanding", dt.date(2018, 6, 30))
    assert balance_row("Granted") is None
    assert balance_row("December 31, 2019") is None  # a period row, not a balance


@given(st.dates(min_value=dt.date(2001, 3, 1), max_value=dt.date(2030, 12, 31)), st.integers(2, 4),
       st.integers(0, 3))
def test_every_row_between_two_balances_takes_the_later_balance_s_year(first: dt.date, balances: int,
                                                                       moves: int) -> None:
    if first.month in (1, 2):  # January and February dates: test_january_balance_dates_…
        first = first.replace(month=3, day=min(first.day, 28))
    labels: list[tuple[int, str]] = []
    expected: dict[int, str] = {}
    for k in range(balances):
        day = first.replace(year=first.year + k)
        if k:
            for m in range(moves):
                expected[len(labels)] = str(day.year)
                labels.append((len(labels), f"Movement {m}"))
        expected[len(labels)] = str(day.year)
        labels.append((len(labels), f"Balance at {day:%B} {day.day}, {day.year}"))
    for calendar in (FiscalCalendar(), FiscalCalendar(end_month=first.month)):  # dates inside or closing the year
        dated = roll_forward(labels, calendar)
        assert {r: period.period for r, (period, _) in dated.items()} == expected


def test_a_column_of_share_counts_keeps_its_scale_without_the_table_s_currency() -> None:
    text = ("| | Number of Shares (thousands) | Weighted-Average Price |\n| --- | --- | --- |\n"
            "| Nonvested as of December 31, 2018 | 5,974 | $6.51 |\n| Granted | 3,288 | $6.74 |\n"
            "| Nonvested as of December 31, 2019 | 6,148 | $6.59 |\n")
    units = {f.value: f.unit for f in markdown_facts(text)}
    assert units[3288] == "K" and units[5974] == "K"
