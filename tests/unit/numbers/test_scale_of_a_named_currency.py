"""A scale written "of" a currency's name is that currency's scale; a scale of anything else is no money unit."""

from __future__ import annotations

import pytest

from ragspine.numbers.units import units_in


@pytest.mark.parametrize(("text", "unit"), [
    ("(in millions of yen)", "JPY_M"),
    ("Three-year summary (in millions of yen)", "JPY_M"),
    ("in thousands of yen", "JPY_K"),
    ("(in billions of won)", "KRW_B"),
    ("(in millions of rupees)", "INR_M"),
    ("(in millions of dollars)", "USD_M"),
])
@pytest.mark.parametrize("stated", [None, "JPY", "EUR"])
def test_the_currency_named_after_the_scale_is_the_units_whatever_the_table_states(text: str, unit: str,
                                                                                  stated: str | None) -> None:
    assert units_in(text, stated) == [unit]


@pytest.mark.parametrize("text", ["(in millions of shares)", "in thousands of tonnes", "(in millions of units)"])
@pytest.mark.parametrize("stated", [None, "USD"])
def test_a_scale_of_something_else_is_no_money_unit(text: str, stated: str | None) -> None:
    assert units_in(text, stated) == []


@pytest.mark.parametrize(("text", "units"), [
    ("Amounts in 100 millions of yen", ["JPY_100M"]),
    ("(in 10 thousands of yen)", ["JPY_10K"]),
    ("(in 100 thousands of yen)", []),  # no code states a hundred thousand: no unit rather than thousands
])
def test_a_number_before_the_scale_multiplies_it(text: str, units: list[str]) -> None:
    assert units_in(text) == units


@pytest.mark.parametrize(("text", "units"), [
    ("USDm", ["USD_M"]),
    ("DKKm", ["DKK_M"]),
    ("EURbn", ["EUR_B"]),
    ("Figures in SEKk", ["SEK_K"]),
    ("ABCm", []),  # no currency's code
    ("Item", []),  # a word ending in m is no scale
    ("CEOm", []),
])
def test_a_currency_code_with_its_scale_run_on_is_that_unit(text: str, units: list[str]) -> None:
    assert units_in(text) == units
