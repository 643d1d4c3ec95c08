"""A table cell's figure in every notation annual reports use, and the units captions and headers state."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.numbers.cells import read_cell, strip_footnotes
from ragspine.numbers.units import is_unit_code, units_in

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
])
def test_units_are_read_in_zh_ja_en(text: str, currency: str | None, unit: str) -> None:
    assert units_in(text, currency)[0] == unit
    assert is_unit_code(unit)


@pytest.mark.parametrize("text", ["(in millions, except per share data)", "Net sales", "令和元年", "FY2025 review"])
def test_no_currency_without_one_stated_or_configured(text: str) -> None:
    assert units_in(text) == []


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
