"""Columns dated by a year the glossary's calendar does not close: read as the year written, only without doubt.

A December-year glossary reads ``December 31, 2019`` as FY2019 and nothing else; the tables
below write their years as mid-year balance dates, another company's 52/53-week year ends or
split years. Side by side, one date per year, each column is the year it writes; two dates in
one year or a lone date give no period, and neither does a January or February year end where the
text names such years by their start.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.glossary import Period
from ragspine.ingestion.table_stated_years import split_year_end, stated_date, stated_years
from tests.support.markdown_facts import markdown_table_facts

_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")


def _facts(rows: list[list[str]], after: str = "") -> set[tuple[str, str, object, str]]:
    facts = markdown_table_facts(rows, "Notes to the accounts", after)
    return {(f.metric_code, f.period, f.value, f.source_locator.split("col=")[-1]) for f in facts}


def test_mid_year_balance_dates_of_two_years_are_the_years_they_write() -> None:
    facts = _facts([["", "30 June 2019", "30 June 2018", "Change"], ["", "$’000", "$’000", "%"],
                    ["Underlying EBITDA", "85,123", "62,575", "36%"]])
    assert facts == {("label:underlying ebitda", "2019", 85123, "30 June 2019/$’000"),
                     ("label:underlying ebitda", "2018", 62575, "30 June 2018/$’000")}


def test_a_52_53_week_year_end_drifting_by_a_day_is_still_one_date_a_year() -> None:
    facts = _facts([["", "April 26, 2019", "April 27, 2018"], ["Deferred tax assets:", "", ""],
                    ["Reserves and accruals", "$ 50", "$ 57"]])
    assert {(period, value) for _, period, value, _ in facts} == {("2019", 50), ("2018", 57)}


def test_as_of_dates_over_the_columns_date_them() -> None:
    facts = _facts([["", "As of September 30, 2019", "As of September 30, 2018"], ["Inventories", "1,204", "998"]])
    assert facts == {("label:inventories", "2019", 1204, "As of September 30 2019"),
                     ("label:inventories", "2018", 998, "As of September 30 2018")}


def test_a_roll_forwards_balances_on_two_dates_date_them_and_its_movements_stay_undated() -> None:
    facts = _facts([["", "Balances, March 31, 2023", "Additions", "Payments", "Balances, March 31, 2024"],
                    ["Severance costs", "$40.0", "$12.0", "$(50.5)", "$1.5"],
                    ["Lease exit costs", "3.0", "2.0", "(4.4)", "0.6"]])
    assert facts == {("label:severance costs", "2023", 40.0, "Balances March 31 2023"),
                     ("label:severance costs", "2024", 1.5, "Balances March 31 2024"),
                     ("label:lease exit costs", "2023", 3.0, "Balances March 31 2023"),
                     ("label:lease exit costs", "2024", 0.6, "Balances March 31 2024")}


@pytest.mark.parametrize("header", ["Balances, March 31, 2024", "Balance at March 31, 2024",
                                    "Balance as of March 31, 2024", "balances March 31, 2024 (1)"])
def test_the_balance_on_a_date_is_that_date(header: str) -> None:
    assert stated_date(header) == dt.date(2024, 3, 31)


def test_split_years_are_the_year_they_end_in() -> None:
    facts = _facts([["€ million", "2017/2018", "2018/2019"], ["Income taxes", "−216", "−298"]])
    assert facts == {("label:income taxes", "2018", -216, "2017/2018"),
                     ("label:income taxes", "2019", -298, "2018/2019")}


def test_two_dates_in_one_year_give_no_period() -> None:
    facts = _facts([["(In millions)", "As of August 1, 2019", "Adjustments", "As of December 31, 2019"],
                    ["Goodwill", "261.3", "(7.4)", "253.9"]])
    # the day inside the year is no fiscal year's: its column is read as of its date, of no period
    assert facts == {("label:august 1, 2019: goodwill", "", 261.3, "As of August 1 2019"),
                     ("label:goodwill", "2019", 253.9, "As of December 31 2019")}


def test_a_date_over_two_columns_of_one_kind_gives_no_period() -> None:
    facts = _facts([["", "August 31, 2019", "August 31, 2019", "August 31, 2018"],
                    ["Internet service customers", "446,137", "21,189", "21,417"]])
    assert facts == set()


def test_a_date_over_columns_told_apart_by_their_kinds_dates_each_kind_of_two_columns() -> None:
    facts = _facts([["", "", "Subscribers won (lost)", "", "Share of homes reached %", ""],
                    ["", "May 31, 2021", "May 31, 2021", "May 31, 2020", "May 31, 2021", "May 31, 2020"],
                    ["Fibre lines", "310,550", "12,404", "(1,870)", "41.2", "38.9"]])
    # the balance is the one column of its kind: its date read alone, it stays undated; each kind is a word of the
    # row's name, since the balance under the same date is another figure of the same row
    assert {(metric, period, value) for metric, period, value, _ in facts} == {
        ("label:subscribers won (lost) of fibre lines", "2021", 12404),
        ("label:subscribers won (lost) of fibre lines", "2020", -1870),
        ("label:share of homes reached % of fibre lines", "2021", 41.2),
        ("label:share of homes reached % of fibre lines", "2020", 38.9)}


def test_a_unit_note_tells_no_kind_apart() -> None:
    facts = _facts([["", "30 June 2019", "30 June 2019", "30 June 2018"], ["", "$’000", "US$’000", "$’000"],
                    ["Underlying EBITDA", "85,123", "112,040", "62,575"]])
    assert facts == set()


_JANUARY_YEARS = [["(In millions)", "January 30, 2021", "February 1, 2020"], ["Gift card liabilities", "96.4", "88.1"]]


def test_years_ended_in_january_or_february_named_by_their_end_are_the_years_their_dates_write() -> None:
    after = "Fiscal 2021 ended January 30, 2021 and fiscal 2020 ended February 1, 2020; both had 52 weeks."
    assert _facts(_JANUARY_YEARS, after) == {
        ("label:gift card liabilities", "2021", 96.4, "January 30 2021 (fiscal 2021)"),
        ("label:gift card liabilities", "2020", 88.1, "February 1 2020 (fiscal 2020)")}


def test_years_ended_in_january_or_february_named_by_their_start_give_no_period() -> None:
    by_start = "Fiscal 2020 ended January 30, 2021 and fiscal 2019 ended February 1, 2020; both had 52 weeks."
    # no year's figure: each column is read as of its own date (ingestion/table_column_dates.py)
    assert _facts(_JANUARY_YEARS, by_start) == {
        ("label:january 30, 2021: gift card liabilities", "", 96.4, "January 30 2021"),
        ("label:february 1, 2020: gift card liabilities", "", 88.1, "February 1 2020")}


def test_years_ended_in_january_or_february_named_by_neither_are_the_years_their_dates_write() -> None:
    # the answer citing them says so (tests/integration/qa/periods/test_january_year_ends.py)
    assert _facts(_JANUARY_YEARS, "Both years had 52 weeks.") == {
        ("label:gift card liabilities", "2021", 96.4, "January 30 2021"),
        ("label:gift card liabilities", "2020", 88.1, "February 1 2020")}


def test_a_lone_mid_year_date_gives_no_period() -> None:
    assert _facts([["", "June 30, 2019", "Adjustments"], ["Inventories", "1,204", "12"]]) == set()


def test_dates_of_different_times_of_year_give_no_period() -> None:
    # no year's figure: each column is read as of its own date (ingestion/table_column_dates.py)
    assert _facts([["", "June 30, 2019", "September 30, 2018"], ["Inventories", "1,204", "998"]]) == {
        ("label:june 30, 2019: inventories", "", 1204, "June 30 2019"),
        ("label:september 30, 2018: inventories", "", 998, "September 30 2018")}


def test_a_descending_or_gapped_split_year_is_no_year() -> None:
    assert split_year_end("2019/2018") is None
    assert split_year_end("2016/2018") is None
    assert split_year_end("2018/19") == 2019


def test_the_glossary_reading_wins_over_the_written_years() -> None:
    facts = _facts([["", "December 31, 2019", "June 30, 2019", "June 30, 2018"], ["Inventories", "1,204", "998", "870"]])
    # the June columns are no fiscal year's: each read as of its own date, of no period
    assert facts == {("label:inventories", "2019", 1204, "December 31 2019"),
                     ("label:june 30, 2019: inventories", "", 998, "June 30 2019"),
                     ("label:june 30, 2018: inventories", "", 870, "June 30 2018")}


_DAYS = st.dates(min_value=dt.date(2000, 3, 1), max_value=dt.date(2030, 12, 31))


@given(_DAYS, st.integers(min_value=1, max_value=5), st.booleans())
def test_stated_years_dates_each_column_by_its_own_year_or_not_at_all(first: dt.date, years: int, day_first: bool) -> None:
    dates = [first.replace(year=first.year - k) if not (first.month == 2 and first.day == 29) else first
             for k in range(years + 1)]

    def written(d: dt.date) -> str:
        month = _MONTH_NAMES[d.month - 1]
        return f"{d.day} {month} {d.year}" if day_first else f"{month} {d.day}, {d.year}"

    headers = {c + 1: ["", written(d)] for c, d in enumerate(dates)}
    assert all(stated_date(texts[1]) == d for texts, d in zip(headers.values(), dates, strict=True))
    found = stated_years(headers, FiscalCalendar())
    if len(set(dates)) < 2:
        assert found == {}
    else:
        assert found == {c + 1: Period.fiscal_year(d.year) for c, d in enumerate(dates)}


def test_blocks_dated_by_rows_of_mid_year_dates_are_the_years_they_write() -> None:
    facts = _facts([["", "Gross", "Net"], ["June 30, 2019", "", ""], ["Leasehold", "23", "77"],
                    ["June 30, 2018", "", ""], ["Leasehold", "60", "40"]])
    assert {(metric, period, value) for metric, period, value, _ in facts} == {
        ("label:gross: leasehold", "2019", 23), ("label:net: leasehold", "2019", 77),
        ("label:gross: leasehold", "2018", 60), ("label:net: leasehold", "2018", 40)}


def test_rows_of_two_dates_in_one_year_date_no_block() -> None:
    facts = _facts([["", "Gross", "Net"], ["June 30, 2019", "", ""], ["Leasehold", "23", "77"],
                    ["September 30, 2019", "", ""], ["Leasehold", "60", "40"]])
    assert not any(period in ("2019", "2018") for _, period, _, _ in facts)
