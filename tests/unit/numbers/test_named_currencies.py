"""A currency a caption names in words decides what a bare "$" in the cells means, or leaves no currency."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.numbers.units import currency_signs, money_units_in, table_currency

# Dollars other than the US dollar, as captions write them, with the currency they are.
NAMED_DOLLARS = (
    ("NT dollars", "TWD"), ("NT Dollars", "TWD"), ("New Taiwan dollars", "TWD"), ("NT$", "TWD"), ("新台幣", "TWD"),
    ("HK dollars", "HKD"), ("Hong Kong dollars", "HKD"), ("HK$", "HKD"), ("Canadian dollars", "CAD"),
    ("C$", "CAD"), ("CDN$", "CAD"), ("Australian dollars", "AUD"), ("A$", "AUD"), ("Singapore dollars", "SGD"),
    ("S$", "SGD"), ("New Zealand dollars", "NZD"), ("NZ$", "NZD"),
)
SCALES = (("thousand", "K"), ("thousands", "K"), ("million", "M"), ("millions", "M"), ("billion", "B"))
CAPTIONS = ("(in {scale} {cur})", "(in {scale} of {cur})", "In {scale} of {cur}", "({cur} in {scale})")
DOLLAR_CELLS = ("$ 1,234", "$1,234", "($76)", "$ (12)")


@given(st.sampled_from(NAMED_DOLLARS), st.sampled_from(SCALES), st.sampled_from(CAPTIONS),
       st.sampled_from(DOLLAR_CELLS))
def test_a_dollar_the_caption_names_wins_over_a_bare_dollar_sign(
        named: tuple[str, str], scale: tuple[str, str], caption: str, cell: str) -> None:
    (words, code), (scale_word, scale_code) = named, scale
    text = caption.format(scale=scale_word, cur=words)
    currency, conflict = table_currency([cell, "5,678"], [text])

    assert (currency, conflict) == (code, "")
    assert money_units_in(text, currency) == [f"{code}_{scale_code}"]


def test_in_thousand_nt_dollars_beside_dollar_cells_is_twd_not_usd() -> None:
    currency, _ = table_currency(["$ 1,234"], ["(in thousand NT dollars)"])

    assert money_units_in("(in thousand NT dollars)", currency) == ["TWD_K"]


@pytest.mark.parametrize(("cell", "code"), [
    ("NT$1,234", "TWD"), ("HK$ 5", "HKD"), ("A$12", "AUD"), ("C$ 3", "CAD"), ("S$9", "SGD"), ("NZ$7", "NZD"),
    ("US$ 5", "USD"), ("$5", "$"),
])
def test_a_dollar_sign_with_a_country_prefix_is_that_countrys_dollar(cell: str, code: str) -> None:
    assert currency_signs([cell]) == {code}


@pytest.mark.parametrize("caption", ["(in millions of euros)", "(€ in thousands)", "(in thousands of yen)",
                                     "(RMB in millions)", "(in millions of pounds sterling)"])
def test_a_named_currency_that_is_no_dollar_beside_dollar_cells_gives_no_currency_and_a_reason(
        caption: str) -> None:
    currency, conflict = table_currency(["$ 1,234"], [caption])

    assert currency is None
    assert "bare $" in conflict


def test_two_named_dollars_beside_a_bare_dollar_give_no_currency() -> None:
    assert table_currency(["$ 1"], ["(in thousands of NT dollars and US dollars)"])[0] is None


@pytest.mark.parametrize(("cells", "context", "currency"), [
    (["$1,234"], ["(in thousands)"], "USD"),
    (["1,234"], ["(in millions of US dollars)"], "USD"),
    (["1,234"], ["(in thousand NT dollars)"], "TWD"),
    (["$5", "€3"], [""], None),
    (["1,234"], ["(in millions)"], None),
])
def test_the_one_currency_a_table_states(cells: list[str], context: list[str], currency: str | None) -> None:
    assert table_currency(cells, context) == (currency, "")


def test_a_currency_a_lead_paragraph_mentions_in_a_sentence_does_not_contradict_the_cells() -> None:
    lead = "Other assets (in thousands): in 2019 we invested 3.0 million Euro ($3.4 million) in a private company."
    assert table_currency(["$ 1"], [], [lead]) == ("USD", "")


def test_a_lead_paragraph_declaring_its_unit_names_the_currency() -> None:
    assert table_currency(["$ 1"], [], ["The table below is in thousand NT dollars."]) == ("TWD", "")
    assert table_currency(["$ 1"], [], ["Amounts (in millions of euros):"])[0] is None


@pytest.mark.parametrize("heading", ["Europe & Australia", "North America Retail", "Yenta Holdings", "Euronext listing"])
def test_a_word_holding_a_currency_name_names_no_currency(heading: str) -> None:
    assert table_currency(["$ 1,234"], [heading, "(in millions)"]) == ("USD", "")
