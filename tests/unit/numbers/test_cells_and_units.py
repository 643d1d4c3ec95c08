"""A table cell's figure in every notation annual reports use, and the units captions and headers state."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.numbers.cells import read_cell, strip_footnotes
from ragspine.numbers.units import currency_signs, is_unit_code, units_in

NEGATIVE_FORMS = ("({})", "△{}", "▲{}", "−{}", "-{}", "{}−", "{}-", "（{}）", "－{}")
FOOTNOTES = ("※1", "*2", "†", "‡", "(注1)", "¹", " ※3")
CURRENCY_SIGNS = ("", "$", "¥", "€", "£")


def _grouped(value: int) -> str:
    return f"{value:,}"


@given(st.integers(min_value=0, max_value=10**12), st.sampled_from(NEGATIVE_FORMS), st.sampled_from(FOOTNOTES),
       st.booleans())
def test_negatives_in_every_notation_with_footnote_marks_read_as_written(
        value: int, form: str, mark: str, grouped: bool) -> None:
    written = form.format(_grouped(value) if grouped else str(value))
    cell = read_cell(written + mark)
    assert cell is not None and cell.value == -value and isinstance(cell.value, int) and not cell.percent


@given(st.decimals(min_value=0, max_value=10**6, places=2, allow_nan=False, allow_infinity=False),
       st.sampled_from(CURRENCY_SIGNS))
def test_decimals_keep_their_form_and_percentages_are_marked(value: Decimal, sign: str) -> None:
    text = f"{value:.2f}"
    cell = read_cell(f"{sign}{text}")
    assert cell is not None and cell.value == float(text) and isinstance(cell.value, float)
    percent = read_cell(f"{text}%")
    assert percent is not None and percent.percent and percent.value == float(text)


@given(st.integers(min_value=0, max_value=10**9))
def test_full_width_digits_read_like_ascii(value: int) -> None:
    full = _grouped(value).translate(str.maketrans("0123456789,", "０１２３４５６７８９，"))
    cell = read_cell(full)
    assert cell is not None and cell.value == value


@pytest.mark.parametrize("text", ["1,2,3", "12 34", "about 12", "2024-03-31", "(12", "-12-", "12.3.4", "n/a", "",
                                  "FY2024", "12 million", "１２万"])
def test_anything_but_one_figure_is_none(text: str) -> None:
    assert read_cell(text) is None


def test_footnote_marks_leave_labels() -> None:
    assert strip_footnotes("売上高※1") == "売上高"
    assert strip_footnotes("Net sales*2") == "Net sales"
    assert strip_footnotes("Operating income† (注3)") == "Operating income"


@pytest.mark.parametrize(("text", "currency", "unit"), [
    ("Net sales (¥ million)", "JPY", "JPY_M"),
    ("単位：百万円", None, "JPY_M"),
    ("単位：十億円", None, "JPY_B"),
    ("金額(百万円)", None, "JPY_M"),
    ("单位：亿元", None, "CNY_100M"),
    ("単位：億円", None, "JPY_100M"),
    ("单位：千元", None, "CNY_K"),
    ("单位：万元", None, "CNY_10K"),
    ("（単位：千万円）", None, "JPY_10M"),
    ("in thousands of US dollars", None, "USD_K"),
    ("(in millions, except per share data)", "USD", "USD_M"),
    ("$ in millions", None, "USD_M"),
    ("HK$ million", None, "HKD_M"),
    ("Hong Kong dollars in millions", None, "HKD_M"),
    ("Unit: USD_M", None, "USD_M"),
    ("In millions of CHF", None, "CHF_M"),
    ("SEK bn", None, "SEK_B"),
    ("millions of euros", None, "EUR_M"),
    ("RMB bn", None, "CNY_B"),
    ("单位：百万美元", None, "USD_M"),
    ("RMB’Million", None, "CNY_M"),
    ("US$’000", None, "USD_K"),
    ("Expressed in US $000's except per share amounts", None, "USD_K"),
    ("(in $000s)", None, "USD_K"),
    ("€000", None, "EUR_K"),
    ("€m", None, "EUR_M"),
])
def test_units_are_read_in_zh_ja_en(text: str, currency: str | None, unit: str) -> None:
    assert units_in(text, currency)[0] == unit
    assert is_unit_code(unit)


@pytest.mark.parametrize("text", ["Net sales", "令和元年", "FY2025 review", "Millions of customers", "(m)",
                                  "Grants of $1,000 each", "Volumes (in 000s of tonnes)", "Revenue 2000"])
def test_no_unit_where_none_is_stated(text: str) -> None:
    assert units_in(text) == []


@pytest.mark.parametrize(("text", "unit"), [
    ("(in millions, except per share data)", "M"), ("in thousands", "K"), ("(In thousands)", "K"),
    ("単位：百万", "M"), ("单位：亿", "100M"), ("(in billions)", "B"),
    ("(Millions)", "M"), ("(Millions, except per share amounts)", "M"), ("Sales (millions)", "M"),
    ("Comparison of the two years (in 000’s)", "K"), ("(000s)", "K"),
])
def test_a_scale_with_no_currency_is_the_scale_alone(text: str, unit: str) -> None:
    assert units_in(text) == [unit]
    assert is_unit_code(unit)
    assert units_in(text, "USD") == [f"USD_{unit}"]  # the currency the document states elsewhere


@pytest.mark.parametrize(("texts", "found"), [
    (["$1,234", "($76)"], {"$"}), (["€m"], {"EUR"}), (["US$ 5"], {"USD"}), (["RMB’Million"], {"CNY"}),
    (["1,234", "(in millions)"], set()), (["RMB’Million"], {"CNY"}), (["$5", "£3"], {"$", "GBP"}), (["Europe", "euro area"], set()),
])
def test_the_currencies_a_document_states(texts: list[str], found: set[str]) -> None:
    assert currency_signs(texts) == found


@pytest.mark.parametrize(("text", "value", "percent"), [
    ("($76)", -76, False), ("( $ 1,234 )", -1234, False), ("(US$5)", -5, False), ("(248%)", -248, True),
    ("(8.4 % )", -8.4, True), ("$(76)", -76, False),
])
def test_a_currency_sign_or_percent_inside_the_parentheses_is_read(text: str, value: float, percent: bool) -> None:
    number = read_cell(text)
    assert number is not None and number.value == value and number.percent is percent


@pytest.mark.parametrize("text", ["$($76)", "(-76)", "(12%)%", "($76", "$76)"])
def test_odd_parentheses_are_no_figure(text: str) -> None:
    assert read_cell(text) is None


@given(st.sampled_from(sorted({"USD", "JPY", "EUR", "CNY", "GBP", "CHF", "SEK", "INR", "BRL", "KRW"})),
       st.sampled_from(["thousand", "thousands", "million", "millions", "billion", "bn", "m", "k"]))
def test_any_iso_code_with_a_scale_word_is_a_unit_code(code: str, scale: str) -> None:
    (found, *_) = units_in(f"({code} {scale})")
    assert found.startswith(code + "_") and is_unit_code(found)


@pytest.mark.parametrize(("text", "units"), [
    ("Yen-denominated debentures, 1.219%, due 2030", []),  # the rate describes the debt: its figures are money
    ("0.95% - 4.88% due through 2048", []),
    ("Gross margin (%)", ["PCT"]),
    ("% of net sales", ["PCT"]),
    ("Operating margin %", ["PCT"]),
])
def test_a_percent_sign_after_a_digit_in_a_label_is_no_unit(text: str, units: list[str]) -> None:
    assert units_in(text) == units
