"""The number reader: every surface form it must see, and the codes, ordinals and words it must not."""

from __future__ import annotations

import pytest

from ragspine.numbers import is_number, read_numbers, sourced_values


def values(text: str) -> list[str]:
    return [m.value for m in read_numbers(text)]


@pytest.mark.parametrize(("text", "expected"), [
    ("香港收入下滑是因为客流减少了23%，共关闭了9家门店。", ["23", "9"]),  # an invented-figure sentence
    ("営業利益は前年から480億円増えました。", ["48000000000"]),
    ("Operating profit rose by 4800 million", ["4800000000"]),
    ("约从１，３２０增至３２１．５", ["1320", "321.5"]),  # full-width digits and separators
    ("下降−7.4%，上升+3.5‰", ["7.4", "3.5"]),
    ("客流1.2万人，利润3.5亿，999億，4800百万，3万2千，1亿2000万", ["12000", "350000000", "99900000000",
                                                       "4800000000", "32000", "120000000"]),
    ("4.3 million and 2 billion, 5bn", ["4300000", "2000000000", "5000000000"]),
    ("八十七，一万二千三百四十五，千二百円，二十三点五，百分之七点四，二〇二四年", ["87", "12345", "1200", "23.5", "7.4", "2024"]),
    ("三家门店，两个原因，二つの店舗，十家，七成，百分之九 stores", ["3", "2", "2", "10", "7", "9"]),
    ("eighty-seven percent, twelve thousand, a hundred stores, Twenty-one", ["87", "12000", "100", "21"]),
    ("关闭了eighty-seven家", ["87"]),
    ("营收1,320.5 USD_M", ["1320.5"]),
    ("2024年，在2024财年", ["2024", "2024"]),
    ("关闭了十万家门店，十亿元，百万家", ["100000", "1000000000", "1000000"]),  # scales only, yet figures
])
def test_every_surface_form_is_read(text: str, expected: list[str]) -> None:
    assert values(text) == expected


@pytest.mark.parametrize("text", ["one store closed", "up one percentage point", "rose by one percent",
                                  "关闭了一家门店", "新开一间分店", "裁减一名员工", "増えて一倍に", "閉店は一店"])
def test_one_before_a_counter_that_only_counts_is_a_number(text: str) -> None:
    assert values(text) == ["1"]


@pytest.mark.parametrize("text", [
    "FY2024 Q3 H1 ACME_FY2024_MDA.docx ACME_JP_2025_Report.md v1.2 sha256",  # codes, as before
    "第三季度，第3名",  # ordinals
    "一些门店，统一，唯一，一个原因，一家人",  # 一 alone is an article as often as a figure
    "one of the reasons, someone, often, none",
    "万达，百货，千万不要，十分重要，九龙，三越，十一月",  # lone scales, names, months
])
def test_codes_ordinals_and_ordinary_words_are_not_numbers(text: str) -> None:
    assert values(text) == []


def test_a_scaled_number_means_its_value_and_a_unit_allows_both() -> None:
    (wan,) = read_numbers("1.2万")
    (unit,) = read_numbers("1320 USD_M")
    assert (wan.readings, wan.bare) == ({"12000"}, "1.2")
    assert unit.readings == {"1320", "1320000000"}


def test_evidence_accounts_for_the_bare_figure_and_the_value() -> None:
    assert sourced_values(["客流1.2万人", "三家门店"]) == {"12000", "1.2", "3"}


def test_a_malformed_cjk_run_reads_its_digits_rather_than_nothing() -> None:
    assert values("万三五") == ["3", "5"]


@pytest.mark.parametrize(("cell", "number"), [
    ("1,320", True), ("36%", True), ("-7.4", True), ("１２０", True), ("二〇二四", True),
    ("FY2024", False), ("三家", False), ("Revenue", False), ("营业收入", False), ("1320 2024", False),
])
def test_is_number_tells_a_table_cell(cell: str, number: bool) -> None:
    assert is_number(cell) is number
